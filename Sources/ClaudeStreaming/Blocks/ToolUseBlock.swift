// `tool_use`, `server_tool_use` and `mcp_tool_use`: a call whose input
// arrives as JSON text in `input_json_delta`s, parsed as it streams
// (Accumulation/StreamingBlocks.swift) and finished when the block stops.

public import IncrementalJSON

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
    /// Read its bytes with `withUTF8` (never a copy): while a caller holds
    /// snapshots, it may be a slice of storage shared with the blocks
    /// before it, which `utf8` copies out.
    public internal(set) var inputJSON: AppendOnlyText
    /// Set when the input text is not valid JSON (or ended incomplete);
    /// `inputJSON` keeps the text, and the stream goes on.
    public internal(set) var inputError: JSONParseError?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

extension ToolUseBlock: ContentBlockKind {
    static let types: Set<String> = ["tool_use", "server_tool_use", "mcp_tool_use"]

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(
            start: start, kind: Kind(rawValue: type) ?? .toolUse,
            id: start["id"]?.stringValue ?? "", name: start["name"]?.stringValue ?? "",
            input: start["input"] ?? JSONValue.object([]), inputJSON: AppendOnlyText(),
            inputError: nil, isComplete: isComplete)
    }

    var apiType: String { kind.rawValue }
    var wrapped: ContentBlock { .toolUse(self) }

    mutating func finishStreaming(parser: IncrementalJSONParser?) {
        guard inputError == nil, !inputJSON.isEmpty else { return }
        var active = parser ?? IncrementalJSONParser()
        do throws(JSONParseError) {
            input = try active.finish()
        } catch {
            inputError = error
        }
    }

    var blockJSON: JSONValue { start.replacingFields([("input", finalInput)]) }

    var detail: String {
        let shown = input.compactJSON
        let cut = shown.count > 60 ? String(shown.prefix(60)) + "…" : shown
        return "\(name) \(id) \(cut)" + (inputError.map { ", input is not JSON: \($0)" } ?? "")
    }

    /// The input to replay: the parsed value when the text was valid JSON;
    /// the start's input when no delta carried text; otherwise (the text is
    /// invalid or was cut off) the part of it that parsed, with a string that
    /// never closed left out, as the official SDKs do.
    public var finalInput: JSONValue {
        if inputJSON.isEmpty { return start["input"] ?? .object([]) }
        if inputError == nil && input.isComplete { return input }
        return inputJSON.withUTF8 { bytes in
            var parser = IncrementalJSONParser(options: JSONParserOptions(partialStrings: .hidden))
            let end = Swift.min(inputError?.offset ?? bytes.count, bytes.count)
            do throws(JSONParseError) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<end]))
            } catch {
                return JSONValue.object([])
            }
            return parser.value.map(\.closed) ?? JSONValue.object([])
        }
    }
}
