import ClaudeStreaming
public import IncrementalJSON

// What the caller wants from one streamed Messages API call. This is a plain
// description; `RequestEncoder` turns it into headers and a body, checking it
// against the capabilities of every model in the chain first.

/// One Messages API request.
public struct MessageRequest: Sendable {
    /// The model asked first.
    public var model: ClaudeModel
    /// The conversation so far, oldest first; the last turn is normally the user's.
    public var messages: [ConversationTurn]
    /// The system prompt.
    public var system: String?
    /// The system prompt as blocks (each may carry a cache breakpoint); when
    /// not empty it is sent instead of ``system``.
    public var systemBlocks: [SystemBlock]
    /// The most tokens the answer may have (`max_tokens`).
    public var maxTokens: Int
    /// Sampling temperature; refused for a model that does not accept it.
    public var temperature: Double?
    /// Nucleus sampling (`top_p`); refused for a model that does not accept it.
    public var topP: Double?
    /// Top-k sampling (`top_k`); refused for a model that does not accept it.
    public var topK: Int?
    /// A fixed effort. Refused up front when a model in the chain lacks it
    /// (fallbacks get the closest level they accept); wins over ``reasoningHint``.
    public var effort: EffortLevel?
    /// A soft wish for effort; dropped for a model that lacks the level.
    public var reasoningHint: ReasoningHint?
    /// Ask for `thinking: {"type": "adaptive"}`; refused for a model without it.
    public var adaptiveThinking: Bool
    /// A JSON Schema the answer must follow (`output_config.format`).
    public var outputSchema: JSONValue?
    /// The server tools, sent after ``tools`` in `tools`.
    public var serverTools: [ServerTool]
    /// Client tools and tools given as API JSON, sent first in `tools`, in order.
    public var tools: [ToolDefinition]
    /// How the model may use the tools (`tool_choice`); nil leaves the API's default.
    public var toolChoice: ToolChoice?
    /// Texts that end the answer where they appear (`stop_sequences`).
    public var stopSequences: [String]
    /// An opaque identifier of the end user (`metadata.user_id`).
    public var metadataUserID: String?
    /// Manual extended thinking (`thinking: {type: "enabled", budget_tokens}`),
    /// for models without adaptive thinking; refused for a model that lacks it.
    public var thinkingBudget: Int?
    /// Automatic prompt caching: a top-level `cache_control`.
    public var cacheControl: CacheControl?
    /// The models tried after ``model`` declines.
    public var fallbacks: FallbackChain
    /// Extra `anthropic-beta` values; the ones a feature needs are added by the encoder.
    public var betas: [String]
    /// Sent as `anthropic-user-profile-id` with the `user-profiles-2026-08-18` beta.
    public var userProfileID: String?
    /// Top-level body fields this type does not model (new API fields, or
    /// known ones in a shape the typed fields cannot hold), sent as given
    /// after the typed ones. A key a typed field writes is sent once, typed.
    /// ``init(apiJSON:resolveModel:)`` puts here whatever it cannot type
    /// without loss; nothing here is checked against capabilities.
    public var additionalFields: JSONObject

    /// `max_tokens` when none is given: the one place this default is written.
    public static let defaultMaxTokens = 4096

    /// A request to `model` with `messages`; every other field is optional and
    /// sent only when set. See each property for what it means and when the
    /// encoder refuses it.
    public init(
        model: ClaudeModel,
        messages: [ConversationTurn],
        system: String? = nil,
        maxTokens: Int = MessageRequest.defaultMaxTokens,
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
        systemBlocks: [SystemBlock] = [],
        additionalFields: JSONObject = JSONObject()
    ) {
        self.model = model
        self.messages = messages
        self.system = system
        self.systemBlocks = systemBlocks
        self.tools = tools
        self.toolChoice = toolChoice
        self.stopSequences = stopSequences
        self.metadataUserID = metadataUserID
        self.thinkingBudget = thinkingBudget
        self.cacheControl = cacheControl
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.effort = effort
        self.reasoningHint = reasoningHint
        self.adaptiveThinking = adaptiveThinking
        self.outputSchema = outputSchema
        self.serverTools = serverTools
        self.fallbacks = fallbacks
        self.betas = betas
        self.userProfileID = userProfileID
        self.additionalFields = additionalFields
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
}
