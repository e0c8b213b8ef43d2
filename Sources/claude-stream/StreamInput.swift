// Reading a command's input as it arrives: a file, standard input, or the
// bundled recording. Bytes are read with read(2) into one reusable buffer and
// handed on at once, so output appears as soon as the bytes that produce it
// have arrived (`curl -N … | claude-stream replay -` draws live) and memory
// stays one buffer plus whatever the core holds, whatever the input's size.
//
// This is the one "bytes → events" entry of `events` and `replay`: the chunk
// plan re-splits each piece here, the framing (SSE or the AWS event stream)
// is settled here, and the command's decoder for it (a parser, or the
// accumulator that wraps one) is the closure it feeds.

import ClaudeSession
import ClaudeStreaming

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a command's input could not be used, with the exit code that says so.
struct InputError: Error {
    enum Kind {
        /// Missing file, no permission, or a failed read (exit 66).
        case unreadable
        /// The path names a directory (exit 5).
        case directory
        /// Not one byte arrived (exit 4).
        case empty
        /// Bytes arrived but they are not a server-sent event stream (exit 2).
        case notEventStream
    }

    var kind: Kind
    /// One line: the input's name and what is wrong with it.
    var message: String

    var exitCode: Int32 {
        switch kind {
        case .unreadable: ExitCodes.unreadable
        case .directory: ExitCodes.directory
        case .empty: ExitCodes.emptyInput
        case .notEventStream: ExitCodes.notEventStream
        }
    }
}

/// A command's input, read in pieces.
struct StreamInput {
    /// How the input is named in messages: the path, or `stdin`.
    let name: String
    /// True for a regular file or the bundled recording (replay paces those
    /// on a terminal); false for pipes, terminals and sockets.
    let isStored: Bool
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let bundled: [UInt8]?

    /// Size of the one read buffer: large enough that a fast producer costs
    /// few system calls, small enough to stay a rounding error of memory.
    static let pieceSize = 1 << 18
    static let pieceAlignment = 4096

    /// The first bytes of the input, kept to say what it is when it held no event.
    private(set) var head: [UInt8] = []
    static let headLimit = 1 << 16
    /// Bytes read so far.
    private(set) var byteCount = 0

    /// Opens `path`, or standard input for nil or `-`.
    static func open(_ path: String?) throws(InputError) -> StreamInput {
        guard let path, path != "-" else {
            return StreamInput(name: "stdin", isStored: Self.isRegularFile(0), descriptor: 0, ownsDescriptor: false, bundled: nil)
        }
        let descriptor = systemOpen(path)
        guard descriptor >= 0 else {
            throw InputError(kind: .unreadable, message: "\(path): cannot open: \(Self.systemMessage())")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputError(kind: .directory, message: "\(path): is a directory, not a file")
        }
        return StreamInput(name: path, isStored: Self.isRegularFile(descriptor), descriptor: descriptor, ownsDescriptor: true, bundled: nil)
    }

    /// The bundled recording, handed on as one piece.
    static func bundled(_ bytes: [UInt8], name: String) -> StreamInput {
        StreamInput(name: name, isStored: true, descriptor: -1, ownsDescriptor: false, bundled: bytes)
    }

    private init(name: String, isStored: Bool, descriptor: Int32, ownsDescriptor: Bool, bundled: [UInt8]?) {
        self.name = name
        self.isStored = isStored
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.bundled = bundled
    }

    /// Reads to the end of input, calling `body` with each piece as soon as it
    /// is read; `body` returns false to stop early (its own error). Closes the file.
    ///
    /// - Complexity: O(input size); memory is one ``pieceSize`` buffer plus ``headLimit``.
    mutating func readPieces(_ body: (UnsafeRawBufferPointer) -> Bool) throws(InputError) {
        defer { if ownsDescriptor { close(descriptor) } }
        if let bundled {
            remember(bundled.withUnsafeBytes { $0 })
            _ = bundled.withUnsafeBytes { body($0) }
            return
        }
        // Page-aligned: malloc hands out a buffer this large at 16 bytes past a
        // page, and the kernel's copy into a destination not aligned like the
        // page cache's source was much slower (Benchmarks/RESULTS-HISTORY.md, command line).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.pieceSize, alignment: Self.pieceAlignment)
        defer { buffer.deallocate() }
        while true {
            let count = retryingInterruptions { read(descriptor, buffer.baseAddress, buffer.count) }
            if count < 0 {
                throw InputError(kind: .unreadable, message: "\(name): read failed after \(byteCount) bytes: \(Self.systemMessage())")
            }
            if count == 0 { return }
            let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            remember(piece)
            if !body(piece) { return }
        }
    }

    /// The one "bytes → events" path of `events` and `replay`: reads to the
    /// end, re-splits each piece by `plan`, settles the framing (`framing`,
    /// or detected from the first 12 bytes: see ``FramingChoice``) and calls
    /// `start` with it once, before the first chunk reaches `feed` (the SSE
    /// parser, the AWS event-stream parser, or the accumulator that wraps
    /// either), and calls `afterPiece` (flush the output) after each piece.
    /// `start` is called even for an empty input (with SSE). Returns the
    /// framing's error that stopped the reading, if any.
    ///
    /// - Complexity: O(input size + number of chunks).
    mutating func feedChunks<E: Error>(
        plan: ChunkPlan, framing: EventFraming?, start: (EventFraming) -> Void,
        to feed: (UnsafeRawBufferPointer) throws(E) -> Void, afterPiece: () -> Void
    ) throws(InputError) -> E? {
        var splitter = ChunkSplitter(plan)
        var choice = FramingChoice(framing)
        var failure: E?
        try readPieces { piece in
            do throws(E) {
                try splitter.split(piece) { (chunk) throws(E) in try choice.feed(chunk, start: start, feed) }
            } catch {
                failure = error
                return false
            }
            afterPiece()
            return true
        }
        if failure == nil {
            do throws(E) { try choice.finish(start: start, feed) } catch { failure = error }
        }
        return failure
    }

    private mutating func remember(_ piece: UnsafeRawBufferPointer) {
        byteCount += piece.count
        if head.count < Self.headLimit { head.append(contentsOf: piece.prefix(Self.headLimit - head.count)) }
    }

    /// Reads the whole input into memory (for small files such as a schema).
    static func readAll(_ path: String) throws(InputError) -> [UInt8] {
        var input = try open(path)
        var bytes: [UInt8] = []
        try input.readPieces {
            bytes.append(contentsOf: $0)
            return true
        }
        return bytes
    }

    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    private static func systemMessage() -> String { String(cString: strerror(errno)) }
}

/// `open(2)` read-only, named apart from `StreamInput.open`.
private func systemOpen(_ path: String) -> Int32 { open(path, O_RDONLY) }
