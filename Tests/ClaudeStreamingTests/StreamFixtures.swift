// Streams written for these tests, one event per line of JSON, framed the way
// the API frames them. Each fixture is small and says what it is for.

enum StreamFixture {
    /// Frames events as `event: TYPE\ndata: JSON\n\n` (the type is read from the JSON).
    static func sse(_ events: [String]) -> [UInt8] {
        var text = ""
        for event in events {
            let type = event.firstMatch(of: /"type"\s*:\s*"([a-z_]+)"/).map { String($0.1) } ?? "message"
            text += "event: \(type)\ndata: \(event)\n\n"
        }
        return Array(text.utf8)
    }

    static let messageStart = #"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}"#
    static let messageStop = #"{"type":"message_stop"}"#
    static func stop(_ index: Int) -> String { #"{"type":"content_block_stop","index":\#(index)}"# }
    static func textStart(_ index: Int) -> String { #"{"type":"content_block_start","index":\#(index),"content_block":{"type":"text","text":""}}"# }
    static func text(_ index: Int, _ text: String) -> String {
        #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":"\#(text)"}}"#
    }
    static func toolStart(_ index: Int, id: String = "toolu_1", name: String = "lookup", type: String = "tool_use") -> String {
        #"{"type":"content_block_start","index":\#(index),"content_block":{"type":"\#(type)","id":"\#(id)","name":"\#(name)","input":{}}}"#
    }
    static func json(_ index: Int, _ partial: String) -> String {
        #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"input_json_delta","partial_json":"\#(partial)"}}"#
    }
    static func messageDelta(stop: String = "end_turn", usage: String = #"{"output_tokens":42}"#) -> String {
        #"{"type":"message_delta","delta":{"stop_reason":"\#(stop)","stop_sequence":null},"usage":\#(usage)}"#
    }

    /// A whole simple message: one text block.
    static func simple(_ text: String = "Hello") -> [UInt8] {
        sse([messageStart, textStart(0), Self.text(0, text), stop(0), messageDelta(), messageStop])
    }
}
