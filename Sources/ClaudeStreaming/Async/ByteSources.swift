public import Foundation

// Ready-made byte sources for `messageSnapshots()`: bytes already in memory,
// and a file read in chunks (a recording, a capture of a stream).

/// `Data` handed out in chunks of a fixed size.
public struct DataChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = Never

    /// The bytes handed out.
    public let data: Data
    /// Bytes per chunk (at least 1); the last chunk may be shorter.
    public let chunkSize: Int

    /// `data` in chunks of `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - data: the bytes to hand out.
    ///   - chunkSize: bytes per chunk; values below 1 count as 1.
    public init(_ data: Data, chunkSize: Int = 64 << 10) {
        self.data = data
        self.chunkSize = Swift.max(1, chunkSize)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(data: data, chunkSize: chunkSize) }

    /// Hands out successive slices of ``DataChunks/data``, copied.
    public struct Iterator: AsyncIteratorProtocol {
        let data: Data
        let chunkSize: Int
        var offset = 0

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> [UInt8]? {
            guard offset < data.count else { return nil }
            let end = offset + Swift.min(chunkSize, data.count - offset)
            defer { offset = end }
            let start = data.startIndex
            return Array(data[(start + offset)..<(start + end)])
        }
    }
}

/// A file's bytes in chunks, read as they are asked for.
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = any Error

    /// The file read.
    public let url: URL
    /// Most bytes per chunk (at least 1); the file is read this much at a time.
    public let chunkSize: Int

    /// The file at `url` in chunks of `chunkSize` bytes (values below 1 count as 1).
    /// The file is opened on the first `next()`, not here.
    public init(_ url: URL, chunkSize: Int = 64 << 10) {
        self.url = url
        self.chunkSize = Swift.max(1, chunkSize)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(url: url, chunkSize: chunkSize) }

    /// Opens the file on the first call and reads it chunk by chunk; closes it at the end.
    public struct Iterator: AsyncIteratorProtocol {
        let url: URL
        let chunkSize: Int
        var handle: FileHandle?
        var done = false

        /// - Throws: the error of opening or reading the file.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> [UInt8]? {
            if done { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let handle, let data = try handle.read(upToCount: chunkSize), !data.isEmpty else {
                done = true
                try? handle?.close()
                return nil
            }
            return Array(data)
        }
    }
}
