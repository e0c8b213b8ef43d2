/// How partial strings appear in snapshots.
public enum PartialStringPolicy: Sendable, Hashable {
    /// A growing string shows its text so far (incomplete until its closing quote).
    case visible
    /// An incomplete string is not shown at all (nor, in an object, its key).
    case hidden
}

/// Limits and policies of ``IncrementalJSONParser``.
public struct JSONParserOptions: Sendable, Hashable {
    /// Deepest allowed nesting of arrays and objects (a top-level `[]` is depth 1).
    public var maxDepth: Int = 512
    /// Largest allowed total input in bytes; nil for no limit.
    public var maxBytes: Int? = nil
    /// Largest allowed string (key or value), in decoded UTF-8 bytes; nil for no limit.
    public var maxStringBytes: Int? = nil
    /// Whether incomplete strings appear in snapshots.
    public var partialStrings: PartialStringPolicy = .visible

    /// Options; each parameter as the property of that name.
    public init(
        maxDepth: Int = 512,
        maxBytes: Int? = nil,
        maxStringBytes: Int? = nil,
        partialStrings: PartialStringPolicy = .visible
    ) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.maxStringBytes = maxStringBytes
        self.partialStrings = partialStrings
    }
}
