// Content blocks as they stand in a snapshot.
//
// Every block keeps `start`: the JSON object of its `content_block_start` (or
// of its entry in `message_start`'s content), verbatim. What deltas add lives
// beside it in typed, append-only storage (text, thinking, tool input), and
// the block's API JSON is `start` with those fields written over it (see
// ContentBlock+JSON.swift). That is how fields this package has never heard
// of (`caller`, a new beta field, a whole unknown block type) survive to the
// replayed assistant turn byte for byte, while the hot fields stay cheap to
// grow and to snapshot.

public import IncrementalJSON

/// One block of a message's content, typed by its `type`.
public enum ContentBlock: Sendable, Hashable {
    /// A `text` block.
    case text(TextBlock)
    /// A `thinking` block (extended thinking).
    case thinking(ThinkingBlock)
    /// A `redacted_thinking` block: encrypted thinking, kept verbatim for replay.
    case redactedThinking(OpaqueBlock)
    /// `tool_use`, `server_tool_use` and `mcp_tool_use`: a call whose input streams.
    case toolUse(ToolUseBlock)
    /// Every `*_tool_result` block (web search, web fetch, code execution,
    /// bash, text editor, tool search, MCP, advisor, and ones not yet known).
    case toolResult(ToolResultBlock)
    /// A `container_upload` block: a file the code-execution container received.
    case containerUpload(OpaqueBlock)
    /// A `compaction` block: the summary that replaces earlier context.
    case compaction(CompactionBlock)
    /// A `fallback` block: one model declined and the next continued.
    case fallback(FallbackBlock)
    /// A block type this package does not know; kept verbatim.
    case unknown(OpaqueBlock)

    /// The block's `type` as sent.
    public var type: String {
        switch self {
        case .text: "text"
        case .thinking: "thinking"
        case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): b.type
        case .toolUse(let b): b.kind.rawValue
        case .toolResult(let b): b.type
        case .compaction: "compaction"
        case .fallback: "fallback"
        }
    }

    /// False until the block's `content_block_stop` arrived.
    public var isComplete: Bool {
        switch self {
        case .text(let b): b.isComplete
        case .thinking(let b): b.isComplete
        case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): b.isComplete
        case .toolUse(let b): b.isComplete
        case .toolResult(let b): b.isComplete
        case .compaction(let b): b.isComplete
        case .fallback(let b): b.isComplete
        }
    }

    /// The `content_block_start` JSON, verbatim.
    public var start: JSONValue {
        switch self {
        case .text(let b): b.start
        case .thinking(let b): b.start
        case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): b.start
        case .toolUse(let b): b.start
        case .toolResult(let b): b.start
        case .compaction(let b): b.start
        case .fallback(let b): b.start
        }
    }
}

/// A text block: text, its citations, and (when the caller asked for it)
/// the JSON value the text is building up (structured output).
public struct TextBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The text so far: `start`'s `text` followed by every `text_delta`.
    public internal(set) var text: AppendOnlyText
    /// Citations from `start` followed by every `citations_delta`, in order.
    public internal(set) var citations: AppendOnlyArray<Citation>
    /// True when `citations_delta`s arrived (the block's JSON then carries the list).
    public internal(set) var hasCitationDeltas: Bool
    /// The partial value parsed from the text so far, when this block was
    /// selected for structured output (``MessageAccumulatorOptions/structuredOutput``).
    public internal(set) var structuredValue: JSONValue?
    /// Why the text is not valid JSON, when it was selected and turned out not to be.
    public internal(set) var structuredError: JSONParseError?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

/// Extended thinking: its text and the signature that authenticates it.
public struct ThinkingBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The thinking text so far: `start`'s `thinking` followed by every `thinking_delta`.
    public internal(set) var thinking: AppendOnlyText
    /// Set by `signature_delta` (sent once, just before the block stops).
    public internal(set) var signature: String?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

