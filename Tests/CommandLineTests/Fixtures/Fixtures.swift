// Streams written for the command-line tests (not recorded: each shows one
// case the recordings do not have).

enum Fixtures {
    static func messageStart(_ id: String = "msg_fixture") -> String {
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"\(id)\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
    }

    static func event(_ json: String) -> String {
        let type = json.split(separator: "\"", maxSplits: 4).dropFirst(3).first.map(String.init) ?? "unknown"
        return "event: \(type)\ndata: \(json)\n\n"
    }

    static func start(_ index: Int, _ block: String) -> String {
        event(#"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#)
    }

    static func delta(_ index: Int, _ delta: String) -> String {
        event(#"{"type":"content_block_delta","index":\#(index),"delta":\#(delta)}"#)
    }

    static func text(_ index: Int, _ text: String) -> String { delta(index, #"{"type":"text_delta","text":"\#(text)"}"#) }

    static func input(_ index: Int, _ json: String) -> String {
        delta(index, #"{"type":"input_json_delta","partial_json":"\#(json)"}"#)
    }

    static func stop(_ index: Int) -> String { event(#"{"type":"content_block_stop","index":\#(index)}"#) }

    static func end(_ reason: String = "end_turn", details: String? = nil) -> String {
        event(#"{"type":"message_delta","delta":{"stop_reason":"\#(reason)","stop_sequence":null\#(details.map { ",\"stop_details\":" + $0 } ?? "")},"usage":{"output_tokens":20}}"#)
            + event(#"{"type":"message_stop"}"#)
    }

    /// `{"path":"notes.txt","recursive":false,"dry_run":trUE}`: invalid at byte 50.
    static let invalidToolInput = messageStart()
        + start(0, #"{"type":"tool_use","id":"toolu_bad","name":"list_files","input":{}}"#)
        + input(0, #"{\"path\":\"notes.txt\",\"recursive\":false,\"dry_run\":trUE}"#)
        + stop(0) + end("tool_use")
}
