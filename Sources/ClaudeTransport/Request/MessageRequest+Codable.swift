import Foundation
import IncrementalJSON

// Codable for the pieces of a request. A whole `MessageRequest` codes as the
// API's JSON (MessageRequest+APIJSON.swift); the pieces below keep their own
// keyed forms for apps that store them one by one. Every JSON payload (a block, a replayed content array, a
// tool's schema or definition, a tool result's raw content) is stored as its
// compact JSON text: through any Encoder it comes back byte for byte, which
// the API needs for thinking signatures and encrypted content (a JSONValue
// through Foundation's coders would lose number text and key order).

extension RawJSON: Codable {
    /// The deepest nesting a coded ``RawJSON`` may have, encoded or decoded:
    /// the parser's 512 for a block's input plus the levels of a content
    /// array around it and a margin, so whatever a response holds comes back.
    public static let maxCodedDepth = 512 + 8

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try RawJSON(validating: Array(text.utf8), maxDepth: Self.maxCodedDepth) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not JSON: \(error)"))
        }
    }

    /// Encodes the compact text; refuses what the decoder would refuse
    /// (nesting deeper than ``maxCodedDepth``), so what is written reads back.
    public func encode(to encoder: any Encoder) throws {
        if let (depth, offset) = RawJSON.nestingExcess(in: bytes, limit: Self.maxCodedDepth) {
            throw EncodingError.invalidValue(
                text,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "JSON nested \(depth) deep at byte \(offset), deeper than the \(Self.maxCodedDepth) a decoder takes"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// Coding keys by name, for the hand-written conformances below.
struct FieldKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringLiteral value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == FieldKey {
    mutating func encodeJSON(_ value: JSONValue, forKey key: FieldKey) throws { try encode(RawJSON(value), forKey: key) }
}

extension KeyedDecodingContainer where Key == FieldKey {
    func decodeJSON(_ key: FieldKey) throws -> JSONValue { try decode(RawJSON.self, forKey: key).value }
    func decodeJSONIfPresent(_ key: FieldKey) throws -> JSONValue? { try decodeIfPresent(RawJSON.self, forKey: key)?.value }
    func unknown(_ kind: String, _ key: FieldKey = "kind") -> DecodingError {
        .dataCorruptedError(forKey: key, in: self, debugDescription: "unknown kind '\(kind)'")
    }
}

extension MessageRequest: Codable {
    /// Decodes the API JSON of a request body (see ``init(apiJSON:resolveModel:)``).
    /// Through Foundation's decoders numbers pass through `Double`/`Int`;
    /// for exact bytes use ``init(apiJSON:resolveModel:)`` on a parsed value.
    public init(from decoder: any Decoder) throws {
        self = try MessageRequest(apiJSON: try JSONValue(from: decoder))
    }

    /// Encodes the request as the API JSON of its body, without `stream`
    /// (see ``apiJSON()``).
    public func encode(to encoder: any Encoder) throws {
        try apiJSON().encode(to: encoder)
    }
}

extension ReasoningHint {
    /// The hint whose level is `name` (a custom one for other names).
    static func named(_ name: String) -> ReasoningHint {
        switch name {
        case "low": .light
        case "medium": .moderate
        case "high": .deep
        default: .custom(name)
        }
    }
}

extension ClaudeModel: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let id = try c.decode(String.self, forKey: "id")
        let capabilities = try c.decodeIfPresent(ModelCapabilities.self, forKey: "capabilities")
        self.init(id: id, capabilities: capabilities ?? ClaudeModel.known(id: id)?.capabilities ?? .minimal)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(capabilities, forKey: "capabilities")
    }
}

extension SamplingParameter: Codable {}
extension ServerToolKind: Codable {}

extension ModelCapabilities: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        self.init(
            sampling: try c.decodeIfPresent(Set<SamplingParameter>.self, forKey: "sampling") ?? [],
            effortLevels: (try c.decodeIfPresent([String].self, forKey: "effortLevels") ?? []).map(EffortLevel.init),
            adaptiveThinking: try c.decodeIfPresent(Bool.self, forKey: "adaptiveThinking") ?? false,
            structuredOutput: try c.decodeIfPresent(Bool.self, forKey: "structuredOutput") ?? false,
            imageInput: try c.decodeIfPresent(Bool.self, forKey: "imageInput") ?? false,
            serverTools: try c.decodeIfPresent(Set<ServerToolKind>.self, forKey: "serverTools") ?? [],
            manualThinking: try c.decodeIfPresent(Bool.self, forKey: "manualThinking") ?? false,
            pdfInput: try c.decodeIfPresent(Bool.self, forKey: "pdfInput"))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        try c.encode(SamplingParameter.allCases.filter(sampling.contains), forKey: "sampling")
        try c.encode(effortLevels.map(\.name), forKey: "effortLevels")
        try c.encode(adaptiveThinking, forKey: "adaptiveThinking")
        try c.encode(structuredOutput, forKey: "structuredOutput")
        try c.encode(imageInput, forKey: "imageInput")
        try c.encode(ServerToolKind.allCases.filter(serverTools.contains), forKey: "serverTools")
        try c.encode(manualThinking, forKey: "manualThinking")
        try c.encode(pdfInput, forKey: "pdfInput")
    }
}

