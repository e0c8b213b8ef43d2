/// Upper bounds on what an `SSEParser` buffers, so a hostile or broken
/// stream cannot make it hold unbounded memory.
///
/// Crossing a limit makes `SSEParser.feed` throw an ``SSEError`` naming the
/// stream offset of the first byte past the limit.
public struct SSELimits: Sendable, Hashable {
    /// Longest line accepted, in bytes, not counting its terminator.
    public var maxLineBytes: Int
    /// Largest data buffer one event may build up, in bytes (data lines
    /// joined with LF, final LF not counted).
    public var maxEventBytes: Int

    /// Limits of `maxLineBytes` per line and `maxEventBytes` per event
    /// (16 MiB and 64 MiB by default); negative values count as 0.
    public init(maxLineBytes: Int = 16 << 20, maxEventBytes: Int = 64 << 20) {
        self.maxLineBytes = max(0, maxLineBytes)
        self.maxEventBytes = max(0, maxEventBytes)
    }
}
