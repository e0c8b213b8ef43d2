// A `fallback` block: one model declined and the next continued. It
// arrives whole.

public import IncrementalJSON

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

extension FallbackBlock: ContentBlockKind {
    static let types: Set<String> = ["fallback"]

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(
            start: start, fromModel: start["from"]?["model"]?.stringValue,
            toModel: start["to"]?["model"]?.stringValue, trigger: start["trigger"],
            isComplete: isComplete)
    }

    var apiType: String { "fallback" }
    var wrapped: ContentBlock { .fallback(self) }
    var detail: String { "\(fromModel ?? "?") → \(toModel ?? "?")" }
}
