// The one owner of the block being streamed: interleaved JSON blocks keep
// their parsers while another block is live, whatever changes a live block
// first takes its live state, and snapshots held earlier keep what they saw.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

@Suite struct StreamingBlocksTests {
    typealias F = StreamFixture

    /// Two tool inputs cut mid-string and mid-number, taking turns: each
    /// block's parser is parked while the other streams, then resumed.
    @Test func interleavedToolInputsResumeTheirParsers() {
        let bytes = F.sse([
            F.messageStart, F.toolStart(0, id: "toolu_a"), F.toolStart(1, id: "toolu_b"),
            F.json(0, #"{\"city\": \"Lis"#), F.json(1, #"{\"n\": 1"#), F.json(0, #"bon\", \"days\": 1"#),
            F.json(1, #"23, \"s\": \"x"#), F.json(0, "2}"), F.json(1, #"y\"}"#), F.stop(1), F.stop(0),
            F.messageDelta(stop: "tool_use"), F.messageStop,
        ])
        var seen: [String] = []
        let outcome = runStream(bytes) { snapshot in
            if case .toolUse(let call) = snapshot.content.block(at: 0) { seen.append(call.input.compactJSON) }
        }
        #expect(outcome.error == nil)
        guard case .toolUse(let first) = outcome.last?.content.block(at: 0),
            case .toolUse(let second) = outcome.last?.content.block(at: 1)
        else {
            Issue.record("blocks 0 and 1 should be tool calls")
            return
        }
        #expect(first.input.compactJSON == #"{"city":"Lisbon","days":12}"#)
        #expect(first.inputError == nil)
        #expect(second.input.compactJSON == #"{"n":123,"s":"xy"}"#)
        #expect(second.inputError == nil)
        #expect(seen.contains(#"{"city":"Lis"}"#), "the live partial value is visible while block 0 streams")
    }

    /// A signature delta changes the live thinking block: its streamed text
    /// is written into the block first, and keeps growing after.
    @Test func signatureOnTheLiveBlockKeepsItsText() {
        let thinkingStart = #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#
        func thinking(_ text: String) -> String {
            #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"\#(text)"}}"#
        }
        let signature = #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}"#
        let bytes = F.sse([
            F.messageStart, thinkingStart, thinking("ab"), signature, thinking("cd"), F.stop(0),
            F.messageDelta(), F.messageStop,
        ])
        let outcome = runStream(bytes)
        #expect(outcome.error == nil)
        guard case .thinking(let block) = outcome.last?.content.block(at: 0) else {
            Issue.record("block 0 should be thinking")
            return
        }
        #expect(block.thinking.string == "abcd")
        #expect(block.signature == "sig")
    }

    /// Snapshots held while a block streams each keep the text they saw,
    /// including across the block losing and regaining live status.
    @Test func heldSnapshotsKeepWhatTheySaw() {
        let bytes = F.sse([
            F.messageStart, F.textStart(0), F.textStart(1), F.text(0, "a"), F.text(1, "x"),
            F.text(0, "b"), F.text(0, "c"), F.stop(0), F.stop(1), F.messageDelta(), F.messageStop,
        ])
        var held: [MessageSnapshot] = []
        _ = runStream(bytes) { held.append($0) }
        // Read only after the stream ended: each still shows its own moment.
        let texts = held.compactMap { snapshot -> String? in
            guard case .text(let block) = snapshot.content.block(at: 0) else { return nil }
            return block.text.string
        }
        #expect(texts.starts(with: ["", "", "a", "a", "ab", "abc"]))
    }
}
