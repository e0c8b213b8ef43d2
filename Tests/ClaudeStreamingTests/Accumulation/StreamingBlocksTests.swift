// The one owner of the block being streamed: interleaved JSON blocks keep
// their parsers while another block is live, whatever changes a live block
// first takes its live state, snapshots held earlier keep what they saw, and
// the accumulator's own copy of the live text does not count as a holder.

import AppendOnlyStorage
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

    /// A tool input whose value finishes stays live: the value shows from
    /// the block at once, whitespace after it is fine, and bytes after it
    /// are an error even when the block went out of live and came back.
    /// One that fails keeps the partial value it had.
    @Test func finishedAndFailedInputsKeepTheirValues() {
        let bytes = F.sse([
            F.messageStart, F.toolStart(0, id: "toolu_a"), F.toolStart(1, id: "toolu_b"), F.toolStart(2, id: "toolu_c"),
            F.json(0, #"{\"a\": [1, "#), F.json(0, "2]}"), F.json(0, "  "), F.json(1, #"{\"b\": tr"#), F.json(0, " x"),
            F.json(1, "ue}"), F.json(2, #"{\"c\": 1, \"d\": [tr"#), F.json(2, "x"), F.json(2, "1"),
            F.stop(0), F.stop(1), F.stop(2), F.messageDelta(stop: "tool_use"), F.messageStop,
        ])
        var seen: [String] = []
        let outcome = runStream(bytes) { snapshot in
            guard case .toolUse(let call) = snapshot.content.block(at: 0) else { return }
            seen.append("\(call.input.compactJSON) \(call.inputError == nil ? "ok" : "error") \(call.inputJSON.string.count)")
        }
        #expect(outcome.error == nil)
        // After the value, after the whitespace, while block 1 streams, and
        // once the trailing byte came.
        #expect(seen.contains(#"{"a":[1,2]} ok 13"#))
        #expect(seen.contains(#"{"a":[1,2]} ok 15"#))
        #expect(seen.contains(#"{"a":[1,2]} error 17"#))
        guard let last = outcome.last,
            case .toolUse(let first) = last.content.block(at: 0),
            case .toolUse(let second) = last.content.block(at: 1),
            case .toolUse(let third) = last.content.block(at: 2)
        else {
            Issue.record("blocks 0, 1 and 2 should be tool calls")
            return
        }
        #expect(first.input.compactJSON == #"{"a":[1,2]}"#)
        #expect(first.inputError?.offset == 16)
        #expect(first.inputJSON.string == #"{"a": [1, 2]}   x"#)
        #expect(second.input.compactJSON == #"{"b":true}"#)
        #expect(second.inputError == nil)
        #expect(third.input.compactJSON == #"{"c":1,"d":[]}"#)
        #expect(third.inputError?.offset == 17)
        #expect(third.inputJSON.string == #"{"c": 1, "d": [trx1"#)
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

    /// A block's text that only the accumulator holds grows as unshared
    /// storage (malloc'd, grown in place), though the accumulator's own
    /// snapshot shows it after every delta; once a caller holds snapshots
    /// while it grows, it moves into a reserved region, and each held
    /// snapshot keeps its own prefix.
    @Test func aBlockNoCallerHoldsGrowsInPlace() throws {
        let piece = String(repeating: "abcdefgh", count: 8)
        let deltas = 1024  // 64 KiB: past the 4 KiB at which a shared buffer moves into a region
        let bytes = F.sse(
            [F.messageStart, F.textStart(0)] + Array(repeating: F.text(0, piece), count: deltas)
                + [F.stop(0), F.messageDelta(), F.messageStop])
        func finalText(_ outcome: StreamOutcome) throws -> AppendOnlyText {
            guard case .text(let block) = outcome.last?.content.block(at: 0) else {
                throw StreamingBlocksFailure("block 0 should be text")
            }
            return block.text
        }

        let dropped = runStream(bytes, checkChunkings: false)
        #expect(dropped.error == nil)
        let unshared = try finalText(dropped)
        #expect(unshared.utf8Count == piece.utf8.count * deltas)
        #expect(unshared.utf8._storage?._allocation == .malloced, "no snapshot was held, yet the text went to a region")

        var held: [MessageSnapshot] = []
        let kept = runStream(bytes, checkChunkings: false) { held.append($0) }
        #expect(kept.error == nil)
        let shared = try finalText(kept)
        #expect(shared.string == unshared.string)
        #expect(shared.utf8._storage?._allocation == .reserved)
        for (index, snapshot) in held.enumerated() {
            guard case .text(let block) = snapshot.content.block(at: 0) else { continue }
            // Snapshot 0 is the message start, 1 the block start, then one per delta.
            let expected = Swift.max(0, Swift.min(index - 1, deltas)) * piece.utf8.count
            if block.text.utf8Count != expected {
                Issue.record("snapshot \(index) holds \(block.text.utf8Count) bytes, not \(expected)")
                break
            }
        }
    }

    /// A thinking block's signature arrives after its last text and just
    /// before its stop, which then finds the block no longer live: the
    /// text's doubling slack goes back at the signature instead (no caller
    /// holds the text), and a text block's goes back at its stop. Without
    /// it, every thinking block of a message kept up to twice its text.
    @Test func aStoppedBlockKeepsNoSlack() throws {
        let piece = String(repeating: "abcdefgh", count: 8)
        let deltas = 70  // 4,480 bytes, grown by doubling past it
        let thinking = F.start(0, #"{"type":"thinking","thinking":"","signature":""}"#)
        let bytes = F.sse(
            [F.messageStart, thinking]
                + Array(repeating: F.delta(0, #"{"type":"thinking_delta","thinking":"\#(piece)"}"#), count: deltas)
                + [F.delta(0, #"{"type":"signature_delta","signature":"c2ln"}"#), F.stop(0), F.textStart(1)]
                + Array(repeating: F.text(1, piece), count: deltas)
                + [F.stop(1), F.messageDelta(), F.messageStop])
        let outcome = runStream(bytes, checkChunkings: false)
        #expect(outcome.error == nil)
        guard case .thinking(let block) = outcome.last?.content.block(at: 0),
            case .text(let text) = outcome.last?.content.block(at: 1)
        else { throw StreamingBlocksFailure("blocks 0 and 1 should be thinking and text") }
        #expect(block.signature == "c2ln")
        for (name, utf8) in [("thinking", block.thinking.utf8), ("text", text.text.utf8)] {
            #expect(utf8.count == piece.utf8.count * deltas, "\(name)")
            #expect(utf8._storage?._allocation == .malloced, "\(name)")
            #expect(utf8._storage?.capacity == utf8.count, "\(name): capacity left past the text")
        }
    }

    /// A tool input whose value finished before its stop stays the live
    /// block, so its text gives back its slack at the stop too.
    @Test func aFinishedToolInputKeepsNoSlack() throws {
        let record = #"{\"name\": \"abcdefgh\", \"n\": 12345678}, "#
        let deltas = 100
        let bytes = F.sse(
            [F.messageStart, F.toolStart(0), F.json(0, #"{\"records\": ["#)]
                + Array(repeating: F.json(0, record), count: deltas)
                + [F.json(0, "1]}"), F.json(0, " "), F.stop(0), F.messageDelta(stop: "tool_use"), F.messageStop])
        let outcome = runStream(bytes, checkChunkings: false)
        #expect(outcome.error == nil)
        guard case .toolUse(let call) = outcome.last?.content.block(at: 0) else {
            throw StreamingBlocksFailure("block 0 should be a tool call")
        }
        #expect(call.inputError == nil)
        #expect(call.input["records"]?.arrayValue?.count == deltas + 1)
        let utf8 = call.inputJSON.utf8
        #expect(utf8._storage?._allocation == .malloced)
        #expect(utf8._storage?.capacity == utf8.count, "capacity left past the input's text")
    }
}

private struct StreamingBlocksFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
