// Errors of a message stream. Every one says where (event number, byte
// offset) and carries the snapshot built before it, so nothing that arrived
// before the failure is lost.

public import AWSEventStream
public import IncrementalJSON
public import ServerSentEvents

/// The `error` event's payload: `{"type":"error","error":{"type","message"},"request_id"}`.
public struct APIErrorEvent: Sendable, Hashable, Codable {
    /// `overloaded_error`, `rate_limit_error`, `api_error`, … (kept as sent).
    public var type: String
    /// The error's `message`, as sent.
    public var message: String
    /// The event's `request_id`, when it has one.
    public var requestID: String?

    /// An error event of `type` with `message` and `requestID`.
    public init(type: String, message: String, requestID: String? = nil) {
        self.type = type
        self.message = message
        self.requestID = requestID
    }
}

/// Why a stream could not be read to its end.
public struct MessageStreamError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The bytes broke an SSE limit (line or event size).
        case framing(SSEError)
        /// An event's data is not valid JSON.
        case invalidEventJSON(JSONParseError)
        /// The server sent an `error` event.
        case apiError(APIErrorEvent)
        /// Events in an order the protocol forbids (the string says which).
        case protocolViolation(String)
        /// The stream ended before `message_stop`.
        case incomplete
        /// The bytes are not a valid AWS event stream (Bedrock framing):
        /// a CRC, a length, a header or a limit.
        case eventStreamFraming(AWSEventStreamError)
        /// The AWS event stream sent an exception (or error) message, e.g.
        /// Bedrock's `throttlingException` or `modelStreamErrorException`.
        case eventStreamException(EventStreamException)
        /// A Bedrock `chunk` payload is not `{"bytes":"<base64>"}` (the string says what).
        case invalidChunkPayload(String)
        /// The events are legacy Text Completions (`{"completion":…}`, from
        /// `claude-v2` or `claude-instant` on Bedrock), not Messages API events.
        case legacyTextCompletions
    }

    /// What went wrong.
    public var kind: Kind
    /// Number of the event (0-based, counting every dispatched SSE event) at
    /// fault; nil when the failure is not tied to one event.
    public var eventIndex: Int?
    /// Byte offset in the stream: the end of the faulty event, or where the
    /// framing failed, or the stream's length for `incomplete`. For an AWS
    /// event stream: the end of the event's message, or the start of an
    /// exception or malformed chunk message.
    public var byteOffset: Int
    /// The message as it stood before the failure (nil before `message_start`).
    public var snapshot: MessageSnapshot?
    /// Messages that completed earlier in the same stream.
    public var completedMessages: [MessageSnapshot]

    /// An error of `kind` at `eventIndex` and `byteOffset`, carrying what was built before it.
    public init(kind: Kind, eventIndex: Int?, byteOffset: Int, snapshot: MessageSnapshot?, completedMessages: [MessageSnapshot] = []) {
        self.kind = kind
        self.eventIndex = eventIndex
        self.byteOffset = byteOffset
        self.snapshot = snapshot
        self.completedMessages = completedMessages
    }

    /// `event N, offset M: reason` (the CLI's error line).
    public var description: String {
        let place = eventIndex.map { "event \($0), offset \(byteOffset)" } ?? "offset \(byteOffset)"
        return "\(place): \(reason)"
    }

    /// The reason alone.
    public var reason: String {
        switch kind {
        case .framing(let error): "SSE framing: \(error)"
        case .invalidEventJSON(let error): "event data is not valid JSON (\(error))"
        case .apiError(let error):
            "API error \(error.type): \(error.message)" + (error.requestID.map { " (request \($0))" } ?? "")
        case .protocolViolation(let what): "protocol violation: \(what)"
        case .incomplete: "stream ended before message_stop"
        case .eventStreamFraming(let error): "AWS event-stream framing: \(error)"
        case .eventStreamException(let exception): "stream exception \(exception.type): \(exception.message)"
        case .invalidChunkPayload(let what): "invalid Bedrock chunk: \(what)"
        case .legacyTextCompletions:
            "legacy Text Completions payload ({\"completion\": …}); this package reads Messages API streams only"
        }
    }
}
