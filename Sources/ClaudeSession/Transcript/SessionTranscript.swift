public import ClaudeStreaming
public import ClaudeTransport
import IncrementalJSON

// The conversation as a list of entries, oldest first: what the user said,
// what the model answered, which client tools it called and what they gave
// back. The next request's `messages` are built from it: prompts and tool
// outputs become user turns (consecutive ones merge, tool results first, as
// the API requires), each response becomes an assistant turn made of its
// content bytes as received. Codable, so a saved conversation sends the same
// bytes after a restart.

/// The entries of a conversation.
public struct SessionTranscript: Sendable, Hashable, Codable {
    /// One thing that happened in the conversation.
    public enum Entry: Sendable, Hashable, Codable {
        /// The user's turn (text, images, documents, …).
        case prompt([TurnContent])
        /// A response of the model.
        case response(ResponseEntry)
        /// A client tool call of the response before it.
        case toolCall(ToolCallEntry)
        /// What a called tool gave back (sent in the next user turn).
        case toolOutput(ToolResult)
    }

    /// The entries, oldest first.
    public var entries: [Entry]

    /// A transcript of `entries` (empty: a new conversation).
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The responses, in order.
    public var responses: [ResponseEntry] {
        entries.compactMap { if case .response(let r) = $0 { r } else { nil } }
    }

    /// The `messages` of the next request.
    ///
    /// - Complexity: O(entries); response content is shared, not copied or re-encoded.
    public var messages: [ConversationTurn] {
        var turns: [ConversationTurn] = []
        var user: [TurnContent] = []
        func flushUser() {
            if !user.isEmpty { turns.append(ConversationTurn(role: .user, content: user)) }
            user.removeAll()
        }
        for entry in entries {
            switch entry {
            case .prompt(let content): user.append(contentsOf: content)
            case .toolOutput(let result): user.append(.toolResult(result))
            case .toolCall: break  // inside its response's content
            case .response(let response):
                flushUser()
                turns.append(ConversationTurn(role: .assistant, content: [.encodedBlocks(response.content)]))
            }
        }
        flushUser()
        return turns
    }

    /// Tool calls of the last response that have no output yet (a turn
    /// limit or a cancellation stopped the loop before they ran).
    public var pendingToolCalls: [ToolCallEntry] {
        var calls: [ToolCallEntry] = []
        var answered = Set<String>()
        for entry in entries.reversed() {
            switch entry {
            case .toolOutput(let result): answered.insert(result.toolUseID)
            case .toolCall(let call): if !answered.contains(call.id) { calls.append(call) }
            case .response: return calls.reversed()
            case .prompt: return []
            }
        }
        return calls.reversed()
    }

    /// Usage summed per model that served a response.
    public var usageByModel: [String: TokenUsage] {
        var totals: [String: TokenUsage] = [:]
        for response in responses { totals[response.model, default: TokenUsage()] = totals[response.model, default: TokenUsage()] + response.tokenCounts }
        return totals
    }

    /// Usage summed over every response.
    public var totalUsage: TokenUsage { responses.reduce(TokenUsage()) { $0 + $1.tokenCounts } }

    /// Server tool activities of the whole conversation, each paired with
    /// its result from whichever response carried it.
    ///
    /// - Complexity: O(size of the responses): each is parsed again.
    public var serverToolLedger: ServerToolLedger {
        var ledger = ServerToolLedger()
        for response in responses { ledger.record(response.snapshot) }
        return ledger
    }
}
