// The worked example of AWSEventStream.docc/AWSEventStream.md, run, so the
// catalog cannot drift from the code.

import AWSEventStream
import FuzzProperties
import Testing

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() throws {
        let payload = Array(#"{"bytes":"eyJ0eXBlIjoicGluZyJ9"}"#.utf8)
        let body = AWSEventStreamEncoder.message(
            headers: [AWSEventStreamHeader(name: ":event-type", value: .string("chunk"))], payload: payload)
        try #require(body.count > 40)

        var parser = AWSEventStreamParser()
        var messages: [AWSEventStreamMessage] = []
        for chunk in [body[..<20], body[20...]] {
            messages += try parser.feed(Array(chunk))
        }
        #expect(parser.finish() == nil)
        try #require(messages.count == 1)
        #expect(messages[0].header(":event-type") == .string("chunk"))
        #expect(messages[0].payload == payload)
        #expect(messages[0].streamOffset == 0)

        var seen: [String] = []
        var borrowing = AWSEventStreamParser()
        try body.withUnsafeBytes { raw in
            try borrowing.feed(raw) { view in
                if let type = view.stringHeader(":event-type") { seen.append(String(decoding: type, as: UTF8.self)) }
            }
        }
        #expect(seen == ["chunk"])
        #expect(body.withUnsafeBytes { AWSEventStreamParser.startsWithPrelude($0) } == true)
    }

    @Test func catalogErrorExampleNamesTheCRCField() throws {
        var body = AWSEventStreamEncoder.message(headers: [], payload: Array(repeating: 0x61, count: 28))
        #expect(body.count == 44)
        body[body.count - 1] ^= 0xFF
        var parser = AWSEventStreamParser()
        #expect(throws: AWSEventStreamError.self) { try parser.feed(body) }
        do {
            _ = try parser.feed(body)
            Issue.record("a failed parser accepted more bytes")
        } catch {
            #expect(error.offset == 40)
            #expect(error.description.hasPrefix("offset 40: message CRC 0x"))
        }
    }
}
