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
    /// The header's name, lowercase.
    public var name: String
    /// The header's value.
    public var value: String

    /// A header `name: value`; the name is lowercased.
    public init(_ name: String, _ value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}

/// The wire form of a request, without credentials.
public struct EncodedRequest: Sendable {
    /// Compact JSON with `"stream": true`.
    public var body: [UInt8]
    /// Every header to send (`anthropic-version`, `anthropic-beta`, content type), credentials excepted.
    public var headers: [HTTPHeader]
    /// The effort sent to the primary model, if any.
    public var effort: EffortLevel?
    /// The request asks for structured output, so the answer's text is parsed as JSON.
    public var structuredOutput: Bool
}

/// Writes the top-level members of a JSON object as bytes, in order.
struct BodyWriter {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// The keys written so far, so an additional field never repeats a typed one.
    var keys: Set<String> = []

    mutating func key(_ name: String) {
        keys.insert(name)
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONValue.string(name).encodeCompact(into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: String, _ value: JSONValue) {
        key(name)
        value.encodeCompact(into: &bytes)
    }
}

/// Builds the wire form of a ``MessageRequest``.
public enum RequestEncoder {
    /// The `anthropic-version` header sent to the Anthropic API.
    public static let apiVersion = "2023-06-01"
    /// The `anthropic-beta` value added when the request names ``RequestSetup/fallbacks``.
    public static let fallbackBeta = "server-side-fallback-2026-07-01"
    /// The `anthropic-beta` value added when the request sets ``RequestSetup/userProfileID``.
    public static let userProfileBeta = "user-profiles-2026-08-18"

    /// - Throws: ``RequestError`` when a model in the chain would reject the request.
    /// - Complexity: O(size of the body); replayed turns (``TurnContent/raw(_:)``)
    ///   are copied, not re-encoded.
    public static func encode(_ request: MessageRequest) throws(RequestError) -> EncodedRequest {
        try checkRequest(request)
        let primaryEffort = try primaryEffortLevel(request)
        let body = try encodedBody(request, primaryEffort: primaryEffort, purpose: .messages)
        return EncodedRequest(
            body: body, headers: httpHeaders(request), effort: primaryEffort,
            structuredOutput: request.outputSchema != nil)
    }

    /// The body of `POST /v1/messages/count_tokens`: the fields that count
    /// (model, system, messages, tools, tool choice, thinking), no `stream`,
    /// no `max_tokens`, no sampling.
    ///
    /// - Throws: ``RequestError`` as ``encode(_:)`` does.
    public static func encodeForCounting(_ request: MessageRequest) throws(RequestError) -> EncodedRequest {
        try checkRequest(request)
        let body = try encodedBody(request, primaryEffort: nil, purpose: .counting)
        var headers = httpHeaders(request).filter { $0.name != "accept" }
        headers.append(HTTPHeader("accept", "application/json"))
        return EncodedRequest(body: body, headers: headers, effort: nil, structuredOutput: false)
    }

    /// What a body is for: sending, counting, or writing down (a transcript,
    /// `apiJSON()`: the sent fields without `stream`, effort as asked).
    enum Purpose { case messages, counting, document }

    /// Every check ``encode(_:)`` makes before any traffic, without encoding
    /// (a request this passes, encode does not refuse): the messages follow the API's tool rules (``RequestError/orphanToolResult(toolUseID:turn:)``,
    /// ``RequestError/unansweredToolUse(toolUseID:turn:)``, ``RequestError/toolResultAfterContent(turn:)``),
    /// `tool_choice` names a declared tool, and every model in the chain
    /// accepts the effort and features asked for.
    ///
    /// - Complexity: O(turns + blocks); a replayed response's tool calls are
    ///   found once per response and remembered.
    public static func validate(_ request: MessageRequest) throws(RequestError) {
        try checkRequest(request)
        _ = try primaryEffortLevel(request)
    }

