// A tool input's partial value is an open path that the parser writes over
// in place when no snapshot holds the last one (`refreshOpenRoot`). These
// hold some snapshots and drop others, through inputs that go deeper and
// come back up (so paths outgrow their room and are made anew), and check
// that every held snapshot still reads the value it had when it was handed
// out, and that the values handed out are the parser's.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

@Suite struct OpenPathReuseTests {
    typealias F = StreamFixture

    /// `json` cut into pieces of `size` bytes, one delta each.
    static func stream(_ json: String, pieces size: Int) -> [UInt8] {
        let bytes = Array(json.utf8)
        var events = [F.messageStart, F.toolStart(0, id: "toolu_a")]
        for start in stride(from: 0, to: bytes.count, by: size) {
            let piece = String(decoding: bytes[start..<min(bytes.count, start + size)], as: UTF8.self)
            events.append(F.delta(0, JSONValue.object([("type", .string("input_json_delta")), ("partial_json", .string(piece))]).compactJSON))
        }
        events += [F.stop(0), F.messageDelta(stop: "tool_use"), F.messageStop]
        return F.sse(events)
    }

    static let document =
        #"{"a": [1, {"b": {"c": [[["deep", "er"]], {"d": "e"}]}}, 3], "f": "a string long enough to cross deltas", "g": [[[[[[1]]]]]], "h": {}}"#

    @Test(arguments: [1, 3, 7, 16])
    func heldSnapshotsKeepTheirValues(pieceSize: Int) {
        let bytes = Self.stream(Self.document, pieces: pieceSize)
        // Every third snapshot is kept; the others go as the callback
        // returns, so the next delta may write over their paths.
        var held: [(MessageSnapshot, String)] = []
        var count = 0
        var accumulator = MessageAccumulator()
        bytes.withUnsafeBytes { raw in
            do throws(MessageStreamError) {
                try accumulator.feed(raw) { snapshot in
                    count += 1
                    guard case .toolUse(let call) = snapshot.content.block(at: 0) else { return }
                    if count % 3 == 0 { held.append((snapshot, call.input.compactJSON)) }
                }
            } catch {
                Issue.record("the stream failed: \(error)")
            }
        }
        #expect(held.count > Self.document.utf8.count / pieceSize / 3 - 2)
        for (snapshot, seen) in held {
            guard case .toolUse(let call) = snapshot.content.block(at: 0) else {
                Issue.record("a held snapshot lost its tool call")
                continue
            }
            #expect(call.input.compactJSON == seen, "a held snapshot's input changed after it was handed out")
        }
        guard case .toolUse(let final) = accumulator.snapshot?.content.block(at: 0) else {
            Issue.record("no final tool call")
            return
        }
        #expect(final.input == (try? JSONValue.parse(Array(Self.document.utf8))))
    }

    /// The value each snapshot shows is the one a fresh parser gives for
    /// the same prefix, whether or not the snapshot before it was held.
    @Test func everyPartialValueIsTheParsers() throws {
        let bytes = Self.stream(Self.document, pieces: 2)
        let text = Array(Self.document.utf8)
        var shown: [String] = []
        var accumulator = MessageAccumulator()
        try bytes.withUnsafeBytes { raw in
            try accumulator.feed(raw) { snapshot in
                if case .toolUse(let call) = snapshot.content.block(at: 0), !call.isComplete { shown.append(call.input.compactJSON) }
            }
        }
        var expected: [String] = []
        for end in stride(from: 2, through: text.count + 1, by: 2) {
            var parser = IncrementalJSONParser()
            try parser.feed(Array(text[0..<min(end, text.count)]))
            expected.append(parser.value?.compactJSON ?? "")
        }
        // The first snapshot of the block is its start (before any delta).
        #expect(Array(shown.dropFirst()) == expected)
    }
}
