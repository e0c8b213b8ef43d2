import Foundation
import IncrementalJSON

// Turns a MessageRequest into the headers and compact JSON body of
// `POST /v1/messages`. The body is built as a JSONValue so key order is fixed
// and strings are escaped in one place. Everything a model might reject is
// decided here, against the capabilities of every model in the chain:
//
//   * sampling, schema, images, adaptive thinking, server tools: sent only
//     when the primary and every fallback accept them, otherwise refused
//     (a silently dropped schema or image would change the answer's meaning);
//   * effort: a fixed level must be accepted by the primary (refused
//     otherwise); a hint is dropped when it is not; each fallback gets the
//     level closest to the one asked for among those it accepts.
//
// Fallback shape (assumed from the SDK types of the 2026-06 beta; the
// 2026-07-01 docs were not available): `"fallbacks": [{"model": ID,
// "output_config": {"effort": LEVEL}}]`, the server default as
// `{"model": "default"}`.

/// An HTTP header, name lowercase.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}

/// The wire form of a request, without credentials.
public struct EncodedRequest: Sendable {
    /// Compact JSON with `"stream": true`.
    public var body: [UInt8]
    public var headers: [HTTPHeader]
    /// The effort sent to the primary model, if any.
    public var effort: EffortLevel?
}

/// Builds the wire form of a ``MessageRequest``.
public enum RequestEncoder {
    public static let apiVersion = "2023-06-01"
    public static let fallbackBeta = "server-side-fallback-2026-07-01"
    public static let userProfileBeta = "user-profiles-2026-08-18"

    /// - Throws: ``RequestError`` when a model in the chain would reject the request.
    /// - Complexity: O(size of the body).
    public static func encode(_ request: MessageRequest) throws(RequestError) -> EncodedRequest {
        guard !request.messages.isEmpty else { throw .noMessages }
        guard request.maxTokens > 0 else { throw .invalidMaxTokens(request.maxTokens) }
        if case .models(let models) = request.fallbacks, models.count > FallbackChain.limit {
            throw .tooManyFallbacks(models.count)
        }
        let chain = [request.model] + request.fallbacks.models
        try _checkChain(request, chain)

        let wanted = request.effort ?? request.reasoningHint?.effort
        let primaryEffort = try _primaryEffort(request)

        var fields: [(String, JSONValue)] = [
            ("model", .string(request.model.id)),
            ("max_tokens", .number(JSONNumber(request.maxTokens))),
        ]
        if let system = request.system { fields.append(("system", .string(system))) }
        fields.append(("messages", .array(request.messages.map(_turn))))
        if let temperature = request.temperature { fields.append(("temperature", _number(temperature))) }
        if let topP = request.topP { fields.append(("top_p", _number(topP))) }
        if let topK = request.topK { fields.append(("top_k", .number(JSONNumber(topK)))) }
        if request.adaptiveThinking {
            fields.append(("thinking", .object([("type", .string("adaptive"))])))
        }
        var outputConfig: [(String, JSONValue)] = []
        if let primaryEffort { outputConfig.append(("effort", .string(primaryEffort.name))) }
        if let schema = request.outputSchema {
            outputConfig.append(("format", .object([("type", .string("json_schema")), ("schema", schema)])))
        }
        if !outputConfig.isEmpty { fields.append(("output_config", .object(outputConfig))) }
        if !request.serverTools.isEmpty {
            fields.append(("tools", .array(try request.serverTools.map(_tool))))
        }
        if request.fallbacks != .none {
            fields.append(("fallbacks", .array(request.fallbacks.models.map { model in
                var entry: [(String, JSONValue)] = [("model", .string(model.id))]
                if let wanted, let level = wanted.closest(in: model.capabilities.effortLevels) {
                    entry.append(("output_config", .object([("effort", .string(level.name))])))
                }
                return .object(entry)
            })))
        }
        fields.append(("stream", .bool(true)))

        var body: [UInt8] = []
        JSONValue.object(fields).encodeCompact(into: &body)
        return EncodedRequest(body: body, headers: _headers(request), effort: primaryEffort)
    }

    // MARK: Capability checks

