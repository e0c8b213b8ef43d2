public import ClaudeStreaming
public import ClaudeTransport
import IncrementalJSON

// The conversation: its setup (the request every turn shares: model,
// system, tools, …) and its entries, oldest first: what the user said, what
// the model answered, and what the called tools gave back. A tool call is
// stored once, inside the response that made it; `toolCalls` and
// `pendingToolCalls` are read from there. The next request's `messages` are
// built from the entries: prompts and tool outputs become user turns
// (consecutive ones merge, in entry order), each response an assistant turn
// made of its content bytes as received.
//
// Saved, the transcript is the API's own JSON (SessionTranscript+JSON.swift):
// a request body, plus one key for what the API has no field for.

/// A conversation: its setup and its entries.
public struct SessionTranscript: Sendable, Hashable {
    /// One thing that happened in the conversation.
    public enum Entry: Sendable, Hashable {
        /// User content: a prompt (text, images, documents, any block).
        case prompt([TurnContent])
        /// An assistant turn: a response of the model, or one read from a saved body.
        case response(ResponseEntry)
        /// What a called tool gave back (sent at the start of the next user turn).
        case toolOutput(ToolResult)
    }

    /// The request every turn shares: model, `max_tokens`, system, tools,
    /// tool choice, and any field the API takes (`RequestSetup.additionalFields`).
    /// The entries are the conversation.
    public var setup: RequestSetup

    /// The entries, oldest first. Changed only through the `append` methods,
    /// which keep every tool output answering a call of the response before it.
    public internal(set) var entries: [Entry]

    /// An empty conversation with `setup` (to continue a request's
    /// messages, see ``init(request:)``).
    public init(setup: RequestSetup) {
        self.setup = setup
        entries = []
    }

    /// The conversation a request holds: its fields become the setup, its
    /// messages the entries (assistant turns as responses, kept byte for
    /// byte; tool results as tool outputs; everything else as prompts), so a
    /// body built by curl or an SDK continues here.
    ///
    /// - Throws: ``TranscriptError`` when the messages break the API's tool
    ///   rules (the turn is named), as the request would be refused anyway.
    public init(request: MessageRequest) throws(TranscriptError) {
        self.init(setup: request.setup)
        for turn in request.messages {
            switch turn.role {
            case .assistant:
                entries.append(.response(ResponseEntry(content: Self.assistantContent(of: turn))))
            case .user:
                var parts: [TurnContent] = []
                for (index, part) in turn.content.enumerated() {
                    var part = part
                    if let cache = turn.cacheControl, index == turn.content.count - 1, let last = part.apiBlocks.last {
                        // The breakpoint of a typed turn lives on its last block here.
                        parts.append(contentsOf: part.apiBlocks.dropLast().map(TurnContent.block))
                        part = .block(last.replacingFields([("cache_control", cache.json)]))
                    }
                    if case .toolResult(let result) = part {
                        if !parts.isEmpty { entries.append(.prompt(parts)) }
                        parts = []
                        entries.append(.toolOutput(result))
                    } else {
                        parts.append(part)
                    }
                }
                if !parts.isEmpty || turn.content.isEmpty { entries.append(.prompt(parts)) }
            }
        }
        do throws(RequestError) { try RequestEncoder.checkToolRules(messages) } catch {
            throw TranscriptError(.breaksToolRules(error))
        }
    }

    /// An assistant turn's content as one JSON array (a replayed array as its bytes).
    static func assistantContent(of turn: ConversationTurn) -> RawJSON {
        if turn.content.count == 1, case .raw(let raw) = turn.content[0], raw.shape != .object { return raw }
        return RawJSON(.array(turn.content.flatMap(\.apiBlocks)))
    }

    // MARK: Changing the conversation

    /// Adds user content (the next request's last user turn grows by it).
    public mutating func appendPrompt(_ content: [TurnContent]) {
        entries.append(.prompt(content))
    }

    /// Adds an assistant turn.
    public mutating func appendResponse(_ response: ResponseEntry) {
        entries.append(.response(response))
    }

