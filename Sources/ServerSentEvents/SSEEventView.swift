/// A dispatched event, borrowed from the parser's buffers (or straight from
/// the chunk being fed): every pointer is valid only inside the `onEvent`
/// callback. Copy out with `makeEvent()` to keep it.
public struct SSEEventView {
    /// The data buffer, final LF removed.
    public var data: UnsafeRawBufferPointer
    /// The `event` field, nil when the block had none or an empty one.
    public var eventType: UnsafeRawBufferPointer?
    /// The WHATWG last event ID at dispatch (empty when none).
    public var lastEventID: UnsafeRawBufferPointer
    /// The last valid `retry` value in this event's block.
    public var retry: Int?
    /// Stream offset of the terminator of the blank line that dispatched it.
    public var streamOffset: Int

    /// A view of these buffers; each parameter as the property of that name.
    public init(data: UnsafeRawBufferPointer, eventType: UnsafeRawBufferPointer?, lastEventID: UnsafeRawBufferPointer, retry: Int?, streamOffset: Int) {
        self.data = data
        self.eventType = eventType
        self.lastEventID = lastEventID
        self.retry = retry
        self.streamOffset = streamOffset
    }

    /// Copies the event out of the parser's buffers.
    /// - Complexity: O(size of data, event type and id).
    public func makeEvent() -> ServerSentEvent {
        ServerSentEvent(
            eventType: eventType.map { String(decoding: $0, as: UTF8.self) },
            data: Array(data),
            lastEventID: String(decoding: lastEventID, as: UTF8.self),
            retry: retry,
            streamOffset: streamOffset)
    }

    /// The data decoded as UTF-8; invalid sequences become U+FFFD.
    public var dataString: String { String(decoding: data, as: UTF8.self) }
}
