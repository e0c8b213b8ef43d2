import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

// Block events and text deltas derived from snapshots, over the ready-made
// byte sources: every byte of text and input JSON appears exactly once, in
// order, whatever the chunking (even a multi-byte character split across
// chunks), and each block starts and stops once.

private let stream = StreamFixture.sse([
    StreamFixture.messageStart,
    StreamFixture.textStart(0), StreamFixture.text(0, "Héllo, "), StreamFixture.text(0, "wörld 🌍"),
    StreamFixture.toolStart(1), StreamFixture.json(1, #"{\"q\": "#), StreamFixture.json(1, #"\"swift\"}"#), StreamFixture.stop(1),
    StreamFixture.stop(0),
    StreamFixture.messageDelta(stop: "tool_use"), StreamFixture.messageStop,
])

private func events(chunkSize: Int) async throws -> [BlockEvent] {
    var events: [BlockEvent] = []
    for try await event in DataChunks(Data(stream), chunkSize: chunkSize).messageSnapshots().blockEvents { events.append(event) }
    return events
}

@Suite struct BlockEventTests {
    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func everyPieceOnceInOrder(chunkSize: Int) async throws {
        let all = try await events(chunkSize: chunkSize)
        let text = all.compactMap { if case .text(0, let t) = $0 { t } else { nil } }.joined()
        let json = all.compactMap { if case .inputJSON(1, let t) = $0 { t } else { nil } }.joined()
        #expect(text == "Héllo, wörld 🌍")
        #expect(json == #"{"q": "swift"}"#)
        #expect(
            all.filter { if case .blockStarted = $0 { true } else { false } } == [
                .blockStarted(index: 0, type: "text"), .blockStarted(index: 1, type: "tool_use"),
            ])
        #expect(all.filter { if case .blockStopped = $0 { true } else { false } } == [.blockStopped(index: 1), .blockStopped(index: 0)])
        #expect(all.last == .messageStopped(stopReason: "tool_use"))
        #expect(all.first == .blockStarted(index: 0, type: "text"))
    }

    @Test func textDeltasFromAFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("block-events-\(UUID().uuidString).sse")
        try Data(stream).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var pieces: [String] = []
        for try await piece in FileChunks(url, chunkSize: 5).messageSnapshots().textDeltas { pieces.append(piece) }
        #expect(pieces.joined() == "Héllo, wörld 🌍")
        #expect(pieces.count > 1)
        // Sendable where the base is: usable from another task.
        let sequence = DataChunks(Data(stream)).messageSnapshots().textDeltas
        let joined = try await Task { try await sequence.reduce("", +) }.value
        #expect(joined == "Héllo, wörld 🌍")
    }

    @Test func aMissingFileThrows() async {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        await #expect(throws: (any Error).self) {
            for try await _ in FileChunks(url) {}
        }
    }
}

// Snapshots of several messages in one sequence (the rounds of a tool loop
// mapped to their messages): each message's events start at block 0 again,
// and no text is lost or repeated, whichever snapshots a reader saw.

private let calling = StreamScript(id: "msg_1").text("Let me ", "look.").toolUse("toolu_1", "get", #"{"a":1}"#).end("tool_use")
private let answer = StreamScript(id: "msg_2").text("The answer ", "is 42.").end("end_turn")

/// The snapshot after each chunk of `stream`, the complete one last.
private func snapshots(_ stream: String, chunkSize: Int = 7, upTo end: Int? = nil) throws -> [MessageSnapshot] {
    let bytes = Array(stream.utf8).prefix(end ?? Int.max)
    var accumulator = MessageAccumulator()
    var all: [MessageSnapshot] = []
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
        if let snapshot = try accumulator.feed(Array(bytes[offset..<min(offset + chunkSize, bytes.endIndex)])) { all.append(snapshot) }
        offset += chunkSize
    }
    return all
}

private func sequence(_ snapshots: [MessageSnapshot]) -> AsyncStream<MessageSnapshot> {
    AsyncStream { continuation in
        for snapshot in snapshots { continuation.yield(snapshot) }
        continuation.finish()
    }
}

private func text(_ snapshots: [MessageSnapshot]) async -> String {
    await sequence(snapshots).textDeltas.reduce("", +)
}

@Suite struct BlockEventsAcrossMessagesTests {
    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func everyMessageComesOutWhole(chunkSize: Int) async throws {
        let all = try snapshots(calling, chunkSize: chunkSize) + snapshots(answer, chunkSize: chunkSize)
        #expect(await text(all) == "Let me look.The answer is 42.")
        var started: [BlockEvent] = []
        var stopped: [String?] = []
        for await event in sequence(all).blockEvents {
            if case .blockStarted = event { started.append(event) }
            if case .messageStopped(let reason) = event { stopped.append(reason) }
        }
        #expect(started == [.blockStarted(index: 0, type: "text"), .blockStarted(index: 1, type: "tool_use"), .blockStarted(index: 0, type: "text")])
        #expect(stopped == ["tool_use", "end_turn"])
    }

    @Test func aReaderOfEachMessagesLastSnapshotGetsAllTheText() async throws {
        // The same id twice (a test double's), and only the final snapshots:
        // the first message was complete, so the second is a new one.
        let first = try #require(try snapshots(StreamScript().text("One, ", "two.").end("tool_use")).last)
        let second = try #require(try snapshots(StreamScript().text("One, two, three.").end("end_turn")).last)
        #expect(await text([first, second]) == "One, two.One, two, three.")
        // Two equal messages built apart are two messages.
        let again = try #require(try snapshots(StreamScript().text("One, ", "two.").end("tool_use")).last)
        #expect(await text([first, again]) == "One, two.One, two.")
    }

    @Test func aCopyOfTheFinalSnapshotAddsNothing() async throws {
        let all = try snapshots(calling)
        let final = try #require(all.last)
        #expect(await text(all + [final, final]) == "Let me look.")
        var stops = 0
        for await event in sequence(all + [final]).blockEvents {
            if case .messageStopped = event { stops += 1 }
        }
        #expect(stops == 1)
    }

    @Test func aShorterOrDifferentSnapshotBeginsANewMessage() async throws {
        // A message cut off (no message_stop), then another under the same id.
        let cutStream = StreamScript().text("Let me look it up").end("end_turn")
        let cut = try snapshots(cutStream, upTo: cutStream.components(separatedBy: "event: content_block_stop")[0].utf8.count)
        #expect(cut.last?.isComplete == false)
        #expect(try #require(cut.last).text.count > 3)
        let shorter = try snapshots(StreamScript().text("Hi.").end("end_turn"))
        #expect(await text(cut + shorter) == (cut.last?.text ?? "") + "Hi.")

        let thinking = StreamScript().block(#"{"type":"thinking","thinking":"Long thoughts, longer than the cut text","signature":"s"}"#).end("end_turn")
        var events: [BlockEvent] = []
        for await event in sequence(cut + (try snapshots(thinking))).blockEvents { events.append(event) }
        #expect(events.filter { if case .blockStarted = $0 { true } else { false } }.last == .blockStarted(index: 0, type: "thinking"))
    }
}