/// A tool call whose input arrives as JSON text in `input_json_delta`s.
public struct ToolUseBlock: Sendable, Hashable {
    /// Which of the three call types the block is (its `type`).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A client tool call: the caller runs the tool.
        case toolUse = "tool_use"
        /// A server tool call: the API runs the tool and sends its result as a block.
        case serverToolUse = "server_tool_use"
        /// A call to a tool of an MCP server the request named.
        case mcpToolUse = "mcp_tool_use"
    }

    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// Client, server or MCP call.
    public var kind: Kind
    /// The call's `id` (`toolu_…`, `srvtoolu_…`), which its result names; empty when `start` has none.
    public var id: String
    /// The tool's `name`; empty when `start` has none.
    public var name: String
    /// The input as parsed so far: partial while the block streams (strings
    /// grow, keys appear with their values), complete after a valid stop.
    /// Before any delta it is the `input` of `start` (usually `{}`, already
    /// filled for calls made from code execution).
    public internal(set) var input: JSONValue
    /// The raw JSON text of the input deltas, concatenated.
    public internal(set) var inputJSON: AppendOnlyText
    /// Set when the input text is not valid JSON (or ended incomplete);
    /// `inputJSON` keeps the text, and the stream goes on.
    public internal(set) var inputError: JSONParseError?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

/// A server or MCP tool's result, paired with its call by `toolUseID`.
public struct ToolResultBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The block's `type`, e.g. `web_search_tool_result`.
    public var type: String
    /// The `tool_use_id` of the call this result answers; empty when `start` has none.
    public var toolUseID: String
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool

    /// The `content` field, verbatim.
    public var content: JSONValue? { start["content"] }
}

/// A compaction summary (`compaction_delta` replaces its fields).
public struct CompactionBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The latest `compaction_delta`; its fields (but `type`) replace those of `start`.
    public internal(set) var latestDelta: JSONValue?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool

    /// The summary text: the latest delta's `content`, else `start`'s.
    public var content: String? { value(of: "content")?.stringValue }
    /// The opaque `encrypted_content`: the latest delta's, else `start`'s.
    public var encryptedContent: String? { value(of: "encrypted_content")?.stringValue }

    func value(of key: String) -> JSONValue? {
        latestDelta?[key] ?? start[key]
    }
}

/// Where one model declined and the next continued.
public struct FallbackBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The model that declined (`from.model`).
    public var fromModel: String?
    /// The model that continued (`to.model`).
    public var toModel: String?
    /// Why the handover happened (`trigger`, verbatim).
    public var trigger: JSONValue?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

/// A block kept exactly as it arrived (redacted thinking, container upload,
/// and block types this package does not know). Deltas of unknown types sent
/// to it are kept in `unknownDeltas`.
public struct OpaqueBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The block's `type`, as sent.
    public var type: String
    /// Append-only storage shared by every snapshot, so that keeping each
    /// delta costs O(1) however many arrived, and holding every snapshot of
    /// the stream holds them once.
    public internal(set) var unknownDeltas: AppendOnlyArray<JSONValue>
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

/// One citation of a text block. `kind` names its `type`
/// (`char_location`, `page_location`, `content_block_location`,
/// `web_search_result_location`, `search_result_location`, or a new one);
/// the JSON is kept whole so replay is exact.
public struct Citation: Sendable, Hashable {
    /// The citation object, verbatim.
    public var json: JSONValue

    /// The citation's `type`, e.g. `char_location`.
    public var kind: String? { json["type"]?.stringValue }
    /// The quoted passage (`cited_text`).
    public var citedText: String? { json["cited_text"]?.stringValue }
    /// The cited page's `url` (web search citations).
    public var url: String? { json["url"]?.stringValue }
    /// The cited source's `title`.
    public var title: String? { json["title"]?.stringValue }
    /// The cited document's index among the request's documents (`document_index`); nil when absent or not an integer.
    public var documentIndex: Int? { try? json["document_index"]?.numberValue?.int() }
}
