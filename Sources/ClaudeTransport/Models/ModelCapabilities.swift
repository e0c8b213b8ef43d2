// What a model accepts in a request. The encoder consults this before it
// writes a field: the API answers a field a model rejects with a 400, so a
// field is either sent to a model that declared it or dropped/refused here,
// before any network traffic.

/// A sampling parameter some models accept and newer ones reject.
public enum SamplingParameter: String, Hashable, Sendable, CaseIterable {
    /// `temperature`.
    case temperature
    /// `top_p`.
    case topP = "top_p"
    /// `top_k`.
    case topK = "top_k"
}

/// A server-side tool the API runs on the model's behalf.
public enum ServerToolKind: String, Hashable, Sendable, CaseIterable {
    /// `web_search`: the API searches the web.
    case webSearch = "web_search"
    /// `web_fetch`: the API fetches a URL.
    case webFetch = "web_fetch"
    /// `code_execution`: the API runs code in a sandbox container.
    case codeExecution = "code_execution"
}

/// The request features a model accepts.
public struct ModelCapabilities: Hashable, Sendable {
    /// Sampling parameters the model accepts (empty: none may be sent).
    public var sampling: Set<SamplingParameter>
    /// Effort levels the model accepts (empty: `output_config.effort` is never sent).
    public var effortLevels: [EffortLevel]
    /// Whether `thinking: {"type": "adaptive"}` is accepted.
    public var adaptiveThinking: Bool
    /// Whether `output_config.format` (JSON schema output) is accepted.
    public var structuredOutput: Bool
    /// Whether image content blocks are accepted.
    public var imageInput: Bool
    /// Server tools the model can use.
    public var serverTools: Set<ServerToolKind>
    /// Whether manual extended thinking (`thinking: {type: "enabled", budget_tokens}`) is accepted.
    public var manualThinking: Bool
    /// Whether PDF `document` blocks are accepted (plain-text documents always are).
    public var pdfInput: Bool

    /// Capabilities as declared; everything is off by default. `pdfInput`
    /// defaults to `imageInput`, since a model that reads images reads PDFs
    /// (as page images).
    public init(
        sampling: Set<SamplingParameter> = [],
        effortLevels: [EffortLevel] = [],
        adaptiveThinking: Bool = false,
        structuredOutput: Bool = false,
        imageInput: Bool = false,
        serverTools: Set<ServerToolKind> = [],
        manualThinking: Bool = false,
        pdfInput: Bool? = nil
    ) {
        self.manualThinking = manualThinking
        // Every model that reads images reads PDFs (they arrive as page images).
        self.pdfInput = pdfInput ?? imageInput
        self.sampling = sampling
        self.effortLevels = effortLevels
        self.adaptiveThinking = adaptiveThinking
        self.structuredOutput = structuredOutput
        self.imageInput = imageInput
        self.serverTools = serverTools
    }

    /// Nothing beyond plain text messages: the safe assumption for an unknown model.
    public static let minimal = ModelCapabilities()

    /// Everything, all five effort levels: for tests and relays that accept any field.
    public static let all = ModelCapabilities(
        sampling: Set(SamplingParameter.allCases), effortLevels: EffortLevel.ordered,
        adaptiveThinking: true, structuredOutput: true, imageInput: true,
        serverTools: Set(ServerToolKind.allCases), manualThinking: true)

    /// Whether the model declares this effort level.
    func accepts(_ level: EffortLevel) -> Bool { effortLevels.contains(level) }
}
