public import ClaudeStreaming
public import ClaudeTransport
public import IncrementalJSON

// One response as the transcript keeps it: the content array as compact
// bytes (sent back byte for byte: signatures, encrypted content, `caller`,
// unknown blocks), plus what a reader of the conversation wants without
// parsing it: the segments in content order, handovers, the model that
// served, and usage. The client tool calls are read from the content, so
// they are stored once.

/// A finished response of the model (or an assistant turn read from a saved body).
public struct ResponseEntry: Sendable, Hashable {
    /// The message `id` ("" for a turn read from a body without it).
    public var id: String
    /// The model that served it (the `to` model of the last handover, else the one asked; "" when unknown).
    public var model: String
    /// The model the request named.
    public var requestedModel: String
    /// Why the response ended (`end_turn`, `tool_use`, `max_tokens`, …).
    public var stopReason: String?
    /// The stop sequence that ended it, when one did.
    public var stopSequence: String?
    /// The content exactly as received: an array of blocks, or, for an
    /// assistant turn a request body gave as a string, that string (read as
    /// one text block, sent back as given).
    public var content: RawJSON
    /// `usage` as the last `message_delta` left it.
    public var usage: RawJSON
    /// Every fallback handover, in content order.
    public var handovers: [Handover]
    /// The HTTP `request-id` of the response, when the transport gave one.
    public var requestID: String?
    /// The snapshot the entry was made from (not saved; a restored entry parses its content).
    private var origin: MessageSnapshot?

    /// Takes a finished snapshot. Its content bytes are made when first
    /// needed (the next request, or saving), so receiving a response costs
    /// nothing more than the accumulator's work.
    ///
    /// - Complexity: O(blocks) here; O(size of the content) once, on first use of ``content``.
    public init(_ snapshot: MessageSnapshot) {
        id = snapshot.id
        model = snapshot.model
        requestedModel = snapshot.requestedModel
        stopReason = snapshot.stopReason
        stopSequence = snapshot.stopSequence
        content = RawJSON(deferred: { snapshot.contentJSON() })
        usage = RawJSON(snapshot.usage.json)
        handovers = snapshot.handovers.map { Handover(contentIndex: $0.contentIndex, fromModel: $0.fromModel, toModel: $0.toModel) }
        requestID = snapshot.metadata.requestID
        origin = snapshot
    }

    /// An assistant turn given as its content array (read from a saved
    /// body, or written by the caller); the rest is what is known of it.
    /// The handovers are read from the content's `fallback` blocks.
    ///
    /// - Complexity: O(size of the content), a parse for the handovers.
    public init(
        content: RawJSON, id: String = "", model: String = "", requestedModel: String = "", stopReason: String? = nil,
        stopSequence: String? = nil, usage: RawJSON = RawJSON(.object([])), requestID: String? = nil
    ) {
        self.id = id
        self.model = model
        self.requestedModel = requestedModel
        self.stopReason = stopReason
        self.stopSequence = stopSequence
        self.content = content
        self.usage = usage
        self.requestID = requestID
        handovers = []
        origin = nil
        handovers = snapshot.handovers.map { Handover(contentIndex: $0.contentIndex, fromModel: $0.fromModel, toModel: $0.toModel) }
    }

    /// The client tool calls of the content, in content order; a call whose
    /// input is unusable (not valid JSON, cut off) says why in `inputError`.
    ///
    /// - Complexity: O(blocks) for an entry made from a snapshot; a parse for a restored one.
    public var toolCalls: [ToolCallEntry] {
        snapshot.content.compactMap { block in
            guard case .toolUse(let call) = block, call.kind == .toolUse else { return nil }
            var problem: String?
            if let error = call.inputError {
                problem = "the input is not valid JSON (\(error))"
            } else if !call.isComplete || !call.input.isComplete {
                problem = "the input was cut off before it was complete"
            }
            return ToolCallEntry(id: call.id, name: call.name, input: RawJSON(call.input), inputError: problem)
        }
    }

    /// What the content says, in content order.
    ///
    /// - Complexity: O(size of the text); a restored entry parses its content.
    public var segments: [ResponseSegment] {
        snapshot.content.enumerated().map { ResponseSegment($1, at: $0) }
    }

    public static func == (lhs: ResponseEntry, rhs: ResponseEntry) -> Bool {
        lhs.id == rhs.id && lhs.model == rhs.model && lhs.requestedModel == rhs.requestedModel
            && lhs.stopReason == rhs.stopReason && lhs.stopSequence == rhs.stopSequence && lhs.content == rhs.content
            && lhs.usage == rhs.usage && lhs.handovers == rhs.handovers && lhs.requestID == rhs.requestID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(content)
    }

    /// The concatenated text of the text segments.
    public var text: String {
        segments.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
    }

    /// The usage counts (input, output, cache).
    public var tokenCounts: TokenUsage { TokenUsage(usage.value) }

    /// The content as an array of blocks (a string as its one text block).
    private var contentBlocks: JSONValue {
        let value = content.value
        guard let text = value.stringValue else { return value }
        return .array([.object([("type", .string("text")), ("text", .string(text))])])
    }