extension FallbackChain: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        if try c.decodeIfPresent(Bool.self, forKey: "serverDefault") == true {
            self = .serverDefault
            return
        }
        let models = try c.decodeIfPresent([ClaudeModel].self, forKey: "models") ?? []
        self = models.isEmpty ? .none : .models(models)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        switch self {
        case .none: break
        case .serverDefault: try c.encode(true, forKey: "serverDefault")
        case .models(let models): try c.encode(models, forKey: "models")
        }
    }
}

extension ServerTool: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let kind = try c.decode(String.self, forKey: "kind")
        let settings = WebToolSettings(
            allowedDomains: try c.decodeIfPresent([String].self, forKey: "allowedDomains") ?? [],
            blockedDomains: try c.decodeIfPresent([String].self, forKey: "blockedDomains") ?? [],
            maxUses: try c.decodeIfPresent(Int.self, forKey: "maxUses"))
        switch kind {
        case ServerToolKind.webSearch.rawValue: self = .webSearch(settings)
        case ServerToolKind.webFetch.rawValue: self = .webFetch(settings)
        case ServerToolKind.codeExecution.rawValue: self = .codeExecution
        default: throw c.unknown(kind)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        try c.encode(kind.rawValue, forKey: "kind")
        switch self {
        case .webSearch(let settings), .webFetch(let settings):
            if !settings.allowedDomains.isEmpty { try c.encode(settings.allowedDomains, forKey: "allowedDomains") }
            if !settings.blockedDomains.isEmpty { try c.encode(settings.blockedDomains, forKey: "blockedDomains") }
            try c.encodeIfPresent(settings.maxUses, forKey: "maxUses")
        case .codeExecution: break
        }
    }
}

extension ToolDefinition: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        if let raw = try c.decodeJSONIfPresent("raw") {
            self = .raw(raw)
            return
        }
        self = .client(
            ClientToolDefinition(
                name: try c.decode(String.self, forKey: "name"),
                description: try c.decodeIfPresent(String.self, forKey: "description"),
                inputSchemaJSON: try c.decodeJSON("inputSchema"),
                strict: try c.decodeIfPresent(Bool.self, forKey: "strict"),
                cacheControl: try c.decodeIfPresent(CacheControl.self, forKey: "cacheControl")))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        switch self {
        case .raw(let json): try c.encodeJSON(json, forKey: "raw")
        case .client(let tool):
            try c.encode(tool.name, forKey: "name")
            try c.encodeIfPresent(tool.description, forKey: "description")
            try c.encodeJSON(tool.inputSchema, forKey: "inputSchema")
            try c.encodeIfPresent(tool.strict, forKey: "strict")
            try c.encodeIfPresent(tool.cacheControl, forKey: "cacheControl")
        }
    }
}

extension ToolChoice: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let text = try c.decode(String.self, forKey: "mode")
        guard let parsed = ToolChoice(parsing: text) else { throw c.unknown(text, "mode") }
        self.init(parsed.mode, disableParallelToolUse: try c.decodeIfPresent(Bool.self, forKey: "disableParallelToolUse") ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        let text: String =
            switch mode {
            case .auto: "auto"
            case .any: "any"
            case .none: "none"
            case .tool(let name): "tool:\(name)"
            }
        try c.encode(text, forKey: "mode")
        if disableParallelToolUse { try c.encode(true, forKey: "disableParallelToolUse") }
    }
}

extension ConversationTurn: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        self.init(
            role: try c.decode(Role.self, forKey: "role"), content: try c.decode([TurnContent].self, forKey: "content"),
            cacheControl: try c.decodeIfPresent(CacheControl.self, forKey: "cacheControl"))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        try c.encode(role, forKey: "role")
        try c.encode(content, forKey: "content")
        try c.encodeIfPresent(cacheControl, forKey: "cacheControl")
    }
}

