// One-line readable forms of a snapshot and its usage, for `print`, logs and
// the debugger. They say what the value holds (id, model, blocks by type,
// how much text, stop reason, token counts) without dumping the text: a
// snapshot of a long answer still prints as one short line. Nothing here
// holds a credential; the message is what the server sent back.

extension MessageSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
    /// `MessageSnapshot(msg_01, claude-opus-4-5, 3 blocks [thinking, text, tool_use], 120 chars of text, stop: tool_use, in 12 out 30 tokens, complete)`.
    ///
    /// - Complexity: O(blocks), plus the text's length to count its characters.
    public var description: String {
        var parts = [id.isEmpty ? "no id" : id, requestedModel.isEmpty ? "no model" : requestedModel]
        if model != requestedModel { parts.append("served by \(model)") }
        let types = content.prefix(8).map(\.type)
        let more = content.count > types.count ? ", …" : ""
        parts.append(
            "\(content.count) block\(content.count == 1 ? "" : "s")"
                + (types.isEmpty ? "" : " [\(types.joined(separator: ", "))\(more)]"))
        parts.append("\(text.count) chars of text")
        if let stopReason { parts.append("stop: \(stopReason)") }
        let tokens = [usage.inputTokens.map { "in \($0)" }, usage.outputTokens.map { "out \($0)" }].compactMap { $0 }
        if !tokens.isEmpty { parts.append(tokens.joined(separator: " ") + " tokens") }
        if messageIndex != 0 { parts.append("message \(messageIndex)") }
        parts.append(isComplete ? "complete" : "streaming")
        return "MessageSnapshot(\(parts.joined(separator: ", ")))"
    }

    public var debugDescription: String { description }
}

extension Usage: CustomStringConvertible, CustomDebugStringConvertible {
    /// `Usage(input_tokens: 12, output_tokens: 30, server_tool_use: {"web_search_requests":1})`.
    public var description: String {
        "Usage(" + fields.map { "\($0.key): \($0.value.compactJSON)" }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }
}
