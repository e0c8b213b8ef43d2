public import ClaudeTransport

/// How a ``ClaudeSession`` asks: the request fields every turn shares, and
/// the limit on its tool loop.
public struct SessionConfiguration: Sendable {
    /// Most requests one `respond` call makes (tool rounds and `pause_turn`
    /// continuations included); more ends with ``SessionError/Kind/turnLimitReached(turns:pendingCalls:)``.
    public var maxTurns: Int
    /// `max_tokens` of every request.
    public var maxTokens: Int
    /// A fixed effort for every request (see `MessageRequest.effort`).
    public var effort: EffortLevel?
    /// Ask for adaptive thinking on every request.
    public var adaptiveThinking: Bool
    /// Manual extended thinking's `budget_tokens`, for models without adaptive thinking.
    public var thinkingBudget: Int?
    /// How the model may use the tools; nil leaves the API's default.
    public var toolChoice: ToolChoice?
    /// Server tools offered on every request.
    public var serverTools: [ServerTool]
    /// Tools given as API JSON (versioned tool types), sent after the client tools.
    public var additionalTools: [ToolDefinition]
    /// Texts that end a response where they appear.
    public var stopSequences: [String]
    /// Automatic prompt caching (a top-level `cache_control`).
    public var cacheControl: CacheControl?
    /// The models tried after ``ClaudeSession/model`` declines.
    public var fallbacks: FallbackChain
    /// Extra `anthropic-beta` values sent with every request.
    public var betas: [String]
    /// An opaque identifier of the end user (`metadata.user_id`).
    public var metadataUserID: String?

    /// A configuration of at most `maxTurns` requests per call (10) and
    /// `maxTokens` per response (4096); every other field is off by default.
    public init(maxTurns: Int = 10, maxTokens: Int = 4096, effort: EffortLevel? = nil, adaptiveThinking: Bool = false,
                thinkingBudget: Int? = nil, toolChoice: ToolChoice? = nil, serverTools: [ServerTool] = [],
                additionalTools: [ToolDefinition] = [], stopSequences: [String] = [], cacheControl: CacheControl? = nil,
                fallbacks: FallbackChain = .none, betas: [String] = [], metadataUserID: String? = nil) {
        self.maxTurns = maxTurns
        self.maxTokens = maxTokens
        self.effort = effort
        self.adaptiveThinking = adaptiveThinking
        self.thinkingBudget = thinkingBudget
        self.toolChoice = toolChoice
        self.serverTools = serverTools
        self.additionalTools = additionalTools
        self.stopSequences = stopSequences
        self.cacheControl = cacheControl
        self.fallbacks = fallbacks
        self.betas = betas
        self.metadataUserID = metadataUserID
    }
}
