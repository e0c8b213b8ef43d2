public import IncrementalJSON

// The pieces of a turn beyond plain text and images: the result of a client
// tool call, a document and a system prompt block (JSON kept as bytes is
// RawJSON.swift).

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
    /// What the tool produced.
    public var content: Content
    /// True when the tool failed; the content then says why.
    public var isError: Bool
    /// A cache breakpoint on this result.
    public var cacheControl: CacheControl?

    /// The answer to the call `toolUseID`.
    public init(toolUseID: String, content: Content, isError: Bool = false, cacheControl: CacheControl? = nil) {
        self.toolUseID = toolUseID
        self.content = content
        self.isError = isError
        self.cacheControl = cacheControl
    }
}

/// A document the model reads (a `document` block).
public struct Document: Sendable, Hashable {
    /// Where the document's content comes from.
    public enum Source: Sendable, Hashable {
        /// PDF bytes, sent base64-encoded as `application/pdf`.
        case pdf([UInt8])
        /// Plain text, sent as `{type: "text", media_type: "text/plain"}`.
        case plainText(String)
        /// A PDF at a URL the API fetches.
        case url(String)
    }

    /// The document's content.
    public var source: Source
    /// A title shown to the model (`title`).
    public var title: String?
    /// Text about the document that is not cited from (`context`).
    public var context: String?
    /// `citations: {enabled: true}`: answers cite passages of this document.
    public var citations: Bool
    /// A cache breakpoint on this document.
    public var cacheControl: CacheControl?

    /// A document from `source`, optionally titled, with citations off by default.
    public init(
        _ source: Source, title: String? = nil, context: String? = nil, citations: Bool = false,
        cacheControl: CacheControl? = nil
    ) {
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
public struct SystemBlock: Sendable, Hashable {
    /// The block's text.
    public var text: String
    /// A cache breakpoint after this block.
    public var cacheControl: CacheControl?

    /// A system block of `text`.
    public init(_ text: String, cacheControl: CacheControl? = nil) {
        self.text = text
        self.cacheControl = cacheControl
    }
}