    static func _checkChain(_ request: MessageRequest, _ chain: [ClaudeModel]) throws(RequestError) {
        let usesImages = request.messages.contains { $0.content.contains(where: \.isImage) }
        for model in chain {
            let capabilities = model.capabilities
            if request.outputSchema != nil, !capabilities.structuredOutput {
                throw .unsupportedFeature("structured output (output_config.format)", model: model.id)
            }
            if usesImages, !capabilities.imageInput {
                throw .unsupportedFeature("image input", model: model.id)
            }
            if request.adaptiveThinking, !capabilities.adaptiveThinking {
                throw .unsupportedFeature("adaptive thinking", model: model.id)
            }
            let sampling: [(SamplingParameter, Bool)] = [
                (.temperature, request.temperature != nil), (.topP, request.topP != nil), (.topK, request.topK != nil),
            ]
            for (parameter, isSet) in sampling where isSet && !capabilities.sampling.contains(parameter) {
                throw .unsupportedFeature("sampling parameter \(parameter.rawValue)", model: model.id)
            }
            for tool in request.serverTools where !capabilities.serverTools.contains(tool.kind) {
                throw .unsupportedFeature("server tool \(tool.kind.rawValue)", model: model.id)
            }
        }
    }

    /// The effort for the primary model: a fixed level must be accepted, a
    /// hinted one is dropped when not.
    static func _primaryEffort(_ request: MessageRequest) throws(RequestError) -> EffortLevel? {
        let capabilities = request.model.capabilities
        if let fixed = request.effort {
            guard capabilities.accepts(fixed) else { throw .unsupportedEffort(fixed, model: request.model.id) }
            return fixed
        }
        if let hinted = request.reasoningHint?.effort, capabilities.accepts(hinted) { return hinted }
        return nil
    }

    // MARK: Pieces of the body

    static func _turn(_ turn: ConversationTurn) -> JSONValue {
        var blocks: [JSONValue] = []
        for part in turn.content {
            switch part {
            case .text(let text):
                blocks.append(.object([("type", .string("text")), ("text", .string(text))]))
            case .image(let bytes, let mediaType):
                blocks.append(.object([
                    ("type", .string("image")),
                    ("source", .object([
                        ("type", .string("base64")),
                        ("media_type", .string(mediaType)),
                        ("data", .string(Data(bytes).base64EncodedString())),
                    ])),
                ]))
            case .block(let value):
                blocks.append(value)
            case .verbatimBlocks(let array):
                // A replayed content array is the whole content, kept as is.
                if turn.content.count == 1 {
                    return .object([("role", .string(turn.role.rawValue)), ("content", array)])
                }
                blocks.append(contentsOf: _elements(of: array))
            }
        }
        return .object([("role", .string(turn.role.rawValue)), ("content", .array(blocks))])
    }

    static func _elements(of array: JSONValue) -> [JSONValue] {
        guard case .array(let elements) = array.kind else { return [array] }
        return Array(elements)
    }

    static func _tool(_ tool: ServerTool) throws(RequestError) -> JSONValue {
        switch tool {
        case .webSearch(let settings):
            return try _webTool(type: "web_search_20250305", kind: .webSearch, settings)
        case .webFetch(let settings):
            return try _webTool(type: "web_fetch_20250910", kind: .webFetch, settings)
        case .codeExecution:
            return .object([("type", .string("code_execution_20250825")), ("name", .string("code_execution"))])
        }
    }

    static func _webTool(type: String, kind: ServerToolKind, _ settings: WebToolSettings) throws(RequestError) -> JSONValue {
        if !settings.allowedDomains.isEmpty && !settings.blockedDomains.isEmpty {
            throw .conflictingDomainFilters(kind)
        }
        var fields: [(String, JSONValue)] = [("type", .string(type)), ("name", .string(kind.rawValue))]
        if !settings.allowedDomains.isEmpty {
            fields.append(("allowed_domains", .array(settings.allowedDomains.map(JSONValue.string))))
        }
        if !settings.blockedDomains.isEmpty {
            fields.append(("blocked_domains", .array(settings.blockedDomains.map(JSONValue.string))))
        }
        if let maxUses = settings.maxUses { fields.append(("max_uses", .number(JSONNumber(maxUses)))) }
        return .object(fields)
    }

    /// A double as a JSON number, in Swift's shortest round-tripping form.
    static func _number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    static func _headers(_ request: MessageRequest) -> [HTTPHeader] {
        var betas: [String] = []
        func add(_ beta: String) {
            let trimmed = beta.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty, !betas.contains(trimmed) { betas.append(trimmed) }
        }
        request.betas.forEach(add)
        if request.fallbacks != .none { add(fallbackBeta) }
        if request.userProfileID != nil { add(userProfileBeta) }

        var headers = [
            HTTPHeader("anthropic-version", apiVersion),
            HTTPHeader("content-type", "application/json"),
            HTTPHeader("accept", "text/event-stream"),
        ]
        if !betas.isEmpty { headers.append(HTTPHeader("anthropic-beta", betas.joined(separator: ","))) }
        if let profile = request.userProfileID { headers.append(HTTPHeader("anthropic-user-profile-id", profile)) }
        return headers
    }
}
