// The worked example of ServerSentEvents.docc/ServerSentEvents.md, run, so
// the catalog cannot drift from the code.

import ServerSentEvents
import Testing

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() throws {
        var parser = SSEParser()
        var events: [ServerSentEvent] = []
        for chunk in ["event: greeting\ndata: hel", "lo\r", "\n\ndata: {\"n\":1}\n\n"] {
            events += try parser.feed(Array(chunk.utf8))
        }
        #expect(parser.finish() == 0)
        try #require(events.count == 2)
        #expect(events[0].eventType == "greeting")
        #expect(String(decoding: events[0].data, as: UTF8.self) == "hello")
        #expect(events[1].eventType == nil)
        #expect(String(decoding: events[1].data, as: UTF8.self) == #"{"n":1}"#)
        #expect(events[1].streamOffset == Array("event: greeting\ndata: hello\r\n\ndata: {\"n\":1}\n".utf8).count)
    }
}
