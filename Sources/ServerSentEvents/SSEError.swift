/// A limit from ``SSELimits`` was crossed.
///
/// After an `SSEError` the parser is unusable: every later `feed` throws the
/// same error again (the stream is no longer framed in a known place).
public struct SSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit was crossed.
    public enum Reason: Sendable, Hashable {
        /// A line (without terminator) was longer than `limit` bytes.
        case lineTooLong(limit: Int)
        /// An event's data buffer grew larger than `limit` bytes.
        case eventTooLarge(limit: Int)
    }

    /// Which limit, and its value.
    public var reason: Reason
    /// Byte offset in the whole stream of the first byte past the limit.
    public var offset: Int

    /// An error for `reason` at stream byte `offset`.
    public init(reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .lineTooLong(let limit): "offset \(offset): line longer than \(limit) bytes"
        case .eventTooLarge(let limit): "offset \(offset): event data larger than \(limit) bytes"
        }
    }
}
