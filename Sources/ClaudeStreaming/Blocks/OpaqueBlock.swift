// Blocks kept exactly as they arrived: `redacted_thinking`,
// `container_upload`, and every block type this package does not know
// (the catch-all kind, last in `ContentBlock.kinds`). Deltas of types no
// kind registered are kept for the unknown ones.

public import IncrementalJSON

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

extension OpaqueBlock: ContentBlockKind {
    static let types: Set<String> = ["redacted_thinking", "container_upload"]

    /// Takes whatever no other kind took.
    static func takes(type: String, start: JSONValue) -> Bool { true }

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(start: start, type: type, unknownDeltas: [], isComplete: isComplete)
    }

    var apiType: String { type }

    var wrapped: ContentBlock {
        switch type {
        case "redacted_thinking": .redactedThinking(self)
        case "container_upload": .containerUpload(self)
        default: .unknown(self)
        }
    }

    mutating func keepUnknownDelta(_ delta: JSONValue) -> Bool {
        guard !Self.types.contains(type) else { return false }
        unknownDeltas.append(delta)
        return true
    }

    var detail: String {
        "\(start.compactJSON.utf8.count) bytes kept verbatim"
            + (unknownDeltas.isEmpty ? "" : ", \(unknownDeltas.count) unknown deltas")
    }
}
