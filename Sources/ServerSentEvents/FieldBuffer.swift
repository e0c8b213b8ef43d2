/// The value of one field (`data` or `event`) while its block builds up.
///
/// The value lives in one of two places:
/// - `borrowed`: a range of the chunk being fed, when the whole value came
///   from one line inside that chunk. Handing it out costs no copy. Before
///   `feed` returns, `materialize` copies it into `storage`, since the chunk
///   is gone after that.
/// - `storage[storageStart...]`: owned bytes. A line that was assembled in
///   the parser's line buffer is moved (swapped) in whole, with
///   `storageStart` skipping its `data:` prefix, so that line is copied once.
struct FieldBuffer: Sendable {
    var storage: [UInt8] = []
    var storageStart = 0
    var borrowed: Range<Int>? = nil
    /// Number of lines that contributed (for `data`: 0 means "no data yet";
    /// for `event`: 0 means "no event field").
    var lineCount = 0
    /// Length of the value in bytes.
    var byteCount = 0

    /// Moves a borrowed value into owned storage.
    /// - Complexity: O(byteCount) when borrowed, O(1) otherwise.
    @inline(__always)
    mutating func materialize(_ chunk: UnsafeRawBufferPointer) {
        guard let range = borrowed else { return }
        borrowed = nil
        storage.removeAll(keepingCapacity: true)
        storageStart = 0
        storage.append(contentsOf: chunkBytes(chunk, range))
    }

    @inline(__always)
    mutating func clear() {
        // A borrowed value never touched storage: skip the array call.
        if !storage.isEmpty {
            storage.removeAll(keepingCapacity: true)
        }
        storageStart = 0
        borrowed = nil
        lineCount = 0
        byteCount = 0
    }

    /// Replaces the value with a range of the current chunk (no copy).
    @inline(__always)
    mutating func setBorrowed(_ range: Range<Int>) {
        borrowed = range
        storageStart = 0
        lineCount = 1
        byteCount = range.count
    }

    /// Replaces the value with a copy of `bytes`.
    @inline(__always)
    mutating func setCopy(_ bytes: UnsafeBufferPointer<UInt8>) {
        borrowed = nil
        storage.removeAll(keepingCapacity: true)
        storageStart = 0
        storage.append(contentsOf: bytes)
        lineCount = 1
        byteCount = bytes.count
    }

    /// Appends an LF (unless this is the first line) and `bytes`.
    @inline(__always)
    mutating func appendLine(_ bytes: UnsafeBufferPointer<UInt8>, chunk: UnsafeRawBufferPointer) {
        materialize(chunk)
        if lineCount > 0 {
            storage.append(0x0A)
            byteCount += 1
        }
        storage.append(contentsOf: bytes)
        byteCount += bytes.count
        lineCount += 1
    }

    /// Takes over `line` as the first line of the value, starting at `start`;
    /// `line` is left empty (holding this buffer's old capacity).
    @inline(__always)
    mutating func adoptFirstLine(_ line: inout [UInt8], start: Int) {
        borrowed = nil
        storage.removeAll(keepingCapacity: true)
        swap(&storage, &line)
        storageStart = start
        byteCount = storage.count - start
        lineCount = 1
    }

    /// Calls `body` with the value's bytes.
    @inline(__always)
    func withBytes<R>(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let range = borrowed {
            return body(UnsafeRawBufferPointer(rebasing: chunk[range]))
        }
        return storage.withUnsafeBytes { raw in
            body(UnsafeRawBufferPointer(rebasing: raw[storageStart...]))
        }
    }
}

/// Typed view of `chunk[range]`, for the fast `Array.append(contentsOf:)` path.
@inline(__always)
func chunkBytes(_ chunk: UnsafeRawBufferPointer, _ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeRawBufferPointer(rebasing: chunk[range]).assumingMemoryBound(to: UInt8.self)
}
