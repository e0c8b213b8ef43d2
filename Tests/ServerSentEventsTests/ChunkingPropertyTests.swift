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
}
