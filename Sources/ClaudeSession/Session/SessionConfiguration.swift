public import ClaudeTransport
public import IncrementalJSON

/// How a ``ClaudeSession`` asks: the request fields every turn shares, and
/// the limit on its tool loop.
public struct SessionConfiguration: Sendable {
    /// Most requests one `respond` call makes (tool rounds and `pause_turn`
    /// continuations included); more ends with ``SessionError/Kind/turnLimitReached(turns:pendingCalls:)``.
    public var maxTurns: Int
    public var maxTokens: Int
    public var effort: EffortLevel?
    public var adaptiveThinking: Bool
    public var thinkingBudget: Int?
    public var toolChoice: ToolChoice?
    public var serverTools: [ServerTool]
    /// Tools given as API JSON (versioned tool types), sent after the client tools.
    public var additionalTools: [ToolDefinition]
    public var stopSequences: [String]
    /// Automatic prompt caching (a top-level `cache_control`).
    public var cacheControl: CacheControl?
    public var fallbacks: FallbackChain
    public var betas: [String]
    public var metadataUserID: String?

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

/// A type the model can answer in: its JSON Schema, and the partial form
/// (every property optional) that decodes while the answer streams.
public protocol StructuredResponse: Decodable, Sendable {
    associatedtype Partial: Decodable & Sendable
    /// The JSON Schema sent as `output_config.format`.
    static var outputSchema: JSONValue { get }
}
