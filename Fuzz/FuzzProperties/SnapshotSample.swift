// Which of an input's snapshots a property compares.
//
// The json and typed properties take a snapshot after every chunk and
// compare each with the next (json) or decode each (typed): O(size) work per
// snapshot, so O(size²) per input when chunks are small. On a kept corpus of
// 4 KiB inputs in 1...23-byte chunks that was two thirds of a campaign's
// time. Inputs with at most `limit` chunks keep every snapshot; longer ones
// keep every `stride`-th, from a phase the chunk sizes pick, so across
// inputs every chunk boundary can be the one compared. The kept snapshots
// are still a chain in stream order, and "is extended by" is transitive, so
// the checks on the kept ones mean what they meant on all of them.

public struct SnapshotSample {
    /// Every `stride`-th snapshot is kept, counting from `phase`.
    public let stride: Int
    public let phase: Int

    /// - Parameters:
    ///   - count: the document's length in bytes.
    ///   - sizes: the chunk sizes, used in a cycle (each at least 1).
    ///   - limit: the most snapshots to keep.
    public init(count: Int, sizes: [Int], limit: Int = 32) {
        let cycle = max(1, sizes.reduce(0) { $0 + max(1, $1) })
        let chunks = count / cycle * max(1, sizes.count) + sizes.count
        stride = max(1, (chunks + limit - 1) / max(1, limit))
        phase = cycle % stride
    }

    /// Whether the snapshot after chunk `turn` (0-based) is kept; the last
    /// one always is.
    public func keeps(turn: Int, isLast: Bool) -> Bool {
        isLast || turn % stride == phase
    }
}
