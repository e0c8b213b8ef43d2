/// A request that cannot be sent as asked: found by the encoder before any
/// network traffic, because the API would answer it with a 400.
public enum RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A fixed effort level a model in the chain does not accept.
    case unsupportedEffort(EffortLevel, model: String)
    /// A feature (structured output, image input, a sampling parameter, a
    /// server tool, adaptive thinking) some model in the chain lacks.
    case unsupportedFeature(String, model: String)
    /// More than ``FallbackChain/limit`` fallback models.
    case tooManyFallbacks(Int)
    /// Both allowed and blocked domains on one web tool.
    case conflictingDomainFilters(ServerToolKind)
    /// The request has no messages.
    case noMessages
    /// `max_tokens` is 0 or negative.
    case invalidMaxTokens(Int)
    /// `budget_tokens` below ``RequestEncoder/minimumThinkingBudget`` or not below `max_tokens`.
    case invalidThinkingBudget(Int, maxTokens: Int)
    /// Adaptive and manual thinking asked for together.
    case conflictingThinking
    /// Two tools with one name.
    case duplicateToolName(String)
    /// `tool_choice` names a tool the request does not declare (`declared`: the names it does).
    case undeclaredToolChoice(String, declared: [String])
    /// A `tool_result` in user turn `turn` (index in `messages`) answers no
    /// `tool_use` of the assistant turn just before it.
    case orphanToolResult(toolUseID: String, turn: Int)
    /// A `tool_use` of assistant turn `turn` gets no `tool_result` in the user turn after it.
    case unansweredToolUse(toolUseID: String, turn: Int)
    /// User turn `turn` puts other content before a `tool_result` (results come first).
    case toolResultAfterContent(turn: Int)
    /// A Bedrock or Vertex endpoint that cannot form a URL (region, project).
    case invalidEndpoint(String)

    public var description: String {
        switch self {
        case .unsupportedEffort(let level, let model):
            "model \(model) does not accept effort level '\(level.name)'"
        case .unsupportedFeature(let feature, let model):
            "model \(model) does not accept \(feature)"
        case .tooManyFallbacks(let count):
            "\(count) fallback models given; at most \(FallbackChain.limit) are allowed"
        case .conflictingDomainFilters(let tool):
            "\(tool.rawValue): allowed and blocked domains cannot both be set"
        case .noMessages:
            "a request needs at least one message"
        case .invalidMaxTokens(let value):
            "max_tokens must be positive, got \(value)"
        case .invalidThinkingBudget(let budget, let maxTokens):
            "thinking budget_tokens must be at least \(RequestEncoder.minimumThinkingBudget) and below max_tokens (\(maxTokens)), got \(budget)"
        case .conflictingThinking:
            "adaptive thinking and a manual thinking budget cannot both be set"
        case .duplicateToolName(let name):
            "two tools are named '\(name)'"
        case .undeclaredToolChoice(let name, let declared):
            "tool_choice names '\(name)', which is not among the request's tools"
                + (declared.isEmpty ? " (it declares none)" : " (\(declared.joined(separator: ", ")))")
        case .orphanToolResult(let id, let turn):
            "messages[\(turn)]: the tool_result for '\(id)' answers no tool_use of the assistant turn before it"
        case .unansweredToolUse(let id, let turn):
            "messages[\(turn)]: the tool_use '\(id)' has no tool_result in the next user turn"
        case .toolResultAfterContent(let turn):
            "messages[\(turn)]: tool_result blocks must come before any other content of the turn"
        case .invalidEndpoint(let what):
            "invalid endpoint: \(what)"
        }
    }
}
