// Every `*_tool_result` block that names its call: web search, web fetch,
// code execution, bash, text editor, tool search, MCP, advisor, and result
// types not yet known. It arrives whole; its content is its start's.

public import IncrementalJSON

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

extension ToolResultBlock: ContentBlockKind {
    static let types: Set<String> = []

    /// Any `…_tool_result` type with a `tool_use_id`: new server tools need no code here.
    static func takes(type: String, start: JSONValue) -> Bool {
        type.hasSuffix("_tool_result") && start["tool_use_id"]?.stringValue != nil
    }

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(start: start, type: type, toolUseID: start["tool_use_id"]?.stringValue ?? "", isComplete: isComplete)
    }

    var apiType: String { type }
    var wrapped: ContentBlock { .toolResult(self) }
    var detail: String { "for \(toolUseID)" }
}
