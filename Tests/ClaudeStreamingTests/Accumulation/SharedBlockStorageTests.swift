// Blocks in turn in one storage (StreamingBlocks.swift, "Storage shared by
// blocks in turn"): while a caller holds snapshots, a new block goes on in
// the storage of the block that stopped before it, as a slice of it; when no
// caller holds them, each block keeps storage of its own, without slack.
// Whatever the layout, every held snapshot keeps showing what it showed when
// it was handed out.

import AppendOnlyStorage
import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

@Suite struct SharedBlockStorageTests {
    typealias F = StreamFixture

    static let thinkingStart = F.start(0, #"{"type":"thinking","thinking":"","signature":""}"#)
    static func thinking(_ index: Int, _ text: String) -> String {
        F.delta(index, #"{"type":"thinking_delta","thinking":"\#(text)"}"#)
    }
    static let signature = F.delta(0, #"{"type":"signature_delta","signature":"c2ln"}"#)
    static let piece = String(repeating: "abcdefgh", count: 8)

    /// Thinking, then text, then a tool call, each stopped before the next.
    static let threeBlocks: [UInt8] = F.sse(
        [F.messageStart, thinkingStart] + Array(repeating: thinking(0, piece), count: 80)
            + [signature, F.stop(0), F.textStart(1)] + Array(repeating: F.text(1, piece), count: 90)
            + [F.stop(1), F.toolStart(2), F.json(2, #"{\"q\": \""#)] + Array(repeating: F.json(2, piece), count: 30)
            + [F.json(2, #"\"}"#), F.stop(2), F.messageDelta(stop: "tool_use"), F.messageStop])

    /// Holds every snapshot with the message JSON it showed when handed
    /// out, and checks each again once the stream has ended.
    static func runHoldingEverySnapshot(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> StreamOutcome {
        var held: [(MessageSnapshot, String)] = []
        let outcome = runStream(bytes, checkChunkings: false) { held.append(($0, $0.messageJSON().compactJSON)) }
        #expect(outcome.error == nil, sourceLocation: sourceLocation)
        #expect(held.count > 10, sourceLocation: sourceLocation)
        for (index, (snapshot, seen)) in held.enumerated() where snapshot.messageJSON().compactJSON != seen {
            Issue.record("held snapshot \(index) changed after it was handed out", sourceLocation: sourceLocation)
            break
        }
        return outcome
    }

    static func texts(_ snapshot: MessageSnapshot?) throws -> [AppendOnlyText] {
        guard case .thinking(let thinking) = snapshot?.content.block(at: 0),
            case .text(let text) = snapshot?.content.block(at: 1),
            case .toolUse(let call) = snapshot?.content.block(at: 2)
        else { throw SharedStorageFailure("blocks 0, 1 and 2 should be thinking, text and a tool call") }
        return [thinking.thinking, text.text, call.inputJSON]
    }

    /// With every snapshot held, the three blocks' bytes lie one after
    /// another in one storage, and each block shows its own.
    @Test func heldBlocksGoOnInOneStorage() throws {
        let outcome = Self.runHoldingEverySnapshot(Self.threeBlocks)
        let texts = try Self.texts(outcome.last)
        #expect(texts[0].string == String(repeating: Self.piece, count: 80))
        #expect(texts[1].string == String(repeating: Self.piece, count: 90))
        #expect(texts[2].string == #"{"q": ""# + String(repeating: Self.piece, count: 30) + #""}"#)
        let storages = texts.map(\.storageIdentity)
        #expect(storages[0] != nil)
        #expect(storages[1] == storages[0], "the text block started storage of its own")
        #expect(storages[2] == storages[0], "the tool call started storage of its own")
        guard case .toolUse(let call) = outcome.last?.content.block(at: 2) else { return }
        #expect(call.input.compactJSON == #"{"q":"\#(String(repeating: Self.piece, count: 30))"}"#)
        #expect(call.finalInput == call.input)
    }

    /// With no snapshot held, each block has storage of its own, given
    /// back its slack at its stop (as `aStoppedBlockKeepsNoSlack` checks
    /// for two of them): sharing would only keep finished blocks' slack.
    @Test func unheldBlocksKeepStorageOfTheirOwn() throws {
        let outcome = runStream(Self.threeBlocks)
        #expect(outcome.error == nil)
        let texts = try Self.texts(outcome.last)
        #expect(Set(texts.map(\.storageIdentity)).count == 3)
        for text in texts {
            #expect(text.utf8._storage?.capacity == text.utf8Count, "capacity left past a stopped block's text")
        }
    }

    /// A thinking delta after the signature streams the block again, after
    /// a text block went on in its storage: the thinking copies itself out
    /// (once), and neither block, having streamed again, is built on, so no
    /// block's bytes are copied at every turn. Every held snapshot still
    /// shows what it showed.
    @Test func aBlockStreamedAgainIsNotBuiltOn() throws {
        let bytes = F.sse(
            [F.messageStart, Self.thinkingStart] + Array(repeating: Self.thinking(0, Self.piece), count: 80)
                + [Self.signature, F.textStart(1)] + Array(repeating: F.text(1, Self.piece), count: 10)
                + [Self.thinking(0, "more"), F.stop(0), F.text(1, "end"), F.stop(1), F.textStart(2)]
                + Array(repeating: F.text(2, Self.piece), count: 5) + [F.stop(2), F.messageDelta(), F.messageStop])
        let outcome = Self.runHoldingEverySnapshot(bytes)
        guard case .thinking(let thinking) = outcome.last?.content.block(at: 0),
            case .text(let first) = outcome.last?.content.block(at: 1),
            case .text(let second) = outcome.last?.content.block(at: 2)
        else { throw SharedStorageFailure("blocks 0, 1 and 2 should be thinking, text and text") }
        #expect(thinking.thinking.string == String(repeating: Self.piece, count: 80) + "more")
        #expect(thinking.signature == "c2ln")
        #expect(first.text.string == String(repeating: Self.piece, count: 10) + "end")
        #expect(second.text.string == String(repeating: Self.piece, count: 5))
        let storages = [thinking.thinking, first.text, second.text].map(\.storageIdentity)
        #expect(Set(storages).count == 3, "a block streamed again was built on")
    }

    /// Blocks taking turns and blocks starting between the turns, every
    /// snapshot held: each held snapshot keeps what it showed, the final
    /// message holds each block's own text. Block 1 went on after block 0,
    /// and stays there; block 2 went on after block 1 but streamed again
    /// after block 3 started, so it copied itself out.
    @Test func interleavedBlocksKeepTheirOwnBytes() throws {
        // Past the 15 bytes that text keeps inline, so slices stay slices.
        func w(_ word: String) -> String { String(repeating: word + " ", count: 6) }
        // Block 0 past 4 KiB, so that its held storage is a reserved region
        // with room for the blocks after it (a new block claims 256 bytes
        // of room at its first delta, or the storage grows first).
        let bytes = F.sse(
            [F.messageStart, F.textStart(0)] + Array(repeating: F.text(0, Self.piece), count: 80) + [
                F.stop(0), F.textStart(1), F.text(1, w("one")),
                F.text(1, w("uno")), F.stop(1), F.textStart(2), F.text(2, w("two")), F.textStart(3), F.text(3, w("three")),
                F.text(2, w("dos")), F.stop(2), F.text(3, w("tres")), F.stop(3), F.textStart(4), F.text(4, w("four")),
                F.stop(4), F.messageDelta(), F.messageStop,
            ])
        let outcome = Self.runHoldingEverySnapshot(bytes)
        let texts = (0..<5).compactMap { index -> AppendOnlyText? in
            guard case .text(let block) = outcome.last?.content.block(at: index) else { return nil }
            return block.text
        }
        #expect(texts.map(\.string) == [String(repeating: Self.piece, count: 80), w("one") + w("uno"), w("two") + w("dos"), w("three") + w("tres"), w("four")])
        guard texts.count == 5 else { return }
        #expect(texts[1].storageIdentity == texts[0].storageIdentity, "block 1 did not go on after block 0")
        #expect(Set(texts.map(\.storageIdentity)).count == 4)
    }
}

private struct SharedStorageFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
