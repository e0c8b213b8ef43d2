// Property: for random inputs, every chunking gives exactly what feeding the
// whole input at once gives (events, offsets, error, bytes discarded).

import FuzzProperties
import ServerSentEvents
import Testing

/// Inputs biased toward the interesting bytes: field names, colons,
/// spaces, CR, LF, BOM bytes, NUL, digits and multi-byte UTF-8.
private func randomStream(_ rng: inout SplitMix64) -> [UInt8] {
    let pieces: [[UInt8]] = [
        Array("data".utf8), Array("event".utf8), Array("id".utf8), Array("retry".utf8), Array(": ".utf8),
        [0x3A], [0x20], [0x0D], [0x0A], [0x0D, 0x0A], [0x0A, 0x0A], [0xEF, 0xBB, 0xBF], [0], Array("42".utf8),
        Array("é😀".utf8), [0xFF], Array("x".utf8), Array("data: {\"type\":\"ping\"}\n\n".utf8),
        Array("event: content_block_delta\ndata: {\"i\":1}\n\n".utf8), Array("event:\ndata:x\n\n".utf8),
    ]
    var bytes: [UInt8] = []
    // A whole, partial or no BOM at the start (partial ones must be data).
    switch rng.next() % 6 {
    case 0: bytes += [0xEF, 0xBB, 0xBF]
    case 1: bytes += [0xEF]
    case 2: bytes += [0xEF, 0xBB]
    default: break
    }
    for _ in 0..<Int(rng.next() % 60) {
        bytes += pieces[Int(rng.next() % UInt64(pieces.count))]
    }
    return bytes
}

/// Blocks shaped like the one-step path's (`event:` and `data:` lines and
/// a blank line, LF ends) and near misses of every kind: no or an empty
/// type, no space, CR ends, a comment, `id` and `retry` lines, two `data`
/// lines, `data` before `event`, a missing blank line, long lines.
private func blockStream(_ rng: inout SplitMix64) -> [UInt8] {
    let blocks = [
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\n", "event:ping\ndata:{}\n\n",
        "event:\ndata: x\n\n", "event: \ndata: \n\n", "data: only\n\n", "data:\n\n", "event: t\r\ndata: y\n\n",
        "event: t\ndata: y\r\n\n", "event: t\ndata: y\n\r\n", ": comment\ndata: c\n\n", "id: 7\ndata: i\n\n",
        "id:\ndata: reset\n\n", "retry: 10\ndata: r\n\n", "event: t\ndata: a\ndata: b\n\n", "data: d\nevent: t\n\n",
        "event: t\ndata: no blank\n", "\n", "event: \(String(repeating: "e", count: 50))\ndata: long type\n\n",
        "data: \(String(repeating: "d", count: 45))\n\n", "event: t\nevent: u\ndata: twice\n\n", "eventx: t\ndata: v\n\n",
        "datum: w\n\n", "event: t\ndata:   spaces\n\n",
    ].map { Array($0.utf8) }
    var bytes: [UInt8] = []
    for _ in 0..<Int(rng.next() % 24) {
        bytes += blocks[Int(rng.next() % UInt64(blocks.count))]
    }
    return bytes
}

private func randomChunking(_ rng: inout SplitMix64, count: Int) -> Chunking {
    var sizes: [Int] = []
    var total = 0
    while total < count {
        let size = Int(rng.next() % 9) + 1
        sizes.append(size)
        total += size
    }
    return .sizes(sizes)
}

@Suite struct ChunkingPropertyTests {
    @Test(arguments: [SSELimits(), SSELimits(maxLineBytes: 40, maxEventBytes: 30)])
    func anyChunkingEqualsOneChunk(limits: SSELimits) {
        var rng = SplitMix64(seed: 0x5EED)
        var sawEvents = 0
        var sawErrors = 0
        for _ in 0..<400 {
            let input = randomStream(&rng)
            let whole = parse(input, limits: limits)
            sawEvents += whole.events.count
            if whole.error != nil { sawErrors += 1 }
            for chunking in [Chunking.every(1), .every(2), .every(3), randomChunking(&rng, count: input.count)] {
                let split = parse(input, chunking, limits: limits)
                #expect(split == whole, "input \(input) chunking \(chunking)")
            }
        }
        // The generator must actually produce events, or the property is vacuous.
        #expect(sawEvents > 100)
        if limits.maxLineBytes < 100 { #expect(sawErrors > 20) }
    }

    /// A whole chunk reads the usual block in one step; one byte at a time
    /// never can (the block is never inside the chunk). Both must see the
    /// same events, offsets, IDs, errors and discarded bytes.
    @Test(arguments: [SSELimits(), SSELimits(maxLineBytes: 40, maxEventBytes: 30)])
    func wholeBlocksReadAsLineByLine(limits: SSELimits) {
        var rng = SplitMix64(seed: 0xB10C)
        var sawEvents = 0
        for _ in 0..<600 {
            let input = blockStream(&rng)
            let whole = parse(input, limits: limits)
            sawEvents += whole.events.count
            for chunking in [Chunking.every(1), .every(7), randomChunking(&rng, count: input.count)] {
                let split = parse(input, chunking, limits: limits)
                #expect(split == whole, "input \(String(decoding: input, as: UTF8.self).debugDescription) chunking \(chunking)")
            }
        }
        #expect(sawEvents > 1000)
    }
}
