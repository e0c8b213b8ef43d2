/// A dispatched event, owned: safe to store and send across tasks.
///
/// Made from an ``SSEEventView`` with `makeEvent()`.
public struct ServerSentEvent: Sendable, Hashable, Codable {
    /// The `event` field of the block, or nil when it had none or an empty one
    /// (a browser dispatches those as `"message"`).
    public var eventType: String?
    /// The data buffer: `data` lines joined with LF, final LF removed.
    public var data: [UInt8]
    /// The last event ID at dispatch ("" when none was ever set).
    public var lastEventID: String
    /// The last valid `retry` value in this event's block.
    public var retry: Int?
    /// Stream offset of the terminator of the blank line that dispatched it.
    public var streamOffset: Int

    /// An event; each parameter as the property of that name.
    public init(eventType: String? = nil, data: [UInt8], lastEventID: String = "", retry: Int? = nil, streamOffset: Int = 0) {
        self.eventType = eventType
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
        self.streamOffset = streamOffset
    }

    /// The data decoded as UTF-8; invalid sequences become U+FFFD, as the
    /// event-stream spec requires.
    public var dataString: String { String(decoding: data, as: UTF8.self) }
}