    /// Adds the outputs of tool calls, each answering a call of the last
    /// response that has no output yet.
    ///
    /// - Throws: ``TranscriptError`` (``TranscriptError/Kind/breaksToolRules(_:)``)
    ///   for an output that answers no pending call; nothing is added then.
    public mutating func appendToolOutputs(_ outputs: [ToolResult]) throws(TranscriptError) {
        var open = Set(pendingToolCalls.map(\.id))
        for output in outputs {
            guard open.remove(output.toolUseID) != nil else {
                throw TranscriptError(.breaksToolRules(.orphanToolResult(toolUseID: output.toolUseID, turn: messages.count)))
            }
        }
        entries.append(contentsOf: outputs.map(Entry.toolOutput))
    }

    // MARK: Reading it

    /// The responses (assistant turns), in order; response `r` is round `r`.
    public var responses: [ResponseEntry] {
        entries.compactMap { if case .response(let r) = $0 { r } else { nil } }
    }

    /// Every client tool call, in order (read from the responses' content).
    ///
    /// - Complexity: O(size of the responses) for restored ones (a parse each).
    public var toolCalls: [ToolCallEntry] { responses.flatMap(\.toolCalls) }

    /// The `messages` of the next request.
    ///
    /// - Complexity: O(entries); response content is shared, not copied or re-encoded.
    public var messages: [ConversationTurn] {
        var turns: [ConversationTurn] = []
        var user: [TurnContent] = []
        var inUserTurn = false
        func flushUser() {
            if inUserTurn { turns.append(ConversationTurn(role: .user, content: user)) }
            user.removeAll()
            inUserTurn = false
        }
        for entry in entries {
            switch entry {
            case .prompt(let content):
                user.append(contentsOf: content)
                inUserTurn = true
            case .toolOutput(let result):
                user.append(.toolResult(result))
                inUserTurn = true
            case .response(let response):
                flushUser()
                turns.append(ConversationTurn(role: .assistant, content: [.raw(response.content)]))
            }
        }
        flushUser()
        return turns
    }

    /// The request with `messages` from the entries (and nothing checked).
    public var request: MessageRequest { MessageRequest(setup: setup, messages: messages) }

    /// Client tool calls of the last response that have no output yet: a
    /// turn limit, a cancellation or the caller stopped before they ran.
    /// Empty once a prompt follows the response.
    public var pendingToolCalls: [ToolCallEntry] {
        var answered = Set<String>()
        for entry in entries.reversed() {
            switch entry {
            case .toolOutput(let result): answered.insert(result.toolUseID)
            case .response(let response): return response.toolCalls.filter { !answered.contains($0.id) }
            case .prompt: return []
            }
        }
        return []
    }

    /// Usage summed per model that served a response (responses read from a
    /// body without metadata count nothing).
    public var usageByModel: [String: TokenUsage] {
        var totals: [String: TokenUsage] = [:]
        for response in responses where !response.model.isEmpty {
            totals[response.model, default: TokenUsage()] = totals[response.model, default: TokenUsage()] + response.tokenCounts
        }
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

    /// Equal when both write the same file (``jsonBytes()``): a transcript
    /// read back equals the one written, however its parts were typed.
    ///
    /// - Complexity: O(size of both).
    public static func == (lhs: SessionTranscript, rhs: SessionTranscript) -> Bool {
        let left = MessageRequest(setup: lhs.setup, messages: [])
        let right = MessageRequest(setup: rhs.setup, messages: [])
        if lhs.entries == rhs.entries, lhs.setup.model == rhs.setup.model,
            (try? left.apiJSONBytes()) == (try? right.apiJSONBytes()),
            lhs.setup.betas == rhs.setup.betas, lhs.setup.userProfileID == rhs.setup.userProfileID
        {
            return true
        }
        guard let left = try? lhs.jsonBytes(), let right = try? rhs.jsonBytes() else { return false }
        return left == right
    }

    public func hash(into hasher: inout Hasher) {
        // What both sides of an equality agree on however the parts are typed.
        hasher.combine(setup.model.id)
        hasher.combine(responses.map(\.content))
    }
}