extension TurnContent: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let kind = try c.decode(String.self, forKey: "kind")
        switch kind {
        case "text": self = .text(try c.decode(String.self, forKey: "text"))
        case "image":
            guard let bytes = Data(base64Encoded: try c.decode(String.self, forKey: "data")) else {
                throw DecodingError.dataCorruptedError(forKey: "data", in: c, debugDescription: "not base64")
            }
            self = .image(bytes: Array(bytes), mediaType: try c.decode(String.self, forKey: "mediaType"))
        case "block": self = .block(try c.decodeJSON("json"))
        case "verbatimBlocks": self = .verbatimBlocks(try c.decodeJSON("json"))
        case "encodedBlocks": self = .encodedBlocks(try c.decode(RawJSON.self, forKey: "json"))
        case "toolResult": self = .toolResult(try c.decode(ToolResult.self, forKey: "toolResult"))
        case "document": self = .document(try c.decode(Document.self, forKey: "document"))
        default: throw c.unknown(kind)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        switch self {
        case .text(let text):
            try c.encode("text", forKey: "kind")
            try c.encode(text, forKey: "text")
        case .image(let bytes, let mediaType):
            try c.encode("image", forKey: "kind")
            try c.encode(Data(bytes).base64EncodedString(), forKey: "data")
            try c.encode(mediaType, forKey: "mediaType")
        case .block(let json):
            try c.encode("block", forKey: "kind")
            try c.encodeJSON(json, forKey: "json")
        case .verbatimBlocks(let json):
            try c.encode("verbatimBlocks", forKey: "kind")
            try c.encodeJSON(json, forKey: "json")
        case .encodedBlocks(let raw):
            try c.encode("encodedBlocks", forKey: "kind")
            try c.encode(raw, forKey: "json")
        case .toolResult(let result):
            try c.encode("toolResult", forKey: "kind")
            try c.encode(result, forKey: "toolResult")
        case .document(let document):
            try c.encode("document", forKey: "kind")
            try c.encode(document, forKey: "document")
        }
    }
}

extension ToolResult: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let content: Content
        if let text = try c.decodeIfPresent(String.self, forKey: "text") {
            content = .text(text)
        } else if let json = try c.decodeJSONIfPresent("json") {
            content = .json(json)
        } else if let raw = try c.decodeJSONIfPresent("raw") {
            content = .raw(raw)
        } else {
            content = .blocks(try c.decode([TurnContent].self, forKey: "blocks"))
        }
        self.init(
            toolUseID: try c.decode(String.self, forKey: "toolUseID"), content: content,
            isError: try c.decodeIfPresent(Bool.self, forKey: "isError") ?? false,
            cacheControl: try c.decodeIfPresent(CacheControl.self, forKey: "cacheControl"))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        try c.encode(toolUseID, forKey: "toolUseID")
        switch content {
        case .text(let text): try c.encode(text, forKey: "text")
        case .json(let json): try c.encodeJSON(json, forKey: "json")
        case .raw(let json): try c.encodeJSON(json, forKey: "raw")
        case .blocks(let blocks): try c.encode(blocks, forKey: "blocks")
        }
        if isError { try c.encode(true, forKey: "isError") }
        try c.encodeIfPresent(cacheControl, forKey: "cacheControl")
    }
}

extension Document: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let source: Source
        if let text = try c.decodeIfPresent(String.self, forKey: "plainText") {
            source = .plainText(text)
        } else if let url = try c.decodeIfPresent(String.self, forKey: "url") {
            source = .url(url)
        } else {
            guard let bytes = Data(base64Encoded: try c.decode(String.self, forKey: "pdf")) else {
                throw DecodingError.dataCorruptedError(forKey: "pdf", in: c, debugDescription: "not base64")
            }
            source = .pdf(Array(bytes))
        }
        self.init(
            source, title: try c.decodeIfPresent(String.self, forKey: "title"),
            context: try c.decodeIfPresent(String.self, forKey: "context"),
            citations: try c.decodeIfPresent(Bool.self, forKey: "citations") ?? false,
            cacheControl: try c.decodeIfPresent(CacheControl.self, forKey: "cacheControl"))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        switch source {
        case .pdf(let bytes): try c.encode(Data(bytes).base64EncodedString(), forKey: "pdf")
        case .plainText(let text): try c.encode(text, forKey: "plainText")
        case .url(let url): try c.encode(url, forKey: "url")
        }
        try c.encodeIfPresent(title, forKey: "title")
        try c.encodeIfPresent(context, forKey: "context")
        if citations { try c.encode(true, forKey: "citations") }
        try c.encodeIfPresent(cacheControl, forKey: "cacheControl")
    }
}
