import ClaudeStreaming

// ClaudeStreaming knows nothing of credentials, so the errors it raises hold
// the server's words as sent. The transport passes every stream error
// through this before anyone can see it.

extension SecretRedactor {
    /// `error` with every text the server supplied redacted: an `error`
    /// event's type, message and request id, a Bedrock exception's type and
    /// message, a chunk payload complaint, and a protocol violation's
    /// words (they quote block and delta types the server named). Offsets,
    /// event index and the snapshots are kept as they are.
    ///
    /// - Complexity: O(length of those texts).
    public func redact(_ error: MessageStreamError) -> MessageStreamError {
        var redacted = error
        switch error.kind {
        case .apiError(let event):
            redacted.kind = .apiError(
                APIErrorEvent(
                    type: redact(event.type), message: redact(event.message),
                    requestID: event.requestID.map { redact($0) }))
        case .protocolViolation(let what):
            redacted.kind = .protocolViolation(redact(what))
        case .eventStreamException(let exception):
            // A Bedrock exception's type and message are the server's words.
            redacted.kind = .eventStreamException(
                EventStreamException(
                    type: redact(exception.type), message: redact(exception.message)))
        case .invalidChunkPayload(let what):
            redacted.kind = .invalidChunkPayload(redact(what))
        case .framing, .invalidEventJSON, .incomplete, .eventStreamFraming, .legacyTextCompletions:
            break  // made of numbers and the package's own words
        }
        return redacted
    }
}
