// Block starts, stops and pings read without a tree (BoundaryEvents.swift):
// the forms read, the near misses left to the full parser, and streams
// whose outcome (messages, error kind and event index, snapshot count) is
// the same as when every event goes to the full parser. The reference
// stream gives each event's data a leading space, which JSON allows and
// which no reader but the full parser accepts.

import Foundation
import IncrementalJSON
import Testing

@_spi(FuzzTesting) @testable import ClaudeStreaming

@Suite struct BoundaryEventsTests {
    func read(_ data: String) -> BoundaryEvent? {
        Array(data.utf8).withUnsafeBytes { BoundaryEvent.read($0) }
    }

    @Test func theUsualFormsAreRead() throws {
        #expect(read(#"{"type":"content_block_stop","index":12}"#) == .stop(index: 12))
        #expect(read(#"{"type":"content_block_stop","index":0 } "#) == .stop(index: 0))
        #expect(read(#"{"type": "ping"}"#) == .ping)
        #expect(read(#"{"type":"ping"}"#) == .ping)
        let start = #"{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}"#
        guard case .start(let index, let range) = read(start) else {
            Issue.record("start not read")
            return
        }
        #expect(index == 3)
        #expect(String(decoding: Array(start.utf8)[range], as: UTF8.self) == #"{"type":"text","text":""}"#)
        // Whether the range is one value is the JSON parser's to say.
        #expect(read(#"{"type":"content_block_start","index":1,"content_block": {} }"#) == .start(index: 1, block: 56..<60))
        #expect(read(#"{"type":"content_block_start","index":1,"content_block":{}"#) == .start(index: 1, block: 56..<57))
    }

    @Test(arguments: [
        #" {"type":"content_block_stop","index":1}"#, #"{"type":"content_block_stop","index":01}"#,
        #"{"type":"content_block_stop","index":1.0}"#, #"{"type":"content_block_stop","index":-1}"#,
        #"{"type":"content_block_stop","index":1,"x":1}"#, #"{"index":1,"type":"content_block_stop"}"#,
        #"{"type":"content_block_stop","index":1}x"#, #"{"type":"content_block_stop","index":1"#,
        #"{"type":"content_block_stop","index":1e2}"#, #"{"type":"content_block_stops","index":1}"#,
        #"{"type":"pings"}"#, #"{"type":"ping","x":1}"#, #"{"type":"ping"}}"#,
        #"{"type":"content_block_start","index":1,"content_block":}"#,
        #"{"type":"content_block_start","index":1 ,"content_block":{}}"#,
    ])
    func nearMissesAreLeftToTheParser(_ data: String) {
        #expect(read(data) == nil, "\(data)")
    }

    /// The fuzzers' self-check: what the reader reads, the parser reads the same.
    @Test func theFuzzCheckAgrees() {
        let events = [
            #"{"type":"content_block_stop","index":7 }"#, #"{"type": "ping"}"#,
            #"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
            #"{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""},"more":1}"#,
            #"{"type":"content_block_start","index":2,"content_block":"s" }"#,
        ]
        for event in events {
            #expect(Array(event.utf8).withUnsafeBytes { MessageAccumulator._checkHotPathAgreement($0) } == nil, "\(event)")
        }
    }

    /// The events of a stream, each as an SSE block; `spaced` gives the
    /// data a leading space so that only the full parser reads it.
    func stream(_ events: [String], spaced: Bool) -> [UInt8] {
        Array(events.map { "data: \(spaced ? " " : "")\($0)\n\n" }.joined().utf8)
    }

