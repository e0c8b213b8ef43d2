/// Upper bounds on what an ``AWSEventStreamParser`` accepts, so a hostile or
/// broken stream cannot make it buffer without bound.
///
/// A message is checked against them as soon as its 12-byte prelude is in,
/// before any of its body is buffered.
public struct AWSEventStreamLimits: Sendable, Hashable {
    /// Largest message accepted, in bytes, prelude and CRCs included. The
    /// AWS event-stream specification caps messages at 16 MiB.
    public var maxMessageBytes: Int
    /// Largest header block accepted, in bytes. The specification caps
    /// headers at 128 KiB.
    public var maxHeaderBytes: Int

    /// Limits of `maxMessageBytes` (16 MiB by default) and `maxHeaderBytes`
    /// (128 KiB by default); a negative value counts as 0.
    public init(maxMessageBytes: Int = 16 << 20, maxHeaderBytes: Int = 128 << 10) {
        self.maxMessageBytes = max(0, maxMessageBytes)
        self.maxHeaderBytes = max(0, maxHeaderBytes)
    }
}
