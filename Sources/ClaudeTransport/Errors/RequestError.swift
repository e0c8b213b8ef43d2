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
    case noMessages
    case invalidMaxTokens(Int)
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
        case .invalidEndpoint(let what):
            "invalid endpoint: \(what)"
        }
    }
}
