// A tool input that is not valid JSON is never silently cut down: the
// snapshot lists it with its block index and reason, and messageJSON writes
// exactly the documented prefix.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

private typealias F = StreamFixture

@Suite struct InputErrorTests {
    static func stream(_ inputs: [String]) -> [UInt8] {
        var events = [F.messageStart, F.textStart(0), F.text(0, "Calling."), F.stop(0)]
        for (offset, input) in inputs.enumerated() {
            let index = offset + 1
            events += [F.toolStart(index, id: "toolu_\(index)", name: "files"), F.json(index, input), F.stop(index)]
        }
        return F.sse(events + [F.messageDelta(stop: "tool_use"), F.messageStop])
    }

    @Test func invalidInputIsListedWithItsBlockAndReason() throws {
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(
            Self.stream([
                #"{\"path\":\"a.txt\"}"#,
                #"{\"path\":\"notes.txt\",\"recursive\":false,\"dry_run\":trUE}"#,
                #"{\"path\":\"cut"#,
            ]))
        let final = try accumulator.finish()
        let errors = final.inputErrors
        #expect(errors.map(\.blockIndex) == [2, 3])
        #expect(errors.map(\.toolUseID) == ["toolu_2", "toolu_3"])
        #expect(errors.first?.toolName == "files")
        #expect(errors.first?.error.reason == .unexpectedByte(UInt8(ascii: "U")))
        #expect(errors.last?.error.reason == .unexpectedEnd)
        #expect(errors.first?.description.hasPrefix("block 2 (tool files, id toolu_2): input is not valid JSON: offset ") == true)
        // What messageJSON's documentation says it writes.
        let content = try #require(final.messageJSON()["content"])
        #expect(content[2]?["input"]?.compactJSON == #"{"path":"notes.txt","recursive":false}"#)
        #expect(content[1]?["input"]?.compactJSON == #"{"path":"a.txt"}"#)
    }

    @Test func validAndStreamingInputsAreNotListed() throws {
        var accumulator = MessageAccumulator()
        let open = F.sse([F.messageStart, F.toolStart(0), F.json(0, #"{\"path\":\"no"#)])
        let snapshot = try #require(try accumulator.feed(open))
        #expect(snapshot.inputErrors.isEmpty)
    }
}
