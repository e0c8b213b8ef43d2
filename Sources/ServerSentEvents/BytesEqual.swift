// Byte comparison for the one-step readers of this package (the usual
// block's event type here, the hot delta scanner's and boundary reader's
// literals in ClaudeStreaming): one copy, inlined into every caller.

/// `memcmp(a, b, n) == 0`, inline. Where a name is not a compile-time
/// constant at the compare, `memcmp` would be a call per name (a cost plain
/// to see on the tool stream; Benchmarks/RESULTS-HISTORY.md, figures once
/// in source comments). The tail is one load that overlaps the previous
/// one (and a short name two overlapping loads), so no name takes a
/// byte-by-byte loop.
///
/// - Complexity: O(n), eight bytes a step.
@inlinable @inline(__always)
package func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    @inline(__always) func same<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
        a.loadUnaligned(fromByteOffset: offset, as: T.self) == b.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    if n >= 8 {
        var i = 0
        while n &- i > 8 {
            guard same(i, UInt64.self) else { return false }
            i &+= 8
        }
        return same(n &- 8, UInt64.self)
    }
    if n >= 4 { return same(0, UInt32.self) && same(n &- 4, UInt32.self) }
    if n >= 2 { return same(0, UInt16.self) && same(n &- 2, UInt16.self) }
    return n == 0 || same(0, UInt8.self)
}
