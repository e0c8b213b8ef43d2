public import IncrementalJSON

// What a request asks for besides its messages. A session keeps one (its
// template: the same model, system, tools and options for every request of
// the conversation) and supplies the messages; a MessageRequest is one with
// messages. This is a plain description: `RequestEncoder` turns it into
// headers and a body, checking it against the capabilities of every model
// in the chain first.

/// Everything of a request but its messages: the model and every option.
/// A session's template (every request of a conversation shares it, the
/// session supplies the messages), and a part of each ``MessageRequest``.
public struct RequestSetup: Sendable {
    /// The model asked first.
    public var model: ClaudeModel
    /// The system prompt: text, or blocks that may carry cache breakpoints.
    public var system: SystemPrompt?
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
    /// ``MessageRequest/init(apiJSON:resolveModel:)`` puts here whatever it cannot type
    /// without loss; nothing here is checked against capabilities.
    public var additionalFields: JSONObject

    /// `max_tokens` when none is given: the one place this default is written.
    public static let defaultMaxTokens = 4096

    /// A setup for `model`; every other field is optional and sent only when
    /// set. See each property for what it means and when the encoder refuses it.
    public init(
        model: ClaudeModel,
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
        self.model = model
        self.system = system
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

/// A system prompt: plain text, or blocks (each may end in a cache breakpoint).
public enum SystemPrompt: Sendable, Hashable, ExpressibleByStringLiteral {
    /// `system: "TEXT"`.
    case text(String)
    /// `system: [{type: "text", text, cache_control?}, …]`.
    case blocks([SystemBlock])

    /// A plain-text prompt.
    public init(stringLiteral text: String) { self = .text(text) }

    /// The prompt's text: the text, or the blocks' texts joined by blank lines.
    public var text: String {
        switch self {
        case .text(let text): text
        case .blocks(let blocks): blocks.map(\.text).joined(separator: "\n\n")
        }
    }
}
