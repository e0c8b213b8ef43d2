import IncrementalJSON

// Builds the SSE text of one response, block by block, the way the API
// sends it (start, deltas, stop, message_delta, message_stop).

struct StreamScript {
    private var events: [String] = []
    private var index = 0

    init(id: String = "msg_s", model: String = "claude-opus-5", inputTokens: Int = 10) {
        emit("message_start", #"{"type":"message_start","message":{"id":"\#(id)","type":"message","role":"assistant","content":[],"model":"\#(model)","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":\#(inputTokens),"output_tokens":1}}}"#)
    }

    private mutating func emit(_ name: String, _ data: String) {
        events.append("event: \(name)\ndata: \(data)\n\n")
    }

    private mutating func delta(_ delta: JSONValue) {
        emit("content_block_delta", JSONValue.object([("type", .string("content_block_delta")), ("index", .number(JSONNumber(index))), ("delta", delta)]).compactJSON)
    }

    private mutating func start(_ block: String) {
        emit("content_block_start", #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#)
    }

    private mutating func stop() {
        emit("content_block_stop", #"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
    }

    func text(_ pieces: String...) -> StreamScript {
        var copy = self
        copy.start(#"{"type":"text","text":""}"#)
        for piece in pieces { copy.delta(.object([("type", .string("text_delta")), ("text", .string(piece))])) }
        copy.stop()
        return copy
    }

    /// A client tool call whose input arrives as `json` (any text, valid or not).
    func toolUse(_ id: String, _ name: String, _ json: String, extra: String = "") -> StreamScript {
        var copy = self
        copy.start(#"{"type":"tool_use","id":"\#(id)","name":"\#(name)","input":{}\#(extra)}"#)
        copy.delta(.object([("type", .string("input_json_delta")), ("partial_json", .string(json))]))
        copy.stop()
        return copy
    }

    /// A block given whole (thinking with a signature, a server tool result, an unknown type).
    func block(_ json: String) -> StreamScript {
        var copy = self
        copy.start(json)
        copy.stop()
        return copy
    }

    func end(_ stopReason: String, outputTokens: Int = 5) -> String {
        var copy = self
        copy.emit("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"\#(stopReason)","stop_sequence":null},"usage":{"output_tokens":\#(outputTokens)}}"#)
        copy.emit("message_stop", #"{"type":"message_stop"}"#)
        return copy.events.joined()
    }
}
