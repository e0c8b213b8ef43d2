// The API's rules for tool calls in `messages`, checked before any traffic
// so a conversation that breaks them is refused with the turn that does,
// not sent for a 400: every `tool_result` answers a `tool_use` of the
// assistant turn just before it, results come first in their turn, and a
// `tool_use` followed by a user turn is answered in that turn. (An assistant
// turn that ends the messages may hold calls: a caller inspecting a
// conversation that stopped at them.)

extension TurnContent {
    /// The tool blocks of this part.
    var toolRuleBlocks: [ToolRuleBlock] {
        switch self {
        case .toolResult(let result): [.result(result.toolUseID)]
        case .raw(let raw): raw.toolRuleBlocks
        case .text, .image, .document: [.other]
        }
    }
}

extension RequestEncoder {
    /// Checks `turns` against the API's tool rules (see the top of this file);
    /// ``validate(_:)`` and ``encode(_:)`` do this for every request.
    ///
    /// - Throws: ``RequestError/orphanToolResult(toolUseID:turn:)``,
    ///   ``RequestError/unansweredToolUse(toolUseID:turn:)`` or
    ///   ``RequestError/toolResultAfterContent(turn:)``, naming the turn.
    /// - Complexity: O(blocks); replayed responses are scanned once per response.
    public static func checkToolRules(_ turns: [ConversationTurn]) throws(RequestError) {
        var open: [String] = []  // calls of the assistant turn just before, in order
        var openIDs = Set<String>()  // the same, for lookups in O(1): a turn may hold thousands
        var openTurn = -1
        for (index, turn) in turns.enumerated() {
            let blocks = turn.content.flatMap(\.toolRuleBlocks)
            switch turn.role {
            case .assistant:
                if let first = open.first { throw .unansweredToolUse(toolUseID: first, turn: openTurn) }
                open = blocks.compactMap { if case .call(let id) = $0 { id } else { nil } }
                openIDs = Set(open)
                openTurn = index
            case .user:
                var answered = Set<String>()
                var sawOther = false
                for block in blocks {
                    switch block {
                    case .result(let id):
                        guard openIDs.contains(id), !answered.contains(id) else { throw .orphanToolResult(toolUseID: id, turn: index) }
                        if sawOther { throw .toolResultAfterContent(turn: index) }
                        answered.insert(id)
                    case .call, .other:
                        sawOther = true
                    }
                }
                if let missing = open.first(where: { !answered.contains($0) }) {
                    throw .unansweredToolUse(toolUseID: missing, turn: openTurn)
                }
                open = []
                openIDs = []
            }
        }
    }
}
