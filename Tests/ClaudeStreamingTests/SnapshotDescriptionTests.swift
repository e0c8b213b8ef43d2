// Readable values: every snapshot, block, activity and usage prints as one
// line that says what it holds; and snapshots compare equal after a Codable
// round trip, because equality is what their API JSON says.

import ClaudeStreaming
import CommandLineDisplay
import Foundation
import IncrementalJSON
import Testing

struct SnapshotDescriptionTests {
    private func demoMessage() throws -> MessageSnapshot {
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(DemoRecording.bytes)
        return try accumulator.finish()
    }

    @Test func snapshotDescribesItselfInOneLine() throws {
        let message = try demoMessage()
        let text = "\(message)"
        #expect(
            text == "MessageSnapshot(msg_demo_01, claude-opus-4-5, 6 blocks [thinking, text, server_tool_use, "
                + "web_search_tool_result, text, tool_use], \(message.text.count) chars of text, stop: tool_use, "
                + "in 1284 out 312 tokens, complete)")
        #expect(String(reflecting: message) == text)
        #expect(!text.contains("MessageHeaderBox"))
    }

    @Test func blocksActivitiesAndUsageSayWhatTheyHold() throws {
        let message = try demoMessage()
        let lines = message.content.map { "\($0)" }
        guard case .thinking(let thinking) = message.content[0] else {
            Issue.record("block 0 is not thinking")
            return
        }
        #expect(lines[0] == "thinking(\(thinking.thinking.string.count) chars, signed)")
        #expect(lines[2] == #"server_tool_use(web_search srvtoolu_demo_01 {"query":"Lisbon weather forecast this weekend"})"#)
        #expect(lines[4].hasPrefix("text(") && lines[4].contains("1 citation"))
        let activity = try #require(message.serverToolActivities.first)
        #expect("\(activity)" == #"web search "Lisbon weather forecast this weekend" (srvtoolu_demo_01) → 2 results"#)
        #expect("\(activity.request)" == #"web search "Lisbon weather forecast this weekend""#)
        #expect(!"\(activity.request)".contains("Optional"))
        #expect("\(message.usage)".hasPrefix("Usage(input_tokens: 1284, "))
        #expect("\(message.usage)".contains(#"server_tool_use: {"web_search_requests":1}"#))
        for line in lines + ["\(message)", "\(activity)", "\(message.usage)"] {
            #expect(!line.contains("\n"), "one line: \(line)")
        }
    }

    @Test func streamingBlockSaysSo() throws {
        var accumulator = MessageAccumulator()
        let cut = Array(
            DemoRecording.bytes.prefix(
                through: try #require(
                    DemoRecording.sse.range(of: "forecast this ").map { DemoRecording.sse.utf8.distance(from: DemoRecording.sse.startIndex, to: $0.upperBound) }
                )))
        let snapshot = try #require(try accumulator.feed(cut))
        #expect("\(snapshot)".hasSuffix("streaming)"))
        #expect("\(snapshot.content[2])".hasSuffix(", streaming)"))
    }

    /// Fails with the old `==`, which compared the internal header (the
    /// `message_start` object, delta fields) instead of what the message says.
    @Test func snapshotsAreEqualAfterACodableRoundTrip() throws {
        var accumulator = MessageAccumulator()
        var snapshots: [MessageSnapshot] = []
        try DemoRecording.bytes.withUnsafeBytes { raw in try accumulator.feed(raw) { snapshots.append($0) } }
        #expect(snapshots.count > 10)
        for snapshot in snapshots {
            let decoded = try JSONDecoder().decode(MessageSnapshot.self, from: JSONEncoder().encode(snapshot))
            #expect(decoded.messageJSON() == snapshot.messageJSON())
            #expect(decoded == snapshot)
            #expect(decoded.hashValue == snapshot.hashValue)
        }
        // Different messages still differ.
        #expect(snapshots[snapshots.count - 1] != snapshots[snapshots.count - 2])
        #expect(snapshots[3] != snapshots[4])
    }
}
