public import IncrementalJSON
import Synchronization

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
public struct SystemBlock: Sendable, Hashable, Codable {
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

/// A JSON text kept as its compact bytes, so sending it again is a copy
/// (a long history is mostly replayed assistant turns: they are never
/// re-encoded, and every opaque field stays byte for byte).
///
/// The bytes can be made on first use: a response's content is encoded when
/// it is first sent back (or saved), not while the response is received.
public struct RawJSON: Sendable, Hashable {
    let storage: RawJSONStorage

    /// The compact encoding of `value`, made on first use.
    ///
    /// - Complexity: O(size of the value), once.
    public init(_ value: JSONValue) {
        storage = RawJSONStorage(.pending { value })
    }

    /// The compact encoding of the value `make` gives, both run on first use (once).
    public init(deferred make: @escaping @Sendable () -> JSONValue) {
        storage = RawJSONStorage(.pending(make))
    }

    /// Bytes that parse as one JSON text, nested at most `maxDepth` deep;
    /// they are re-encoded compactly so what is kept is always valid and compact.
    public init(validating bytes: [UInt8], maxDepth: Int = JSONParserOptions().maxDepth) throws(JSONParseError) {
        var compact: [UInt8] = []
        try JSONValue.parse(bytes, options: JSONParserOptions(maxDepth: maxDepth)).encodeCompact(into: &compact)
        storage = RawJSONStorage(.bytes(compact))
    }

    /// Compact JSON, valid as a whole.
    ///
    /// - Complexity: O(1) after the first use.
    public var bytes: [UInt8] { storage.bytes }

    /// The parsed value.
    ///
    /// - Complexity: O(size), a parse.
    public var value: JSONValue {
        // The bytes came from `encodeCompact`, so they always parse, at any
        // depth they were made with; null is unreachable.
        var options = JSONParserOptions()
        options.maxDepth = Int.max
        return (try? JSONValue.parse(bytes, options: options)) ?? .null
    }

    /// The JSON as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public static func == (lhs: RawJSON, rhs: RawJSON) -> Bool { lhs.storage === rhs.storage || lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Where the bytes of one valid JSON text first nest deeper than `limit`:
    /// that depth and the byte offset of the bracket, or nil. A writer checks
    /// its output with this so it never writes what its reader refuses.
    ///
    /// - Complexity: O(size), one pass.
    public static func nestingExcess(in bytes: [UInt8], limit: Int) -> (depth: Int, offset: Int)? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return (depth, offset) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// The tool calls and results among the blocks (an array, or one block),
    /// found once per value: a long history checks each replayed response
    /// once, not at every request.
    var toolRuleBlocks: [ToolRuleBlock] {
        storage.toolBlocks { ToolRuleBlock.scan(RequestEncoder.arrayElements(of: value)) }
    }
}

/// A block the API's tool rules are about, or any other.
enum ToolRuleBlock: Sendable, Hashable {
    /// A client `tool_use` with its id.
    case call(String)
    /// A `tool_result` answering the id.
    case result(String)
    /// Any other block.
    case other

    init(_ block: JSONValue) {
        switch block["type"]?.stringValue {
        case "tool_use": self = block["id"]?.stringValue.map(ToolRuleBlock.call) ?? .other
        case "tool_result": self = block["tool_use_id"]?.stringValue.map(ToolRuleBlock.result) ?? .other
        default: self = .other
        }
    }

    static func scan(_ blocks: [JSONValue]) -> [ToolRuleBlock] { blocks.map(ToolRuleBlock.init) }
}

/// The bytes of a ``RawJSON``, made once from a pending value.
final class RawJSONStorage: Sendable {
    enum State {
        case pending(@Sendable () -> JSONValue)
        case bytes([UInt8])
    }

    private let state: Mutex<State>
    /// The tool blocks of the content, found on first use (see ``RawJSON/toolRuleBlocks``).
    private let toolBlocks = Mutex<[ToolRuleBlock]?>(nil)

    init(_ state: State) { self.state = Mutex(state) }

    /// `find` run once; every later call gives its answer.
    func toolBlocks(_ find: () -> [ToolRuleBlock]) -> [ToolRuleBlock] {
        if let known = toolBlocks.withLock({ $0 }) { return known }
        let found = find()
        toolBlocks.withLock { $0 = found }
        return found
    }

    var bytes: [UInt8] {
        state.withLock { state in
            switch state {
            case .bytes(let bytes):
                return bytes
            case .pending(let make):
                var bytes: [UInt8] = []
                make().encodeCompact(into: &bytes)
                state = .bytes(bytes)
                return bytes
            }
        }
    }
}
