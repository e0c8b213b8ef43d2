import ClaudeStreaming

// Which failures sending the same request again may cure. Transient ones
// are: the server said so (a retryable status, `x-should-retry: true`), the
// connection failed or went silent, or the stream broke off or reported a
// transient `error` event. A request the server understood and refused
// (400, 401, 403, 404, 413), bytes that break the protocol, a deadline that
// passed, a cancellation and a missing credential are not: sending again
// would meet the same answer, or do what the caller stopped.

extension TransportError {
    /// Whether sending the same request again may succeed (see
    /// ``HTTPFailure/isRetryable`` for answers before the stream); the
    /// retry policy decides whether it is sent.
    public var isRetryable: Bool {
        switch self {
        case .http(let failure): failure.isRetryable
        case .network, .connectionLost, .idleTimeout: true
        case .stream(let error): error.isTransient
        case .missingCredential, .invalidRequest, .overallTimeout, .cancelled, .credentialProvider, .invalidResponse: false
        }
    }

    /// Whether the failure came after the stream had begun: the attempt may
    /// have shown a partial message, which a retry replaces.
    public var brokeStream: Bool {
        switch self {
        case .stream, .connectionLost: true
        case .idleTimeout(_, let snapshot): snapshot != nil
        default: false
        }
    }
}

/// The `error` event types that say "try again": the event forms of 429,
/// 500, 504 and 529.
let transientErrorEventTypes: Set<String> = ["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]

/// Bedrock's exception messages of the same meaning.
let transientEventStreamExceptions: Set<String> = [
    "throttlingException", "internalServerException", "serviceUnavailableException",
]

extension MessageStreamError {
    /// A cut before `message_stop`, or an `error` event (or Bedrock
    /// exception) of a transient type; never a protocol or framing fault.
    var isTransient: Bool {
        switch kind {
        case .incomplete: true
        case .apiError(let event): transientErrorEventTypes.contains(event.type)
        case .eventStreamException(let exception): transientEventStreamExceptions.contains(exception.type)
        case .framing, .invalidEventJSON, .protocolViolation, .eventStreamFraming, .invalidChunkPayload, .legacyTextCompletions: false
        }
    }
}
