// The worked example of ClaudeStreaming.docc/ClaudeStreaming.md, run, so the
// catalog cannot drift from the code.

import ClaudeStreaming
import ClaudeTestSupport
import Testing

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() throws {
        let events = [
            StreamFixture.messageStart,
            StreamFixture.toolStart(0, name: "weather"),
            StreamFixture.json(0, #"{\"city\": \"Par"#),
            StreamFixture.json(0, #"is\"}"#),
            StreamFixture.stop(0),
            StreamFixture.messageDelta(stop: "tool_use"),
            StreamFixture.messageStop,
        ]
        let chunks = events.map { StreamFixture.sse([$0]) }

        var accumulator = MessageAccumulator()
        var cities: [String] = []
        for chunk in chunks {
            if let snapshot = try accumulator.feed(chunk),
                case .toolUse(let call)? = snapshot.content.last,
                let city = call.input["city"]?.stringValue
            {
                cities.append(city)
            }
        }
        let final = try accumulator.finish()
        #expect(cities.first == "Par")
        #expect(cities.last == "Paris")
        #expect(final.stopReason == "tool_use")
        #expect(final.inputErrors.isEmpty)
        #expect(final.contentJSON().compactJSON == #"[{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}}]"#)
    }
}
