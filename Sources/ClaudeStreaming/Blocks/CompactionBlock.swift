// A `compaction` block: the summary that replaces earlier context. Each
// `compaction_delta` replaces the fields it names.

public import IncrementalJSON

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

extension CompactionBlock: ContentBlockKind {
    static let types: Set<String> = ["compaction"]
    static let deltas: [String: Delta<Self>] = ["compaction_delta": Delta { $0.latestDelta = $1 }]

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        self.init(start: start, latestDelta: nil, isComplete: isComplete)
    }

    var apiType: String { "compaction" }
    var wrapped: ContentBlock { .compaction(self) }

    var blockJSON: JSONValue {
        guard let delta = latestDelta?.objectValue else { return start }
        return start.replacingFields(delta.entries.filter { $0.key != "type" }.map { ($0.key, $0.value) })
    }

    var detail: String { "\(content?.count ?? 0) chars" + (encryptedContent == nil ? "" : ", encrypted") }
}
