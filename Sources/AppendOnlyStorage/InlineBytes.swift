// Bytes kept inside integer words (short text, a short number, a cut
// token), handed to code that reads bytes.
//
// Why a rebinding: the words' memory is bound to their integer type, and
// Swift's pointer rules allow no typed access to it as `UInt8` (unlike C,
// which lets `char` alias anything). `assumingMemoryBound(to: UInt8.self)`
// there is undefined behaviour that today's optimiser happens to tolerate;
// `withMemoryRebound` says what happens, and compiles to the same loads.
// For example, "hi" kept in the low word of a short string:
//
//     words (0x6968, 0)  bytes 68 69 00 00 …   offset 0, count 2: "hi"

/// Calls `body` with `count` bytes of `words` from byte `offset`, in
/// memory order (little-endian words: the low byte first).
///
/// `offset` and `count` must lie within `words`; callers pass counts read
/// from the words themselves, which their writers keep in range.
///
/// - Complexity: O(1) plus `body`.
@inlinable @inline(__always)
package func _withInlineBytes<Words: BitwiseCopyable, R, E: Error>(
    of words: Words, offset: Int = 0, count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
) throws(E) -> R {
    try withUnsafeBytes(of: words) { (raw) throws(E) -> R in
        try raw.withMemoryRebound(to: UInt8.self) { (bytes) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
    }
}
