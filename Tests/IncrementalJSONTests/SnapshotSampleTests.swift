// Which snapshots the json and typed fuzz properties compare
// (Fuzz/FuzzProperties/SnapshotSample.swift): every one of a short input,
// a bounded, spread chain of a long one, and always the last.

import FuzzProperties
import Testing

@Suite struct SnapshotSampleTests {
    /// The chunk boundaries of `count` bytes in `sizes` (cycled), as turns.
    func kept(count: Int, sizes: [Int], limit: Int = 32) -> [Int] {
        let sample = SnapshotSample(count: count, sizes: sizes, limit: limit)
        var turns: [Int] = []
        var start = 0
        var turn = 0
        while start < count {
            let end = min(count, start + sizes[turn % sizes.count])
            if sample.keeps(turn: turn, isLast: end == count) { turns.append(turn) }
            turn += 1
            start = end
        }
        return turns
    }

    @Test func aShortInputKeepsEverySnapshot() {
        #expect(kept(count: 20, sizes: [1]) == Array(0..<20))
        #expect(kept(count: 100, sizes: [3, 5, 1, 7]) == Array(0..<(100 / 16 * 4 + 2)))
    }

    @Test(arguments: [[1], [1, 2, 3, 4], [17, 1, 1, 9], [23, 23, 23, 23]])
    func aLongInputKeepsABoundedChainEndingAtTheLast(sizes: [Int]) {
        for count in [500, 4096, 65_536] {
            let turns = kept(count: count, sizes: sizes)
            let chunks = countChunks(count: count, sizes: sizes)
            #expect(turns.last == chunks - 1)
            #expect(turns.count <= 34, "\(count) bytes in \(sizes): \(turns.count) kept")
            #expect(turns.count >= min(chunks, 16), "\(count) bytes in \(sizes): \(turns.count) kept of \(chunks)")
        }
    }

    /// The phase follows the chunk sizes, so other inputs compare other
    /// boundaries.
    @Test func thePhaseMovesWithTheChunkSizes() {
        let phases = Set((1...8).map { SnapshotSample(count: 4096, sizes: [$0, 1, 1, 1]).phase })
        #expect(phases.count > 1)
    }

    func countChunks(count: Int, sizes: [Int]) -> Int {
        var start = 0
        var turn = 0
        while start < count {
            start += sizes[turn % sizes.count]
            turn += 1
        }
        return turn
    }
}