    func expectSameAsTheFullParser(
        _ events: [String], options: MessageAccumulatorOptions = MessageAccumulatorOptions(allowsSequentialMessages: true),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> StreamOutcome {
        let fast = runStream(stream(events, spaced: false), options: options, sourceLocation: sourceLocation)
        let full = runStream(stream(events, spaced: true), options: options, sourceLocation: sourceLocation)
        #expect(fast.completed.map { $0.messageJSON().compactJSON } == full.completed.map { $0.messageJSON().compactJSON }, sourceLocation: sourceLocation)
        #expect(fast.last?.messageJSON().compactJSON == full.last?.messageJSON().compactJSON, sourceLocation: sourceLocation)
        #expect(fast.last?.content.map(\.start) == full.last?.content.map(\.start), sourceLocation: sourceLocation)
        #expect(describe(fast.error, spaced: false) == describe(full.error, spaced: true), sourceLocation: sourceLocation)
        #expect(fast.error?.eventIndex == full.error?.eventIndex, sourceLocation: sourceLocation)
        #expect(fast.snapshots == full.snapshots, sourceLocation: sourceLocation)
        return fast
    }

    /// The error's kind, with a JSON error's offset as it would be without
    /// the leading space.
    func describe(_ error: MessageStreamError?, spaced: Bool) -> String? {
        guard let error else { return nil }
        if case .invalidEventJSON(let json) = error.kind {
            // Reported at the limit, wherever the event starts.
            if case .sizeLimitExceeded = json.reason { return "JSON: \(json.reason)" }
            return "JSON: \(json.reason) at \(json.offset - (spaced ? 1 : 0))"
        }
        return "\(error.kind)"
    }

    let messageStart =
        #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"#
        + #""usage":{"input_tokens":1,"output_tokens":1}}}"#
    let messageStop = #"{"type":"message_stop"}"#
    let ping = #"{"type": "ping"}"#
    func start(_ index: Int, _ block: String) -> String { #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"# }
    func stop(_ index: Int) -> String { #"{"type":"content_block_stop","index":\#(index)}"# }
    func text(_ index: Int, _ text: String) -> String {
        #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":"\#(text)"}}"#
    }
    let textBlock = #"{"type":"text","text":""}"#
    let thinkingBlock = #"{"type":"thinking","thinking":"","signature":""}"#

    /// Two messages whose blocks come from the usual start bytes: the block
    /// made once is shared, and each message's text is its own.
    @Test func usualStartsKeepEachMessageApart() throws {
        let message = [
            messageStart, ping, start(0, thinkingBlock), stop(0), start(1, textBlock), text(1, "one"), stop(1),
            start(2, #"{"type":"tool_use","id":"toolu_1","name":"f","input":{}}"#), stop(2),
            start(3, textBlock), text(3, "two"), stop(3), messageStop,
        ]
        let second = message.map { $0.replacingOccurrences(of: #""text":"one""#, with: #""text":"uno""#) }
        let outcome = expectSameAsTheFullParser(message + second)
        #expect(outcome.error == nil)
        #expect(outcome.completed.count == 2)
        #expect(outcome.completed.first?.text == "onetwo")
        #expect(outcome.completed.last?.text == "unotwo")
    }

    /// Every failure a boundary event can meet, each as the full parser reports it.
    @Test func failuresAreTheFullParsersFailures() {
        let streams: [[String]] = [
            [start(0, textBlock)],  // before message_start
            [stop(0)],
            [messageStart, stop(0)],  // no open block
            [messageStart, start(0, textBlock), stop(0), stop(0)],  // stopped twice
            [messageStart, start(0, "5")],  // not an object
            [messageStart, start(0, "[1,2]")],
            [messageStart, start(0, #"{"type":"text","text":""},"extra":1"#)],  // not one value: the full parser reads it
            [messageStart, start(0, #"{"type":"text","text":"#)],  // invalid JSON
            [messageStart, start(0, "{")],
            [messageStart, start(0, textBlock), stop(0), messageStop, start(1, textBlock)],  // after message_stop
            [messageStart, ping, messageStop, ping, ping],
        ]
        for events in streams {
            _ = expectSameAsTheFullParser(events, options: MessageAccumulatorOptions())
        }
    }

    func toolCall(_ object: String, maxStringBytes: Int = .max) -> ContentBlock? {
        Array(object.utf8).withUnsafeBytes { UsualBlockStarts.toolCall(for: $0, maxStringBytes: maxStringBytes) }
    }

    /// A tool call's start in the usual form is built, not parsed, into the
    /// block the parsed object makes, its `start` the same JSON.
    @Test(arguments: [
        #"{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}"#,
        #"{"type":"server_tool_use","id":"srvtoolu_01WYG3ziw53XMcoyKL4XcZmE","name":"web_search","input":{}}"#,
        #"{"type":"tool_use","id":"","name":"a.b:c-d_e","input":{}}"#,
    ])
    func usualToolCallStartsAreBuilt(_ object: String) throws {
        let built = try #require(toolCall(object))
        let parsed = ContentBlock.fromStart(try JSONValue.parse(object), isComplete: false)
        #expect(built == parsed)
        #expect(built.start.compactJSON == object)
        #expect(Array(start(4, object).utf8).withUnsafeBytes { MessageAccumulator._checkHotPathAgreement($0) } == nil)
    }

    /// Anything else is left to the parser: other fields or order, spaces,
    /// escapes or other bytes in a string, another type, input already
    /// given, and an id longer than the parser's string limit.
    @Test func otherToolCallStartsAreParsed() {
        for object in [
            #"{"type":"tool_use","id":"t","name":"f","input":{},"caller":{"type":"direct"}}"#,
            #"{"type":"tool_use","name":"f","id":"t","input":{}}"#,
            #"{"type":"tool_use","id":"t","name":"f","input":{ }}"#,
            #"{"type":"tool_use", "id":"t","name":"f","input":{}}"#,
            #"{"type":"tool_use","id":"t\u0041","name":"f","input":{}}"#,
            #"{"type":"tool_use","id":"t é","name":"f","input":{}}"#,
            #"{"type":"mcp_tool_use","id":"t","name":"f","server_name":"s","input":{}}"#,
            #"{"type":"tool_use","id":"t","name":"f","input":{"a":1}}"#,
            #"{"type":"tool_use","id":"t","name":"f","input":{}} "#,
            #"{"type":"tool_use","id":"t","name":"f","input":{}"#,
        ] {
            #expect(toolCall(object) == nil, "\(object)")
        }
        // The parser's string limit: the id, and the type itself.
        #expect(toolCall(#"{"type":"tool_use","id":"toolu_123","name":"f","input":{}}"#, maxStringBytes: 8) == nil)
        #expect(toolCall(#"{"type":"tool_use","id":"toolu_12","name":"f","input":{}}"#, maxStringBytes: 8) != nil)
        #expect(toolCall(#"{"type":"tool_use","id":"t","name":"f","input":{}}"#, maxStringBytes: 7) == nil)
    }

    /// Streams with tool calls end the same either way, at every limit
    /// the built start must respect.
    @Test func toolCallStartsMatchTheFullParser() {
        let call = start(0, #"{"type":"tool_use","id":"toolu_0123456789","name":"lookup","input":{}}"#)
        let input = #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": 1}"}}"#
        let events = [messageStart, call, input, stop(0), messageStop]
        for json in [
            JSONParserOptions(), JSONParserOptions(maxDepth: 2), JSONParserOptions(maxDepth: 3),
            JSONParserOptions(maxStringBytes: 15), JSONParserOptions(maxStringBytes: 16),
        ] {
            _ = expectSameAsTheFullParser(events, options: MessageAccumulatorOptions(json: json))
        }
    }

    /// Limits the full parser holds the event to hold here too.
    @Test func theParserLimitsHold() {
        // The start is the longest event and the deepest, so each limit can
        // pass message_start and stop the start.
        let long = String(repeating: "x", count: 200)
        let events = [messageStart, start(0, #"{"type":"text","text":"","citations":[[[1]]],"note":"\#(long)"}"#), stop(0), ping, messageStop]
        for json in [
            JSONParserOptions(maxDepth: 1), JSONParserOptions(maxDepth: 3), JSONParserOptions(maxDepth: 4),
            JSONParserOptions(maxBytes: 30), JSONParserOptions(maxBytes: 200), JSONParserOptions(maxBytes: 400),
            JSONParserOptions(maxStringBytes: 4), JSONParserOptions(maxStringBytes: 18), JSONParserOptions(maxStringBytes: 100),
        ] {
            // The first message_start itself may fail; either way both paths agree.
            _ = expectSameAsTheFullParser(events, options: MessageAccumulatorOptions(json: json))
        }
        var blocks = MessageAccumulatorOptions()
        blocks.maxBlocks = 2
        let outcome = expectSameAsTheFullParser(
            [messageStart, start(0, textBlock), stop(0), start(1, textBlock), stop(1), start(2, textBlock)], options: blocks)
        #expect(outcome.error != nil)
    }
}
