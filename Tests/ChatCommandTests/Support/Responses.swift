// Server-sent events of scripted responses, for the scripted server.

import IncrementalJSON

/// SSE of one response: `blocks` are content blocks given whole.
func response(_ blocks: [String], stop: String, id: String = "msg_chat") -> [String: Any] {
    var text = messageStart(id)
    for (index, block) in blocks.enumerated() {
        text += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":\(index),\"content_block\":\(block)}\n\n"
        text += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":\(index)}\n\n"
    }
    return ["body": text + messageEnd(stop)]
}

/// A tool call whose input stops at `partialInput` and whose block never
/// stops: `message_stop` comes straight after.
func cutOffToolCall(_ id: String, _ name: String, partialInput: String) -> [String: Any] {
    var text = messageStart("msg_cut")
    text +=
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"\(id)\",\"name\":\"\(name)\",\"input\":{}}}\n\n"
    var escaped: [UInt8] = []
    JSONValue.string(partialInput).encodeCompact(into: &escaped)
    text +=
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\(String(decoding: escaped, as: UTF8.self))}}\n\n"
    return ["body": text + messageEnd("tool_use")]
}

private func messageStart(_ id: String) -> String {
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"\(id)\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-opus-5\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"
}

private func messageEnd(_ stop: String) -> String {
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"\(stop)\"},\"usage\":{\"output_tokens\":4}}\n\n"
        + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
}

func toolUse(_ id: String, _ name: String, _ input: String) -> String {
    #"{"type":"tool_use","id":"\#(id)","name":"\#(name)","input":\#(input)}"#
}

let textBlock = #"{"type":"text","text":"Done."}"#

/// The answers of a round in which the model calls tool `name` once, then
/// of the text that ends the turn.
func oneCallThenText(_ name: String, id: String = "toolu_1", input: String = "{}") -> [[String: Any]] {
    [response([toolUse(id, name, input)], stop: "tool_use"), response([textBlock], stop: "end_turn")]
}

/// The content of the last message of a request body (the tool results of a round).
func lastResults(_ body: JSONValue) -> [JSONValue] {
    Array(body["messages"]?.arrayValue?.last?["content"]?.arrayValue ?? JSONArray())
}
