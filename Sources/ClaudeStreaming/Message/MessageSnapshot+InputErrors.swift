// Tool calls whose input did not parse. The block keeps the raw text and the
// error, and ``MessageSnapshot/messageJSON()`` writes only the part that
// parsed, so a caller that runs tools must ask for this list: a call with a
// cut-down input must be reported (or answered with an error result), never
// run.

public import IncrementalJSON

/// A tool-use block whose input text is not valid JSON, or ended incomplete.
public struct ToolInputError: Sendable, Hashable, CustomStringConvertible {
    /// Index of the block in the message's content.
    public var blockIndex: Int
    /// The call's `id`, as the block started.
    public var toolUseID: String
    /// The tool's `name`, as the block started.
    public var toolName: String
    /// Where the input text first broke (offset within the input's JSON text) and why.
    public var error: JSONParseError

    /// The failure of block `blockIndex`, a call to `toolName` with id `toolUseID`.
    public init(blockIndex: Int, toolUseID: String, toolName: String, error: JSONParseError) {
        self.blockIndex = blockIndex
        self.toolUseID = toolUseID
        self.toolName = toolName
        self.error = error
    }

    /// `block N (tool NAME, id ID): input is not valid JSON: offset M: reason`.
    public var description: String {
        "block \(blockIndex) (tool \(toolName), id \(toolUseID)): input is not valid JSON: \(error)"
    }
}

extension MessageSnapshot {
    /// Every tool-use block (client, server or MCP tool) whose input failed
    /// to parse, in content order. Empty when every input is valid JSON or
    /// still streaming.
    ///
    /// - Complexity: O(number of blocks).
    public var inputErrors: [ToolInputError] {
        content.enumerated().compactMap { index, block in
            guard case .toolUse(let call) = block, let error = call.inputError else { return nil }
            return ToolInputError(blockIndex: index, toolUseID: call.id, toolName: call.name, error: error)
        }
    }
}
