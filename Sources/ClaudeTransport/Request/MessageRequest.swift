import ClaudeStreaming
public import IncrementalJSON

// What the caller wants from one streamed Messages API call: a setup
// (RequestSetup.swift) and the messages, the turns and their content.

/// One Messages API request: a setup and the conversation so far. Every
/// field of the setup reads and writes through the request as well
/// (`request.model`, `request.tools`).
@dynamicMemberLookup
public struct MessageRequest: Sendable {
    /// The model and every option.
    public var setup: RequestSetup
    /// The conversation so far, oldest first; the last turn is normally the user's.
    public var messages: [ConversationTurn]

    /// `setup` with `messages`.
    public init(setup: RequestSetup, messages: [ConversationTurn]) {
        self.setup = setup
        self.messages = messages
    }

    /// A request to `model` with `messages`; the other parameters are
    /// ``RequestSetup``'s, each optional and sent only when set.
    public init(
        model: ClaudeModel,
        messages: [ConversationTurn],
        system: SystemPrompt? = nil,
        maxTokens: Int = RequestSetup.defaultMaxTokens,
        temperature: Double? = nil,
        topP: Double? = nil,
        topK: Int? = nil,
        effort: EffortLevel? = nil,
        reasoningHint: ReasoningHint? = nil,
        adaptiveThinking: Bool = false,
        outputSchema: JSONValue? = nil,
        serverTools: [ServerTool] = [],
        fallbacks: FallbackChain = .none,
        betas: [String] = [],
        userProfileID: String? = nil,
        tools: [ToolDefinition] = [],
        toolChoice: ToolChoice? = nil,
        stopSequences: [String] = [],
        metadataUserID: String? = nil,
        thinkingBudget: Int? = nil,
        cacheControl: CacheControl? = nil,
        additionalFields: JSONObject = JSONObject()
    ) {
        self.init(
            setup: RequestSetup(
                model: model, system: system, maxTokens: maxTokens, temperature: temperature, topP: topP, topK: topK,
                effort: effort, reasoningHint: reasoningHint, adaptiveThinking: adaptiveThinking, outputSchema: outputSchema,
                serverTools: serverTools, fallbacks: fallbacks, betas: betas, userProfileID: userProfileID, tools: tools,
                toolChoice: toolChoice, stopSequences: stopSequences, metadataUserID: metadataUserID,
                thinkingBudget: thinkingBudget, cacheControl: cacheControl, additionalFields: additionalFields),
            messages: messages)
    }

    /// A field of the setup, read or written through the request.
    public subscript<Value>(dynamicMember field: WritableKeyPath<RequestSetup, Value>) -> Value {
        get { setup[keyPath: field] }
        set { setup[keyPath: field] = newValue }
    }
}

/// Models the server may hand the request to when the first declines
/// (`fallbacks`, beta `server-side-fallback-2026-07-01`).
public enum FallbackChain: Sendable, Hashable {
    /// No fallbacks: a model that declines ends the request.
    case none
    /// Up to three models, tried in order.
    case models([ClaudeModel])
    /// The server's own choice (``ClaudeModel/serverDefault``).
    case serverDefault

    /// The most fallback models a request may name.
    public static let limit = 3

    var models: [ClaudeModel] {
        switch self {
        case .none: []
        case .models(let models): models
        case .serverDefault: [.serverDefault]
        }
    }
}

/// One message of the conversation.
public struct ConversationTurn: Sendable, Hashable {
    /// Who speaks the turn (`role`).
    public enum Role: String, Sendable, Hashable, Codable {
        /// The caller: prompts and tool results.
        case user
        /// The model: its earlier responses.
        case assistant
    }

    /// Who speaks the turn.
    public var role: Role
    /// The turn's content, in order.
    public var content: [TurnContent]
    /// A cache breakpoint on the turn's last content block.
    public var cacheControl: CacheControl?

    /// A turn of `role` with `content`, optionally ending in a cache breakpoint.
    public init(role: Role, content: [TurnContent], cacheControl: CacheControl? = nil) {
        self.role = role
        self.content = content
        self.cacheControl = cacheControl
    }

