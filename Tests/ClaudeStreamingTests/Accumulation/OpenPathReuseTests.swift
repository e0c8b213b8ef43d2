// A tool input's partial value is an open path that the parser writes over
// in place when no snapshot holds the last one, or a checkpoint path that
// the snapshots of a stretch of input share when the caller keeps them
// (`refreshOpenRoot`, ParseCheckpoint.swift). These hold some snapshots and
// drop others, through inputs that go deeper and come back up (so paths
// outgrow their room and are made anew), and check that every held
// snapshot still reads the value it had when it was handed out, and that
// the values handed out are the parser's.

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

    /// Records enough for several checkpoint spans.
    static let records: String = {
        var text = #"{"records": ["#
        for n in 0..<150 {
            text += (n == 0 ? "" : ", ")
            text += #"{"identifier": \#(n), "text": "line \#(n)\n\"quoted\" \u00e9", "values": [\#(n), 1.5e3, null]}"#
        }
        return text + "]}"
    }()

    /// The input of the tool call at index 0 of `snapshot`, as JSON.
    static func input(_ snapshot: MessageSnapshot) -> (json: String, failed: Bool)? {
        guard case .toolUse(let call) = snapshot.content.block(at: 0) else { return nil }
        return (call.input.compactJSON, call.inputError != nil)
    }

    /// A caller that keeps every snapshot: each one, read after the stream
    /// ended, shows the value a fresh parser gives for its prefix.
    @Test func everyKeptSnapshotIsTheParsers() throws {
        let text = Array(Self.records.utf8)
        let bytes = Self.stream(Self.records, pieces: 23)
        var kept: [MessageSnapshot] = []
        var accumulator = MessageAccumulator()
        try bytes.withUnsafeBytes { raw in try accumulator.feed(raw) { kept.append($0) } }
        // The message start, the block start, then a snapshot per delta.
        let deltas = Array(kept.dropFirst(2).prefix((text.count + 22) / 23))
        #expect(deltas.count == (text.count + 22) / 23)
        for (n, snapshot) in deltas.enumerated() where n % 5 == 0 || n == deltas.count - 1 {
            var parser = IncrementalJSONParser()
            try parser.feed(Array(text[0..<min(text.count, (n + 1) * 23)]))
            let expected = parser.isComplete ? try parser.finish().compactJSON : parser.value?.compactJSON
            if Self.input(snapshot)?.json != expected { Issue.record("the snapshot after delta \(n) is not its prefix's value") }
        }
    }

    /// Input that stops being JSON after many kept snapshots: the value
    /// stays the last partial one, in every snapshot after, while the text
    /// goes on growing.
    @Test func aParseErrorKeepsTheLastValue() throws {
        let good = String(Self.records.dropLast(2))
        let bytes = Self.stream(good + "}} and more text", pieces: 17)
        var kept: [MessageSnapshot] = []
        var accumulator = MessageAccumulator()
        try bytes.withUnsafeBytes { raw in try accumulator.feed(raw) { kept.append($0) } }
        let failed = kept.compactMap { Self.input($0) }.filter(\.failed)
        #expect(failed.count >= 2)
        // The first failing delta carries the `}`: the value is the one
        // before it, a prefix of the good text cut at a multiple of 17.
        let cut = (good.utf8.count / 17) * 17
        var parser = IncrementalJSONParser()
        try parser.feed(Array(good.utf8.prefix(cut)))
        let expected = parser.value?.compactJSON ?? ""
        for input in failed where input.json != expected {
            Issue.record("a failed input shows \(input.json.utf8.count) bytes of JSON, not the \(expected.utf8.count) of the last good prefix")
        }
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
