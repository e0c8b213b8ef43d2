public import IncrementalJSON

// The pieces of a turn beyond plain text and images: the result of a client
// tool call, a document, a system prompt block, and JSON kept as bytes.

/// The answer to one `tool_use` block, sent in the next user turn.
public struct ToolResult: Sendable, Hashable {
    /// What the tool produced.
    public enum Content: Sendable, Hashable {
        /// Sent as `content: "TEXT"`.
        case text(String)
        /// A JSON value sent as the text of one text block (its compact form).
        case json(JSONValue)
        /// Content blocks (text, image, document), sent as an array.
        case blocks([TurnContent])
        /// The `content` field exactly as given (a string or an array of API blocks).
        case raw(JSONValue)
    }

    /// The `id` of the `tool_use` block this answers.
    public var toolUseID: String
    public var content: Content
    /// True when the tool failed; the content then says why.
    public var isError: Bool
    public var cacheControl: CacheControl?

    public init(toolUseID: String, content: Content, isError: Bool = false, cacheControl: CacheControl? = nil) {
        self.toolUseID = toolUseID
        self.content = content
        self.isError = isError
        self.cacheControl = cacheControl
    }
}

/// A document the model reads (a `document` block).
public struct Document: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// PDF bytes, sent base64-encoded as `application/pdf`.
        case pdf([UInt8])
        /// Plain text, sent as `{type: "text", media_type: "text/plain"}`.
        case plainText(String)
        /// A PDF at a URL the API fetches.
        case url(String)
    }

    public var source: Source
    public var title: String?
    public var context: String?
    /// `citations: {enabled: true}`: answers cite passages of this document.
    public var citations: Bool
    public var cacheControl: CacheControl?

    public init(_ source: Source, title: String? = nil, context: String? = nil, citations: Bool = false,
                cacheControl: CacheControl? = nil) {
        self.source = source
        self.title = title
        self.context = context
        self.citations = citations
        self.cacheControl = cacheControl
    }

    var isPDF: Bool {
        switch source {
        case .pdf, .url: true
        case .plainText: false
        }
    }
}

/// One block of a system prompt given as blocks (so it can carry a cache breakpoint).
public struct SystemBlock: Sendable, Hashable, Codable {
    public var text: String
    public var cacheControl: CacheControl?

    public init(_ text: String, cacheControl: CacheControl? = nil) {
        self.text = text
        self.cacheControl = cacheControl
    }
}

/// A JSON text kept as its compact bytes, so sending it again is a copy
/// (a long history is mostly replayed assistant turns: they are never
/// re-encoded, and every opaque field stays byte for byte).
public struct RawJSON: Sendable, Hashable {
    /// Compact JSON, valid as a whole.
    public let bytes: [UInt8]

    /// The compact encoding of `value`.
    ///
    /// - Complexity: O(size of the value), once.
    public init(_ value: JSONValue) {
        var bytes: [UInt8] = []
        value.encodeCompact(into: &bytes)
        self.bytes = bytes
    }

    /// Bytes that parse as one JSON text; they are re-encoded compactly so
    /// what is kept is always valid and compact.
    public init(validating bytes: [UInt8]) throws(JSONParseError) {
        self.init(try JSONValue.parse(bytes))
    }

    /// The parsed value.
    ///
    /// - Complexity: O(size), a parse.
    public var value: JSONValue {
        // The bytes came from `encodeCompact`, so they always parse; null is unreachable.
        (try? JSONValue.parse(bytes)) ?? .null
    }

    /// The JSON as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
