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
