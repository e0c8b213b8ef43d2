public import ClaudeStreaming
public import ClaudeTransport

// What the session needs from a transport: send a request, report each
// snapshot, return the final one; retry from a budget the session shares
// (it restarts a round whose stream broke from the same budget); and, for
// `countTokens`, count a request's input tokens. `MessagesClient` is the
// real one; tests and benchmarks give recorded bytes instead.

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

    /// What a round retries: the session restarts a round whose stream
    /// broke from a `RetryBudget` of this policy. `RetryPolicy.none` by default.
    var retryPolicy: RetryPolicy { get }

    /// As ``streamMessage(_:onSnapshot:)``, taking any retry of its own from
    /// `budget`, so the transport's retries and the session's restarts of
    /// one round share one count. By default the budget is not used.
    func streamMessage(
        _ request: MessageRequest, retries budget: RetryBudget,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot
}

extension MessageStreaming {
    public var retryPolicy: RetryPolicy { .none }

    public func streamMessage(
        _ request: MessageRequest, retries budget: RetryBudget,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        try await streamMessage(request, onSnapshot: onSnapshot)
    }
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

    public var retryPolicy: RetryPolicy { configuration.retryPolicy }

    public func streamMessage(
        _ request: MessageRequest, retries budget: RetryBudget,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        try await send(request, retries: budget, onSnapshot: onSnapshot)
    }
}
