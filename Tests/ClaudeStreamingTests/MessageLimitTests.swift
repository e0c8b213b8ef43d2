// Every limit holds whatever the input is made of (issue 13):
// `maxMessageBytes` counts every delta, of every type, and `maxBlocks`
// counts the blocks that arrive already filled in `message_start`.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

private typealias F = StreamFixture

/// One kind of delta: the block it goes to and the delta itself (about 1 KB).
struct DeltaKind: Sendable, CustomTestStringConvertible {
    var name: String
    var blockStart: String
    var delta: String
    var testDescription: String { name }

    static let filler = String(repeating: "q", count: 1_000)

    static let all: [DeltaKind] = [
        DeltaKind(
            name: "text", blockStart: #"{"type":"text","text":""}"#,
            delta: #"{"type":"text_delta","text":"\#(filler)"}"#),
        DeltaKind(
            name: "input_json", blockStart: #"{"type":"tool_use","id":"toolu_1","name":"f","input":{}}"#,
            delta: #"{"type":"input_json_delta","partial_json":"\#(filler)"}"#),
        DeltaKind(
            name: "thinking", blockStart: #"{"type":"thinking","thinking":""}"#,
            delta: #"{"type":"thinking_delta","thinking":"\#(filler)"}"#),
        DeltaKind(
            name: "signature", blockStart: #"{"type":"thinking","thinking":""}"#,
            delta: #"{"type":"signature_delta","signature":"\#(filler)"}"#),
        DeltaKind(
            name: "citations", blockStart: #"{"type":"text","text":""}"#,
            delta:
                #"{"type":"citations_delta","citation":{"type":"char_location","cited_text":"\#(filler)","document_index":0,"start_char_index":0,"end_char_index":1}}"#
        ),
        DeltaKind(
            name: "compaction", blockStart: #"{"type":"compaction","content":""}"#,
            delta: #"{"type":"compaction_delta","content":"\#(filler)"}"#),
        DeltaKind(
            name: "unknown", blockStart: #"{"type":"hologram","frame":0}"#,
            delta: #"{"type":"hologram_delta","voxels":"\#(filler)"}"#),
    ]
}

@Suite struct MessageLimitTests {
    /// 1,000 deltas of about 1 KB against a 64 KiB limit: the violation comes
    /// within the first 66 deltas, whatever their type (358 MB of citations
    /// once passed a 1 MiB limit).
    @Test(arguments: DeltaKind.all)
    func everyDeltaKindCountsAgainstMaxMessageBytes(kind: DeltaKind) throws {
        var options = MessageAccumulatorOptions()
        options.maxMessageBytes = 64 << 10
        var accumulator = MessageAccumulator(options: options)
        _ = try accumulator.feed(
            F.sse([
                F.messageStart,
                #"{"type":"content_block_start","index":0,"content_block":\#(kind.blockStart)}"#,
            ]))
        let piece = F.sse([#"{"type":"content_block_delta","index":0,"delta":\#(kind.delta)}"#])
        var failure: MessageStreamError?
        var accepted = 0
        for _ in 0..<1_000 where failure == nil {
            do throws(MessageStreamError) {
                _ = try accumulator.feed(piece)
                accepted += 1
            } catch {
                failure = error
            }
        }
        let error = try #require(failure, "\(kind.name): 1,000 deltas of 1 KB passed a 64 KiB limit")
        guard case .protocolViolation(let what) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(what.contains("exceed \(64 << 10) bytes"))
        #expect(accepted >= 50 && accepted <= 66, "\(kind.name): \(accepted) deltas accepted")
        #expect(error.snapshot?.content.count == 1)
    }

    @Test func messageDeltasCountToo() throws {
        var options = MessageAccumulatorOptions()
        options.maxMessageBytes = 64 << 10
        var accumulator = MessageAccumulator(options: options)
        _ = try accumulator.feed(F.sse([F.messageStart]))
        var failure: MessageStreamError?
        for index in 0..<1_000 where failure == nil {
            let delta = #"{"type":"message_delta","delta":{"field_\#(index)":"\#(DeltaKind.filler)"},"usage":{}}"#
            do throws(MessageStreamError) { _ = try accumulator.feed(F.sse([delta])) } catch { failure = error }
        }
        let error = try #require(failure)
        #expect(error.eventIndex.map { $0 <= 66 } == true, "\(error)")
    }

    static func messageStart(filledBlocks: Int) -> [UInt8] {
        let blocks = Array(repeating: #"{"type":"text","text":"b"}"#, count: filledBlocks).joined(separator: ",")
        let start = #"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[\#(blocks)],"usage":{}}}"#
        return Array("event: message_start\ndata: \(start)\n\n".utf8)
    }

    @Test func blocksFilledInMessageStartCountAgainstMaxBlocks() throws {
        var over = MessageAccumulator(options: MessageAccumulatorOptions(maxBlocks: 1_000))
        #expect {
            _ = try over.feed(Self.messageStart(filledBlocks: 1_001))
        } throws: { error in
            guard let error = error as? MessageStreamError, case .protocolViolation(let what) = error.kind else { return false }
            return what.contains("1001 content blocks") && error.eventIndex == 0
        }
        // Exactly at the limit is fine, and one more block after it is not.
        var at = MessageAccumulator(options: MessageAccumulatorOptions(maxBlocks: 1_000))
        let snapshot = try #require(try at.feed(Self.messageStart(filledBlocks: 1_000)))
        #expect(snapshot.content.count == 1_000)
        #expect(throws: MessageStreamError.self) { _ = try at.feed(F.sse([F.textStart(1_000)])) }
    }
}
