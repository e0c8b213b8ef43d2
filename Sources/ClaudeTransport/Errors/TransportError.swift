import ClaudeStreaming

/// Everything that can end a streamed request other than a complete message.
/// Failures after the first byte carry the snapshot built so far, so a
/// caller can show or keep the partial answer.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    /// No usable credential; raised before any network traffic.
    case missingCredential(String)
    /// The request was refused by the encoder (a model would reject it).
    case invalidRequest(RequestError)
    /// An HTTP error answer before the stream started.
    case http(HTTPFailure)
    /// The stream itself failed: an `error` event, a protocol violation, bad
    /// framing, or an end before `message_stop` (kind `.incomplete`).
    case stream(MessageStreamError)
    /// The connection dropped mid-stream.
    case connectionLost(reason: String, snapshot: MessageSnapshot?)
    /// No byte arrived for `seconds`.
    case idleTimeout(seconds: Double, snapshot: MessageSnapshot?)
    /// The whole request took longer than `seconds`.
    case overallTimeout(seconds: Double, snapshot: MessageSnapshot?)
    /// The consuming task was cancelled; the connection was closed.
    case cancelled(snapshot: MessageSnapshot?)
    /// No response at all (connection refused, DNS, TLS).
    case network(String)
    /// The bearer-token provider failed.
    case credentialProvider(String)
    /// A 2xx answer that is not what was asked for (a Models API body without an id…).
    case invalidResponse(String)

    /// The snapshot built before the failure, if the stream had started.
    public var snapshot: MessageSnapshot? {
        switch self {
        case .stream(let error): error.snapshot
        case .connectionLost(_, let snapshot), .idleTimeout(_, let snapshot),
            .overallTimeout(_, let snapshot), .cancelled(let snapshot):
            snapshot
        default: nil
        }
    }

    /// The HTTP failure, when this is one.
    public var httpFailure: HTTPFailure? {
        if case .http(let failure) = self { return failure }
        return nil
    }

    public var description: String {
        switch self {
        case .missingCredential(let what): "missing credential: \(what)"
        case .invalidRequest(let error): "invalid request: \(error)"
        case .http(let failure): failure.description
        case .stream(let error): "stream failed: \(error)"
        case .connectionLost(let reason, let snapshot): "connection lost mid-stream: \(reason)" + Self.progress(snapshot)
        case .idleTimeout(let seconds, let snapshot):
            "no data for \(secondsText(seconds)) s (idle timeout)" + Self.progress(snapshot)
        case .overallTimeout(let seconds, let snapshot):
            "request exceeded \(secondsText(seconds)) s (overall timeout)" + Self.progress(snapshot)
        case .cancelled(let snapshot): "cancelled" + Self.progress(snapshot)
        case .network(let reason): "network error: \(reason)"
        case .credentialProvider(let reason): "token provider failed: \(reason)"
        case .invalidResponse(let reason): "invalid response: \(reason)"
        }
    }

    static func progress(_ snapshot: MessageSnapshot?) -> String {
        snapshot == nil ? " (before the first event)" : " (partial message kept)"
    }
}