    static func checkRequest(_ request: MessageRequest) throws(RequestError) {
        guard !request.messages.isEmpty else { throw .noMessages }
        try checkToolRules(request.messages)
        guard request.maxTokens > 0 else { throw .invalidMaxTokens(request.maxTokens) }
        if case .models(let models) = request.fallbacks, models.count > FallbackChain.limit {
            throw .tooManyFallbacks(models.count)
        }
        if let budget = request.thinkingBudget, budget < minimumThinkingBudget || budget >= request.maxTokens {
            throw .invalidThinkingBudget(budget, maxTokens: request.maxTokens)
        }
        if request.thinkingBudget != nil, request.adaptiveThinking { throw .conflictingThinking }
        var names = Set<String>()
        for tool in request.tools {
            if let name = tool.name, !names.insert(name).inserted { throw .duplicateToolName(name) }
        }
        for tool in request.serverTools {
            names.insert(tool.kind.rawValue)
            if case .webSearch(let settings) = tool, settings.conflicts { throw .conflictingDomainFilters(.webSearch) }
            if case .webFetch(let settings) = tool, settings.conflicts { throw .conflictingDomainFilters(.webFetch) }
        }
        if case .tool(let name) = request.toolChoice?.mode, !names.contains(name) {
            throw .undeclaredToolChoice(name, declared: request.tools.compactMap(\.name) + request.serverTools.map(\.kind.rawValue))
        }
        try checkChain(request, [request.model] + request.fallbacks.models)
    }

    /// The smallest `budget_tokens` the API takes.
    public static let minimumThinkingBudget = 1024

    static func encodedBody(_ request: MessageRequest, primaryEffort: EffortLevel?, purpose: Purpose) throws(RequestError) -> [UInt8] {
        let wanted = request.effort ?? request.reasoningHint?.effort
        let sending = purpose != .counting
        var writer = BodyWriter()
        // Replayed turns are most of a long body: one allocation for all of them.
        var replayed = 0
        for turn in request.messages {
            for case .raw(let raw) in turn.content { replayed += raw.bytes.count }
        }
        writer.bytes.reserveCapacity(replayed + 4096)
        writer.field("model", .string(request.model.id))
        if sending { writer.field("max_tokens", .number(JSONNumber(request.maxTokens))) }
        switch request.system {
        case .text(let text)?:
            writer.field("system", .string(text))
        case .blocks(let blocks)?:
            writer.field(
                "system",
                .array(
                    blocks.map { block in
                        var fields: [(String, JSONValue)] = [("type", .string("text")), ("text", .string(block.text))]
                        if let cache = block.cacheControl { fields.append(("cache_control", cache.json)) }
                        return .object(fields)
                    }))
        case nil:
            break
        }
        writer.key("messages")
        writer.bytes.append(UInt8(ascii: "["))
        for (index, turn) in request.messages.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writeTurn(turn, into: &writer.bytes)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        if sending {
            if let temperature = request.temperature { writer.field("temperature", jsonNumber(temperature)) }
            if let topP = request.topP { writer.field("top_p", jsonNumber(topP)) }
            if let topK = request.topK { writer.field("top_k", .number(JSONNumber(topK))) }
        }
        if request.adaptiveThinking {
            writer.field("thinking", .object([("type", .string("adaptive"))]))
        } else if let budget = request.thinkingBudget {
            writer.field("thinking", .object([("type", .string("enabled")), ("budget_tokens", .number(JSONNumber(budget)))]))
        }
        var outputConfig: [(String, JSONValue)] = []
        if let primaryEffort { outputConfig.append(("effort", .string(primaryEffort.name))) }
        if sending, let schema = request.outputSchema {
            outputConfig.append(("format", .object([("type", .string("json_schema")), ("schema", schema)])))
        }
        if !outputConfig.isEmpty { writer.field("output_config", .object(outputConfig)) }
        if !request.tools.isEmpty || !request.serverTools.isEmpty {
            var tools = request.tools.map(\.json)
            for tool in request.serverTools { tools.append(try serverToolJSON(tool)) }
            writer.field("tools", .array(tools))
        }
        if let choice = request.toolChoice { writer.field("tool_choice", choice.json) }
        if sending {
            if !request.stopSequences.isEmpty {
                writer.field("stop_sequences", .array(request.stopSequences.map(JSONValue.string)))
            }
            if let user = request.metadataUserID { writer.field("metadata", .object([("user_id", .string(user))])) }
            if let cache = request.cacheControl { writer.field("cache_control", cache.json) }
            if request.fallbacks != .none {
                writer.field(
                    "fallbacks",
                    .array(
                        request.fallbacks.models.map { model in
                            var entry: [(String, JSONValue)] = [("model", .string(model.id))]
                            if let wanted, let level = wanted.closest(in: model.capabilities.effortLevels) {
                                entry.append(("output_config", .object([("effort", .string(level.name))])))
                            }
                            return .object(entry)
                        }))
            }
            for (key, value) in request.additionalFields.entries where !writer.keys.contains(key) && key != "stream" {
                writer.field(key, value)
            }
            if purpose == .messages { writer.field("stream", .bool(true)) }
        }
        writer.bytes.append(UInt8(ascii: "}"))
        return writer.bytes
    }

