// The SSE text of one response built block by block, the way the API sends
// it (start, deltas, stop, then message_delta and message_stop), on the
// events of `StreamFixture`. Unlike those, text given here is real text: it
// is escaped into the JSON.

import IncrementalJSON

package struct StreamScript {
    private var events: [String] = []
    private var index = 0

    package init(id: String = "msg_s", model: String = "claude-opus-5", inputTokens: Int = 10) {
        events.append(StreamFixture.messageStart(id: id, model: model, inputTokens: inputTokens))
    }

    private mutating func delta(_ delta: JSONValue) {
        events.append(StreamFixture.delta(index, delta.compactJSON))
    }

    private mutating func start(_ block: String) {
        events.append(StreamFixture.start(index, block))
    }

    private mutating func stop() {
        events.append(StreamFixture.stop(index))
        index += 1
    }

    package func text(_ pieces: String...) -> StreamScript {
        var copy = self
        copy.start(#"{"type":"text","text":""}"#)
        for piece in pieces { copy.delta(.object([("type", .string("text_delta")), ("text", .string(piece))])) }
        copy.stop()
        return copy
    }

    /// A client tool call whose input arrives as `json` (any text, valid or not).
    package func toolUse(_ id: String, _ name: String, _ json: String, extra: String = "") -> StreamScript {
        var copy = self
        copy.start(#"{"type":"tool_use","id":"\#(id)","name":"\#(name)","input":{}\#(extra)}"#)
        copy.delta(.object([("type", .string("input_json_delta")), ("partial_json", .string(json))]))
        copy.stop()
        return copy
    }

    /// A block given whole (thinking with a signature, a server tool result, an unknown type).
    package func block(_ json: String) -> StreamScript {
        var copy = self
        copy.start(json)
        copy.stop()
        return copy
    }

    package func end(_ stopReason: String, outputTokens: Int = 5) -> String {
        var copy = self
        copy.events.append(StreamFixture.messageDelta(stop: stopReason, usage: #"{"output_tokens":\#(outputTokens)}"#))
        copy.events.append(StreamFixture.messageStop)
        return copy.events.map(StreamFixture.frame).joined()
    }
}
