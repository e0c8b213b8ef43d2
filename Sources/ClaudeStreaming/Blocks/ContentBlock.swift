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
//
// Each type's behaviour is in its own file (TextBlock.swift, …; see
// ContentBlockKind.swift). This file is where the types are registered: a
// type is its public case below, its line in `visit`, and its entry in
// `kinds`. Code that treats a type specially (live streaming, the
// renderer) names that type; none of it has to list every type.

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
    public var type: String { visit(TypeName()) }

    /// False until the block's `content_block_stop` arrived.
    public var isComplete: Bool { visit(IsComplete()) }

    /// The `content_block_start` JSON, verbatim.
    public var start: JSONValue { visit(Start()) }
}

// MARK: Registration

extension ContentBlock {
    /// Every block kind, in the order `fromStart` asks `takes` (after the
    /// `types` table); the catch-all ``OpaqueBlock`` last.
    static let kinds: [any ContentBlockKind.Type] = [
        TextBlock.self,
        ThinkingBlock.self,
        ToolUseBlock.self,
        ToolResultBlock.self,
        CompactionBlock.self,
        FallbackBlock.self,
        OpaqueBlock.self,
    ]

    /// The one switch from a case to its kind.
    @inline(__always)
    func visit<Reader: BlockReader>(_ reader: Reader) -> Reader.Result {
        switch self {
        case .text(let b): reader.read(b)
        case .thinking(let b): reader.read(b)
        case .toolUse(let b): reader.read(b)
        case .toolResult(let b): reader.read(b)
        case .compaction(let b): reader.read(b)
        case .fallback(let b): reader.read(b)
        case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): reader.read(b)
        }
    }
}