    // MARK: Capability checks

    static func checkChain(_ request: MessageRequest, _ chain: [ClaudeModel]) throws(RequestError) {
        let usesImages = request.messages.contains { $0.content.contains(where: \.containsImage) }
        let usesPDFs = request.messages.contains { $0.content.contains(where: \.containsPDF) }
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
            let strictTools = request.tools.contains { if case .client(let tool) = $0 { tool.strict == true } else { false } }
            if strictTools, !capabilities.structuredOutput {
                throw .unsupportedFeature("strict tool input (structured output)", model: model.id)
            }
            if request.thinkingBudget != nil, !capabilities.manualThinking {
                throw .unsupportedFeature("manual thinking (budget_tokens)", model: model.id)
            }
            if usesPDFs, !capabilities.pdfInput {
                throw .unsupportedFeature("PDF documents", model: model.id)
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
    static func primaryEffortLevel(_ request: MessageRequest) throws(RequestError) -> EffortLevel? {
        let capabilities = request.model.capabilities
        if let fixed = request.effort {
            guard capabilities.accepts(fixed) else { throw .unsupportedEffort(fixed, model: request.model.id) }
            return fixed
        }
        if let hinted = request.reasoningHint?.effort, capabilities.accepts(hinted) { return hinted }
        return nil
    }

    // MARK: Pieces of the body

    /// Writes `{"role":…,"content":…}`. A turn that is one raw part (a
    /// replayed response, a message as a body gave it) is that part's bytes;
    /// otherwise each part's blocks in order, raw ones copied as bytes.
    static func writeTurn(_ turn: ConversationTurn, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"role":"#.utf8)
        JSONValue.string(turn.role.rawValue).encodeCompact(into: &out)
        out.append(contentsOf: #","content":"#.utf8)
        if let cache = turn.cacheControl {
            // The breakpoint goes on the last block: the blocks as values.
            var blocks = turn.content.flatMap(contentBlocks)
            if let last = blocks.popLast() { blocks.append(last.replacingFields([("cache_control", cache.json)])) }
            JSONValue.array(blocks).encodeCompact(into: &out)
        } else if turn.content.count == 1, case .raw(let raw) = turn.content[0], raw.shape != .object {
            out.append(contentsOf: raw.bytes)
        } else {
            out.append(UInt8(ascii: "["))
            var empty = true
            for part in turn.content { appendBlocks(of: part, into: &out, empty: &empty) }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the blocks of `part` to an array being written (`empty`: no
    /// element written yet), raw JSON as its bytes.
    static func appendBlocks(of part: TurnContent, into out: inout [UInt8], empty: inout Bool) {
        func separate() {
            if !empty { out.append(UInt8(ascii: ",")) }
            empty = false
        }
        guard case .raw(let raw) = part else {
            for block in contentBlocks(part) {
                separate()
                block.encodeCompact(into: &out)
            }
            return
        }
        let bytes = raw.bytes
        switch raw.shape {
        case .array:
            // Compact: `[a,b]` holds exactly the elements `a,b`.
            guard bytes.count > 2 else { return }
            separate()
            out.append(contentsOf: bytes[1..<(bytes.count - 1)])
        case .string:
            separate()
            out.append(contentsOf: #"{"type":"text","text":"#.utf8)
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "}"))
        case .object, .other:
            separate()
            out.append(contentsOf: bytes)
        }
    }

    /// The API blocks of one part (a raw array gives several, a raw string one text block).
    static func contentBlocks(_ part: TurnContent) -> [JSONValue] {
        switch part {
        case .text(let text):
            return [textBlock(text)]
        case .image(let bytes, let mediaType):
            return [
                .object([
                    ("type", .string("image")),
                    (
                        "source",
                        .object([
                            ("type", .string("base64")),
                            ("media_type", .string(mediaType)),
                            ("data", .string(Data(bytes).base64EncodedString())),
                        ])
                    ),
                ])
            ]
        case .raw(let raw):
            let value = raw.value
            if let text = value.stringValue { return [textBlock(text)] }
            return arrayElements(of: value)
        case .toolResult(let result):
            return [toolResultJSON(result)]
        case .document(let document):
            return [documentBlock(document)]
        }
    }

    static func textBlock(_ text: String) -> JSONValue {
        .object([("type", .string("text")), ("text", .string(text))])
    }

    static func toolResultJSON(_ result: ToolResult) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("tool_result")), ("tool_use_id", .string(result.toolUseID))]
        switch result.content {
        case .text(let text): fields.append(("content", .string(text)))
        case .json(let value):
            fields.append(("content", .array([.object([("type", .string("text")), ("text", .string(value.compactJSON))])])))
        case .blocks(let parts): fields.append(("content", .array(parts.flatMap(contentBlocks))))
        case .raw(let value): fields.append(("content", value))
        }
        if result.isError { fields.append(("is_error", .bool(true))) }
        if let cache = result.cacheControl { fields.append(("cache_control", cache.json)) }
        return .object(fields)
    }

    static func documentBlock(_ document: Document) -> JSONValue {
        let source: JSONValue
        switch document.source {
        case .pdf(let bytes):
            source = .object([
                ("type", .string("base64")), ("media_type", .string("application/pdf")),
                ("data", .string(Data(bytes).base64EncodedString())),
            ])
        case .plainText(let text):
            source = .object([("type", .string("text")), ("media_type", .string("text/plain")), ("data", .string(text))])
        case .url(let url):
            source = .object([("type", .string("url")), ("url", .string(url))])
        }
        var fields: [(String, JSONValue)] = [("type", .string("document")), ("source", source)]
        if let title = document.title { fields.append(("title", .string(title))) }
        if let context = document.context { fields.append(("context", .string(context))) }
        if document.citations { fields.append(("citations", .object([("enabled", .bool(true))]))) }
        if let cache = document.cacheControl { fields.append(("cache_control", cache.json)) }
        return .object(fields)
    }

    static func arrayElements(of array: JSONValue) -> [JSONValue] {
        guard case .array(let elements) = array.kind else { return [array] }
        return Array(elements)
    }

    static func serverToolJSON(_ tool: ServerTool) throws(RequestError) -> JSONValue {
        switch tool {
        case .webSearch(let settings):
            return try webTool(type: "web_search_20250305", kind: .webSearch, settings)
        case .webFetch(let settings):
            return try webTool(type: "web_fetch_20250910", kind: .webFetch, settings)
        case .codeExecution:
            return .object([("type", .string("code_execution_20250825")), ("name", .string("code_execution"))])
        }
    }

    static func webTool(type: String, kind: ServerToolKind, _ settings: WebToolSettings) throws(RequestError) -> JSONValue {
        if settings.conflicts { throw .conflictingDomainFilters(kind) }
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
    static func jsonNumber(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    static func httpHeaders(_ request: MessageRequest) -> [HTTPHeader] {
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
