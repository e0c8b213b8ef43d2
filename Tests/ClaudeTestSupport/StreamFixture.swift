// Messages API streams written for the tests, one event at a time: each
// function gives the JSON of one event, `sse` frames a list of them the way
// the API does (`event: TYPE\ndata: JSON\n\n`, the type read from the JSON),
// and `StreamFixture.Framed` gives each event already framed, for tests that
// build a stream by concatenating text. Interpolated text is put into the
// JSON as written: a test that needs a quote writes it escaped.

package enum StreamFixture {
    package static let messageStart = messageStart(id: "msg_1")

    package static func messageStart(id: String, model: String = "claude-test", inputTokens: Int = 10) -> String {
        #"{"type":"message_start","message":{"id":"\#(id)","type":"message","role":"assistant","model":"\#(model)","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":\#(inputTokens),"output_tokens":1}}}"#
    }

    package static let messageStop = #"{"type":"message_stop"}"#

    package static func start(_ index: Int, _ block: String) -> String {
        #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#
    }

    package static func textStart(_ index: Int) -> String { start(index, #"{"type":"text","text":""}"#) }

    package static func toolStart(_ index: Int, id: String = "toolu_1", name: String = "lookup", type: String = "tool_use") -> String {
        start(index, #"{"type":"\#(type)","id":"\#(id)","name":"\#(name)","input":{}}"#)
    }

    package static func delta(_ index: Int, _ delta: String) -> String {
        #"{"type":"content_block_delta","index":\#(index),"delta":\#(delta)}"#
    }

    package static func text(_ index: Int, _ text: String) -> String { delta(index, #"{"type":"text_delta","text":"\#(text)"}"#) }

    package static func json(_ index: Int, _ partial: String) -> String {
        delta(index, #"{"type":"input_json_delta","partial_json":"\#(partial)"}"#)
    }

    package static func stop(_ index: Int) -> String { #"{"type":"content_block_stop","index":\#(index)}"# }

    /// `details`, when given, is the JSON of `delta.stop_details`.
    package static func messageDelta(stop: String = "end_turn", usage: String = #"{"output_tokens":42}"#, details: String? = nil) -> String {
        let stopDetails = details.map { #","stop_details":"# + $0 } ?? ""
        return #"{"type":"message_delta","delta":{"stop_reason":"\#(stop)","stop_sequence":null\#(stopDetails)},"usage":\#(usage)}"#
    }

    /// One event framed as SSE, its type read from the JSON's first `type`.
    package static func frame(_ event: String) -> String {
        let type = event.firstMatch(of: /"type"\s*:\s*"([a-z_]+)"/).map { String($0.1) } ?? "message"
        return "event: \(type)\ndata: \(event)\n\n"
    }

    /// Frames every event, in order.
    package static func sse(_ events: [String]) -> [UInt8] { Array(events.map(frame).joined().utf8) }

    /// A whole simple message: one text block.
    package static func simple(_ text: String = "Hello") -> [UInt8] {
        sse([messageStart, textStart(0), Self.text(0, text), stop(0), messageDelta(), messageStop])
    }

    /// The same events, each framed, for streams built by concatenation.
    package enum Framed {
        package static func messageStart(_ id: String = "msg_fixture") -> String { frame(StreamFixture.messageStart(id: id)) }
        package static func event(_ json: String) -> String { frame(json) }
        package static func start(_ index: Int, _ block: String) -> String { frame(StreamFixture.start(index, block)) }
        package static func delta(_ index: Int, _ delta: String) -> String { frame(StreamFixture.delta(index, delta)) }
        package static func text(_ index: Int, _ text: String) -> String { frame(StreamFixture.text(index, text)) }
        package static func input(_ index: Int, _ json: String) -> String { frame(StreamFixture.json(index, json)) }
        package static func stop(_ index: Int) -> String { frame(StreamFixture.stop(index)) }

        /// `message_delta` (20 output tokens) then `message_stop`.
        package static func end(_ reason: String = "end_turn", details: String? = nil) -> String {
            frame(messageDelta(stop: reason, usage: #"{"output_tokens":20}"#, details: details)) + frame(messageStop)
        }
    }
}
