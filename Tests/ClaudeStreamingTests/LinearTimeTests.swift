// Inputs that were quadratic (issue 13), each run at two sizes 4x apart in
// one run: the CPU time may grow at most 6x. Sizes are small enough for a
// debug build; with the old code the larger size took 16x the smaller one.

import ClaudeStreaming
import ClaudeTestSupport
import FuzzProperties
import IncrementalJSON
import Testing

private typealias F = StreamFixture

/// `event: TYPE` + `data: JSON` framing without the fixture's regex (these events are large).
private func frame(_ type: String, _ json: String) -> [UInt8] {
    Array("event: \(type)\ndata: \(json)\n\n".utf8)
}

/// The final snapshot of `bytes`, fed whole.
private func accumulate(_ bytes: [UInt8]) -> MessageSnapshot? {
    var accumulator = MessageAccumulator()
    _ = try? accumulator.feed(bytes)
    return try? accumulator.finish()
}

@Suite struct LinearTimeTests {
    /// One `message_delta` whose `usage` has `keys` keys (160,000 took 65 s).
    static func usageStream(keys: Int) -> [UInt8] {
        let usage = (0..<keys).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        return F.sse([F.messageStart]) + frame("message_delta", F.messageDelta(usage: "{\(usage)}"))
            + F.sse([F.messageStop])
    }

    @Test func usageWithManyKeys() throws {
        let small = Self.usageStream(keys: 5_000)
        let large = Self.usageStream(keys: 20_000)
        let final = try #require(accumulate(large))
        #expect(final.usage.fields.count == 20_002)
        #expect(final.usage["k19999"] == 19_999)
        #expect(final.usage.outputTokens == 1)
        let ratio = LinearTimeCheck.cpuTimeRatio(small: { _ = accumulate(small) }, large: { _ = accumulate(large) })
        #expect(ratio <= 6, "4x the keys took \(ratio)x the time")
    }

    /// One `message_delta` with `fields` delta fields, written out as API JSON (80,000 took 15.6 s).
    static func deltaFieldStream(fields: Int) -> [UInt8] {
        let extra = (0..<fields).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let delta = #"{"type":"message_delta","delta":{"stop_reason":"end_turn",\#(extra)},"usage":{"output_tokens":2}}"#
        return F.sse([F.messageStart]) + frame("message_delta", delta) + F.sse([F.messageStop])
    }

    @Test func messageDeltaWithManyFieldsWrittenOut() throws {
        let small = try #require(accumulate(Self.deltaFieldStream(fields: 5_000)))
        let large = try #require(accumulate(Self.deltaFieldStream(fields: 20_000)))
        let json = large.messageJSON()
        #expect(json["f19999"] == 19_999)
        #expect(json["stop_reason"]?.stringValue == "end_turn")
        #expect(json.objectValue?.count == 20_000 + 8)  // id type role model content stop_reason stop_sequence usage
        let ratio = LinearTimeCheck.cpuTimeRatio(small: { _ = small.messageJSON() }, large: { _ = large.messageJSON() })
        #expect(ratio <= 6, "4x the fields took \(ratio)x the time")
    }

    /// `deltas` deltas for a block type this package does not know (40,000 took 34 s).
    static func unknownBlockStream(deltas: Int) -> [UInt8] {
        var bytes = F.sse([F.messageStart, #"{"type":"content_block_start","index":0,"content_block":{"type":"hologram","frame":0}}"#])
        let delta = frame("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"hologram_delta","voxels":"abcdefgh"}}"#)
        for _ in 0..<deltas { bytes += delta }
        return bytes + F.sse([F.stop(0), F.messageDelta(), F.messageStop])
    }

    @Test func deltasForAnUnknownBlockType() throws {
        let small = Self.unknownBlockStream(deltas: 2_000)
        let large = Self.unknownBlockStream(deltas: 8_000)
        let final = try #require(accumulate(large))
        guard case .unknown(let block)? = final.content.first else {
            Issue.record("expected the unknown block")
            return
        }
        #expect(block.unknownDeltas.count == 8_000)
        #expect(block.unknownDeltas.last?["voxels"]?.stringValue == "abcdefgh")
        // Holding every snapshot is the case that copied the list per delta.
        func holdingEverySnapshot(_ bytes: [UInt8]) {
            var accumulator = MessageAccumulator()
            var held: [MessageSnapshot] = []
            bytes.withUnsafeBytes { raw in _ = try? accumulator.feed(raw) { held.append($0) } }
        }
        let ratio = LinearTimeCheck.cpuTimeRatio(small: { holdingEverySnapshot(small) }, large: { holdingEverySnapshot(large) })
        #expect(ratio <= 6, "4x the deltas took \(ratio)x the time")
    }

    /// Two text blocks whose deltas take turns: the live block changes at
    /// every delta, and each change must cost O(1) whatever the blocks'
    /// sizes (a change that copied or reallocated the block it leaves or
    /// resumes would make this quadratic).
    static func interleavedStream(deltas: Int) -> [UInt8] {
        let piece = String(repeating: "abcdefgh", count: 32)
        var bytes = F.sse([F.messageStart, F.textStart(0), F.textStart(1)])
        let pair = F.sse([F.text(0, piece), F.text(1, piece)])
        for _ in 0..<deltas { bytes += pair }
        return bytes + F.sse([F.stop(0), F.stop(1), F.messageDelta(), F.messageStop])
    }

    @Test func interleavedBlocks() throws {
        let small = Self.interleavedStream(deltas: 1_000)
        let large = Self.interleavedStream(deltas: 4_000)
        let final = try #require(accumulate(large))
        for index in 0..<2 {
            guard case .text(let block)? = final.content.block(at: index) else {
                Issue.record("block \(index) should be text")
                return
            }
            #expect(block.text.utf8Count == 4_000 * 256)
        }
        let ratio = LinearTimeCheck.cpuTimeRatio(small: { _ = accumulate(small) }, large: { _ = accumulate(large) })
        #expect(ratio <= 6, "4x the deltas took \(ratio)x the time")
    }
}
