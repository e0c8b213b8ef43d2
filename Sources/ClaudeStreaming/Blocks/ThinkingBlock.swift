// A `thinking` block: extended thinking, whose text streams live and whose
// signature arrives in one `signature_delta` just before it stops.

public import IncrementalJSON

/// Extended thinking: its text and the signature that authenticates it.
public struct ThinkingBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The thinking text so far: `start`'s `thinking` followed by every `thinking_delta`.
    /// Read its bytes with `withUTF8` (never a copy): while a caller holds
    /// snapshots, it may be a slice of storage shared with the blocks
    /// before it, which `utf8` copies out.
    public internal(set) var thinking: AppendOnlyText
    /// Set by `signature_delta` (sent once, just before the block stops).
    public internal(set) var signature: String?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

extension ThinkingBlock: ContentBlockKind {
    static let types: Set<String> = ["thinking"]

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(
            start: start, thinking: AppendOnlyText(start["thinking"]?.stringValue ?? ""),
            signature: nil, isComplete: isComplete)
    }

    var apiType: String { "thinking" }
    var wrapped: ContentBlock { .thinking(self) }

    var blockJSON: JSONValue {
        // Shared, not decoded: valid UTF-8 for the reason TextBlock gives.
        var fields: [(String, JSONValue)] = [("thinking", JSONValue(.string(thinking)))]
        if let signature, start["signature"]?.stringValue != signature {
            fields.append(("signature", .string(signature)))
        }
        return start.replacingFields(fields)
    }

    var detail: String { "\(thinking.string.count) chars" + (signature == nil ? "" : ", signed") }
}
