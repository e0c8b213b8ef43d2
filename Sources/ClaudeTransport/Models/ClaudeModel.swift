// Model identifiers as values that carry their capabilities, so the request
// encoder can decide field by field what to send without a table lookup at
// encode time and without guessing for custom identifiers.
//
// The compiled-in constants follow platform.claude.com/docs (models overview
// and the effort page, late 2026). Where the docs do not say, the capability
// is an assumption and marked so below; a caller who knows better builds a
// `ClaudeModel(id:capabilities:)` or asks the Models API
// (`ModelCatalog.capabilities(of:)`).

/// A model identifier and what requests to it may contain.
public struct ClaudeModel: Hashable, Sendable, CustomStringConvertible {
    /// The identifier sent as `model` (or `fallbacks[i].model`).
    public var id: String
    /// The request features the model accepts; the encoder checks every request against them.
    public var capabilities: ModelCapabilities

    /// A custom identifier (a dated snapshot, a relay alias, a new model)
    /// with explicitly declared capabilities.
    public init(id: String, capabilities: ModelCapabilities) {
        self.id = id
        self.capabilities = capabilities
    }

    public var description: String { id }

    private static let allServerTools = Set(ServerToolKind.allCases)

    // MARK: Current public models

    /// Claude Fable 5: adaptive thinking always on, all five effort levels.
    /// Sampling parameters: assumed rejected, like every model since Opus 4.7.
    public static let fable5 = ClaudeModel(
        id: "claude-fable-5",
        capabilities: .init(
            effortLevels: EffortLevel.ordered, adaptiveThinking: true,
            structuredOutput: true, imageInput: true, serverTools: allServerTools))

    /// Claude Opus 5: adaptive thinking, all five effort levels.
    /// Sampling parameters: assumed rejected (as on Opus 4.7 and later).
    public static let opus5 = ClaudeModel(
        id: "claude-opus-5",
        capabilities: .init(
            effortLevels: EffortLevel.ordered, adaptiveThinking: true,
            structuredOutput: true, imageInput: true, serverTools: allServerTools))

    /// Claude Sonnet 5: adaptive thinking, all five effort levels.
    /// Sampling parameters: assumed rejected (as on Opus 4.7 and later).
    public static let sonnet5 = ClaudeModel(
        id: "claude-sonnet-5",
        capabilities: .init(
            effortLevels: EffortLevel.ordered, adaptiveThinking: true,
            structuredOutput: true, imageInput: true, serverTools: allServerTools))

    /// Claude Opus 4.8: all five effort levels, no sampling parameters (assumed, as 4.7).
    public static let opus4_8 = ClaudeModel(
        id: "claude-opus-4-8",
        capabilities: .init(
            effortLevels: EffortLevel.ordered, adaptiveThinking: true,
            structuredOutput: true, imageInput: true, serverTools: allServerTools))

    /// Claude Opus 4.7: all five effort levels; rejects temperature/top_p/top_k (documented).
    public static let opus4_7 = ClaudeModel(
        id: "claude-opus-4-7",
        capabilities: .init(
            effortLevels: EffortLevel.ordered, adaptiveThinking: true,
            structuredOutput: true, imageInput: true, serverTools: allServerTools))

    /// Claude Opus 4.6: effort without `xhigh` (it predates it); sampling accepted.
    public static let opus4_6 = ClaudeModel(
        id: "claude-opus-4-6",
        capabilities: .init(
            sampling: Set(SamplingParameter.allCases), effortLevels: [.low, .medium, .high, .max],
            adaptiveThinking: true, structuredOutput: true, imageInput: true, serverTools: allServerTools,
            manualThinking: true))

    /// Claude Sonnet 4.6: effort without `xhigh`; sampling accepted.
    public static let sonnet4_6 = ClaudeModel(
        id: "claude-sonnet-4-6",
        capabilities: .init(
            sampling: Set(SamplingParameter.allCases), effortLevels: [.low, .medium, .high, .max],
            adaptiveThinking: true, structuredOutput: true, imageInput: true, serverTools: allServerTools,
            manualThinking: true))

    /// Claude Haiku 4.5: no effort parameter, extended (not adaptive) thinking;
    /// sampling accepted.
    public static let haiku4_5 = ClaudeModel(
        id: "claude-haiku-4-5",
        capabilities: .init(
            sampling: Set(SamplingParameter.allCases), effortLevels: [], adaptiveThinking: false,
            structuredOutput: true, imageInput: true, serverTools: allServerTools, manualThinking: true))

    /// The compiled-in models, newest first.
    public static let known: [ClaudeModel] = [
        .fable5, .opus5, .sonnet5, .opus4_8, .opus4_7, .opus4_6, .sonnet4_6, .haiku4_5,
    ]

    /// The compiled-in model with this identifier (aliases and dated
    /// snapshots such as `claude-haiku-4-5-20251001` resolve by prefix).
    ///
    /// - Complexity: O(k) in the number of known models.
    public static func known(id: String) -> ClaudeModel? {
        if let exact = known.first(where: { $0.id == id }) { return exact }
        guard let base = known.first(where: { id.hasPrefix($0.id + "-2") }) else { return nil }
        return ClaudeModel(id: id, capabilities: base.capabilities)
    }

    /// The server's own choice of fallback, sent as `"default"`. Its
    /// capabilities are unknown, so it is assumed to accept only what every
    /// current model accepts: images and structured output, no sampling
    /// parameters, and no per-fallback effort.
    public static let serverDefault = ClaudeModel(
        id: "default",
        capabilities: .init(
            structuredOutput: true, imageInput: true, serverTools: allServerTools))
}