    /// A user turn of one text block.
    public static func user(_ text: String) -> ConversationTurn {
        ConversationTurn(role: .user, content: [.text(text)])
    }

    /// A user turn of the given content blocks.
    public static func user(_ content: [TurnContent]) -> ConversationTurn {
        ConversationTurn(role: .user, content: content)
    }

    /// An assistant turn of one text block (a prefill, or a response given as text).
    public static func assistant(_ text: String) -> ConversationTurn {
        ConversationTurn(role: .assistant, content: [.text(text)])
    }

    /// The assistant turn exactly as a previous response ended: its content
    /// array with every opaque field (signatures, encrypted content, unknown
    /// blocks) as received, so the API accepts the thinking it produced.
    public static func assistant(replaying snapshot: MessageSnapshot) -> ConversationTurn {
        ConversationTurn(role: .assistant, content: [.raw(RawJSON(deferred: { snapshot.contentJSON() }))])
    }

    /// A user turn answering tool calls, results in the order given.
    public static func toolResults(_ results: [ToolResult]) -> ConversationTurn {
        ConversationTurn(role: .user, content: results.map(TurnContent.toolResult))
    }
}

/// A piece of a turn's content.
public enum TurnContent: Sendable, Hashable {
    /// A `text` block.
    case text(String)
    /// Image bytes, sent base64-encoded with their media type (`image/png`, …).
    case image(bytes: [UInt8], mediaType: String)
    /// Content given as JSON, sent byte for byte: one block (a block this
    /// package does not model, or one built by hand), an array of blocks
    /// (a replayed response), or a message's whole content as a request
    /// body gave it, a string included. Alone in a turn it is the turn's
    /// `content` as it stands; beside other parts its blocks join theirs
    /// (a string as one text block).
    case raw(RawJSON)
    /// The result of a client tool call.
    case toolResult(ToolResult)
    /// A PDF or plain-text document.
    case document(Document)

    /// One content block given as JSON, sent as is (``raw(_:)``).
    public static func block(_ value: JSONValue) -> TurnContent { .raw(RawJSON(value)) }

    /// Whether an image is in this part (also inside a tool result).
    var containsImage: Bool {
        switch self {
        case .image: true
        case .toolResult(let result):
            if case .blocks(let parts) = result.content { parts.contains(where: \.containsImage) } else { false }
        default: false
        }
    }

    /// Whether a PDF document is in this part (also inside a tool result).
    var containsPDF: Bool {
        switch self {
        case .document(let document): document.isPDF
        case .toolResult(let result):
            if case .blocks(let parts) = result.content { parts.contains(where: \.containsPDF) } else { false }
        default: false
        }
    }
}

/// A server tool and its settings.
public enum ServerTool: Sendable, Hashable {
    /// `web_search` with its domain filter and use limit.
    case webSearch(WebToolSettings = .init())
    /// `web_fetch` with its domain filter and use limit.
    case webFetch(WebToolSettings = .init())
    /// `code_execution`: a sandbox container that runs code.
    case codeExecution

    /// Which tool this is, without its settings (what capabilities are checked against).
    public var kind: ServerToolKind {
        switch self {
        case .webSearch: .webSearch
        case .webFetch: .webFetch
        case .codeExecution: .codeExecution
        }
    }
}

/// Domain filter and use limit for web search and web fetch. The API takes
/// either an allow list or a block list, not both.
public struct WebToolSettings: Sendable, Hashable {
    /// Only these domains may be searched or fetched (`allowed_domains`); empty: no allow list.
    public var allowedDomains: [String]
    /// These domains may not be searched or fetched (`blocked_domains`); empty: no block list.
    public var blockedDomains: [String]
    /// Most uses of the tool in one request (`max_uses`); nil: the API's default.
    public var maxUses: Int?

    /// Settings with the given filter and limit; all empty by default.
    public init(allowedDomains: [String] = [], blockedDomains: [String] = [], maxUses: Int? = nil) {
        self.allowedDomains = allowedDomains
        self.blockedDomains = blockedDomains
        self.maxUses = maxUses
    }

    /// Both filters are set, which the API refuses.
    var conflicts: Bool { !allowedDomains.isEmpty && !blockedDomains.isEmpty }
}
