// CutToken: the bytes of a key or number that a chunk end cut, kept until
// the token ends.
//
// Streamed input is cut anywhere: fed records in 16-byte deltas, about one
// feed in five ends inside a number and as many inside a key. The token is
// short (keys of a few letters, numbers of a few digits), but an array
// paid about 90 instructions a piece (a call to append, its uniqueness
// check, a call to memcpy) and 80 more to clear it for the next token
// (`replaceSubrange`). Here up to 24 bytes sit inline in the parser and a
// longer token spills into an array.
//
// Worked example: `{"score": 12` ends a chunk and `.5, ...` starts the
// next. The first feed appends `12` (count 2, inline); the second appends
// `.5` (count 4) and the number ends at the comma, read from the inline
// bytes `12.5`; the next number clears the count without touching memory.

/// The bytes of a cut key or number (see the file comment).
struct CutToken: Sendable {
    /// Bytes `0..<inlineCount` of these three words (lowest address first)
    /// while `spill` is nil.
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var inlineCount = 0
    /// The whole token once it outgrew the words.
    private var spill: [UInt8]? = nil

    static let inlineCapacity = 24

    var count: Int { spill?.count ?? inlineCount }
    var isEmpty: Bool { count == 0 }
    /// Whether the token outgrew the words (a copy of the parser then
    /// shares its array, and the next append copies it whole).
    var isSpilled: Bool { spill != nil }

    /// Forgets the bytes, and the array of a spilled token: a token longer
    /// than the inline bytes is rare enough that the next one may allocate
    /// again.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func removeAll() {
        inlineCount = 0
        if spill != nil { spill = nil }
    }

    /// Appends `run`.
    ///
    /// - Complexity: O(`run.count`).
    @inline(__always)
    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress, run.count > 0 else { return }
        let used = inlineCount
        if spill == nil && run.count <= Self.inlineCapacity &- used {
            withUnsafeMutableBytes(of: &words) { raw in
                guard let base = raw.baseAddress else { return }
                (base + used).copyMemory(from: source, byteCount: run.count)
            }
            inlineCount = used &+ run.count
            return
        }
        appendSpilling(run)
    }

    /// Appends `run` to the array, moving the inline bytes there first.
    private mutating func appendSpilling(_ run: UnsafeBufferPointer<UInt8>) {
        if spill == nil {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(inlineCount &+ run.count)
            withUnsafeBytes(of: words) { bytes.append(contentsOf: $0.prefix(inlineCount)) }
            inlineCount = 0
            spill = bytes
        }
        spill?.append(contentsOf: run)
    }

    /// Calls `body` with the bytes.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let spill { return spill.withUnsafeBufferPointer(body) }
        return _withInlineBytes(of: words, count: inlineCount, body)
    }
}
