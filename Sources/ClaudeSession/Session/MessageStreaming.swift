public import ClaudeStreaming
public import ClaudeTransport

// What the session needs from a transport: send a request, report each
// snapshot, return the final one; and, for `countTokens`, count a request's
// input tokens. `MessagesClient` is the real one; tests and benchmarks give
// recorded bytes instead.

/// Streams one response per request.
public protocol MessageStreaming: Sendable {
    /// Sends `request` and returns its complete message; with `onSnapshot`,
    /// each snapshot is handed to it as the message grows.
    ///
    /// Cancelling the calling task must end the request (and throw).
    func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot
}

/// Counts the input tokens of a request without running it (`count_tokens`).
public protocol TokenCounting: Sendable {
    /// The input tokens `request` would take.
    func countTokens(_ request: MessageRequest) async throws(TransportError) -> TokenCount
}

extension MessagesClient: MessageStreaming, TokenCounting {
    public func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        try await send(request, onSnapshot: onSnapshot)
    }
}