    /// The message as a snapshot (for `ServerToolLedger` and activity views).
    ///
    /// - Complexity: O(1) for an entry made from a snapshot; O(size), a parse, for a restored one.
    public var snapshot: MessageSnapshot {
        if let origin { return origin }
        return MessageSnapshot(
            messageJSON: .object([
                ("id", .string(id)), ("type", .string("message")), ("role", .string("assistant")),
                ("model", .string(requestedModel.isEmpty ? model : requestedModel)), ("content", contentBlocks),
                ("stop_reason", stopReason.map(JSONValue.string) ?? .null),
                ("stop_sequence", stopSequence.map(JSONValue.string) ?? .null), ("usage", usage.value),
            ]))
    }
}

/// A piece of a response in content order.
public enum ResponseSegment: Sendable, Hashable, Codable {
    /// A text block's text.
    case text(String)
    /// Summarized or full thinking text (its signature stays in the content).
    case thinking(String)
    /// Thinking the API encrypted.
    case redactedThinking
    /// A client tool call (see ``ToolCallEntry``).
    case toolCall(id: String, name: String)
    /// A server tool activity holding its place: the call's id, tool name and input.
    case serverToolActivity(id: String, name: String, input: RawJSON)
    /// A server tool's result block (paired with its activity by `toolUseID`).
    case serverToolResult(toolUseID: String, type: String)
    /// Where one model declined and the next continued.
    case handover(fromModel: String?, toModel: String?)
    /// Any other block, by type (compaction, container upload, unknown types).
    case other(type: String)

    init(_ block: ContentBlock, at index: Int) {
        switch block {
        case .text(let b): self = .text(b.text.string)
        case .thinking(let b): self = .thinking(b.thinking.string)
        case .redactedThinking: self = .redactedThinking
        case .toolUse(let b) where b.kind == .toolUse: self = .toolCall(id: b.id, name: b.name)
        case .toolUse(let b): self = .serverToolActivity(id: b.id, name: b.name, input: RawJSON(b.input))
        case .toolResult(let b): self = .serverToolResult(toolUseID: b.toolUseID, type: b.type)
        case .fallback(let b): self = .handover(fromModel: b.fromModel, toModel: b.toModel)
        default: self = .other(type: block.type)  // container upload, compaction, unknown and new types
        }
    }
}

/// A fallback handover inside a response.
public struct Handover: Sendable, Hashable, Codable {
    /// Index of the `fallback` block in the content.
    public var contentIndex: Int
    /// The model that declined.
    public var fromModel: String?
    /// The model that continued.
    public var toModel: String?

    /// A handover at `contentIndex` from `fromModel` to `toModel`.
    public init(contentIndex: Int, fromModel: String?, toModel: String?) {
        self.contentIndex = contentIndex
        self.fromModel = fromModel
        self.toModel = toModel
    }
}

/// A client tool call the model made.
public struct ToolCallEntry: Sendable, Hashable {
    /// The `tool_use` block's `id`.
    public var id: String
    /// The tool's name.
    public var name: String
    /// The input as the model sent it.
    public var input: RawJSON
    /// Why the input could not be used (not valid JSON, cut off), if so.
    public var inputError: String?

    /// A call `id` of the tool `name` with `input`, and why that input is unusable, if it is.
    public init(id: String, name: String, input: RawJSON, inputError: String? = nil) {
        self.id = id
        self.name = name
        self.input = input
        self.inputError = inputError
    }
}

/// Token counts of one response, or a sum of several.
public struct TokenUsage: Sendable, Hashable, Codable {
    /// Prompt tokens not read from or written to the cache.
    public var inputTokens: Int
    /// Generated tokens.
    public var outputTokens: Int
    /// Prompt tokens written to the cache.
    public var cacheCreationInputTokens: Int
    /// Prompt tokens read from the cache.
    public var cacheReadInputTokens: Int

    /// Counts as given; all 0 by default (the identity of a sum).
    public init(inputTokens: Int = 0, outputTokens: Int = 0, cacheCreationInputTokens: Int = 0, cacheReadInputTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.cacheCreationInputTokens = cacheCreationInputTokens
        self.cacheReadInputTokens = cacheReadInputTokens
    }

    /// Reads a `usage` object (missing or non-integer fields count 0).
    public init(_ usage: JSONValue) {
        func count(_ key: String) -> Int { (try? usage[key]?.numberValue?.int()) ?? 0 }
        self.init(
            inputTokens: count("input_tokens"), outputTokens: count("output_tokens"),
            cacheCreationInputTokens: count("cache_creation_input_tokens"),
            cacheReadInputTokens: count("cache_read_input_tokens"))
    }

    /// Field-wise sum; saturates instead of overflowing.
    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }
        return TokenUsage(
            inputTokens: add(lhs.inputTokens, rhs.inputTokens), outputTokens: add(lhs.outputTokens, rhs.outputTokens),
            cacheCreationInputTokens: add(lhs.cacheCreationInputTokens, rhs.cacheCreationInputTokens),
            cacheReadInputTokens: add(lhs.cacheReadInputTokens, rhs.cacheReadInputTokens))
    }
}
