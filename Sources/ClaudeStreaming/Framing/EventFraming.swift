// Which framing carries the Messages API events. The accumulator takes
// either through the same `feed`; everything after framing (event JSON,
// the hot delta path, snapshots) is shared, so a Bedrock stream and the
// same events over SSE give the same snapshots.

import AWSEventStream

/// How the events of a stream are framed on the wire.
public enum EventFraming: String, Sendable, Hashable, CaseIterable {
    /// `text/event-stream` (the Anthropic API, Vertex AI `:streamRawPredict`).
    case serverSentEvents = "sse"
    /// `application/vnd.amazon.eventstream` (Amazon Bedrock
    /// `InvokeModelWithResponseStream`): each `chunk` message's payload is
    /// `{"bytes":"<base64 of one event>"}`.
    case awsEventStream = "aws-eventstream"

    /// The framing of a body judged from its first bytes: `.awsEventStream`
    /// when they start with a valid event-stream prelude (its CRC matches),
    /// `.serverSentEvents` when they cannot, nil when fewer than 12 bytes
    /// leave it open. Feed more bytes and ask again on nil.
    /// - Complexity: O(1).
    public static func detect(_ prefix: UnsafeRawBufferPointer) -> EventFraming? {
        switch AWSEventStreamParser.startsWithPrelude(prefix) {
        case true?: .awsEventStream
        case false?: .serverSentEvents
        case nil: nil
        }
    }

    /// The framing a `Content-Type` names, nil for other types.
    public init?(contentType: String) {
        let mediaType = contentType.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        switch String(mediaType.filter { $0 != " " && $0 != "\t" }).lowercased() {
        case "text/event-stream": self = .serverSentEvents
        case "application/vnd.amazon.eventstream": self = .awsEventStream
        default: return nil
        }
    }
}
