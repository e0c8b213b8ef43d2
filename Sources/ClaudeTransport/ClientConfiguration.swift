import ClaudeStreaming
import Foundation

/// Where and how a ``MessagesClient`` sends requests.
public struct ClientConfiguration: Sendable {
    /// `https://api.anthropic.com`, or a relay; `v1/messages` is appended.
    public var baseURL: URL
    /// Nil means "none configured": streaming fails with
    /// ``TransportError/missingCredential(_:)`` before connecting.
    public var credentials: Credentials?
    /// Longest wait for the next byte, in seconds.
    public var idleTimeout: Double
    /// Longest time for the whole request, first byte to `message_stop`, in seconds.
    public var overallTimeout: Double
    /// What to do with 429 and 529 answers before the stream starts.
    public var retryPolicy: RetryPolicy
    /// How each response's stream is read: limits, structured output. The
    /// client sets the framing from ``endpoint`` and the response's
    /// `request-id` itself, and parses every text block as JSON when the
    /// request has an output schema.
    public var accumulatorOptions: MessageAccumulatorOptions
    /// An error body longer than this is cut (its JSON then reads as text).
    public var maxErrorBodyBytes: Int
    /// The Anthropic API (default), Amazon Bedrock or Google Vertex AI.
    public var endpoint: ClaudeEndpoint = .anthropic

    /// `https://api.anthropic.com`, the default ``baseURL``.
    public static let anthropicAPI: URL = {
        guard let url = URL(string: "https://api.anthropic.com") else { preconditionFailure("constant URL") }
        return url
    }()

    /// A configuration sending to `baseURL` with `credentials`.
    ///
    /// - Parameters:
    ///   - baseURL: the API's origin (the Anthropic API by default).
    ///   - credentials: the credential of every request; nil fails each request before connecting.
    ///   - idleTimeout: longest wait for the next byte, in seconds (60).
    ///   - overallTimeout: longest time for a whole request, in seconds (600).
    ///   - retryPolicy: retries of 429 and 529 before the stream starts (none).
    ///   - accumulatorOptions: how each stream is read.
    ///   - maxErrorBodyBytes: longest error body read (1 MiB).
    public init(
        baseURL: URL = ClientConfiguration.anthropicAPI,
        credentials: Credentials?,
        idleTimeout: Double = 60,
        overallTimeout: Double = 600,
        retryPolicy: RetryPolicy = .none,
        accumulatorOptions: MessageAccumulatorOptions = .init(),
        maxErrorBodyBytes: Int = 1 << 20
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.idleTimeout = idleTimeout
        self.overallTimeout = overallTimeout
        self.retryPolicy = retryPolicy
        self.accumulatorOptions = accumulatorOptions
        self.maxErrorBodyBytes = maxErrorBodyBytes
    }
}

/// Opt-in retries of 429 (rate limited) and 529 (overloaded) answers that
/// arrive before the first byte of the stream. Nothing else is retried, and
/// nothing after the stream has started; every retry is reported to
/// ``onRetry`` before its wait, so none is silent.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (0: never retry).
    public var maxRetries: Int
    /// Wait when the answer names none: `baseDelay * 2^retry`, capped by ``maxDelay``.
    public var baseDelay: Double
    /// Longest wait; a longer `retry-after` ends the retries (the caller decides).
    public var maxDelay: Double
    /// Called with the failure and the wait in seconds before each retry.
    public var onRetry: (@Sendable (HTTPFailure, Double) -> Void)?

    /// Up to `maxRetries` retries, waiting `retry-after` or `baseDelay * 2^retry`
    /// seconds (at most `maxDelay`), each reported to `onRetry` first.
    public init(
        maxRetries: Int, baseDelay: Double = 1, maxDelay: Double = 30,
        onRetry: (@Sendable (HTTPFailure, Double) -> Void)? = nil
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.onRetry = onRetry
    }

    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// The wait before retry number `retry` (0-based), or nil to give up.
    public func delay(after failure: HTTPFailure, retry: Int) -> Double? {
        guard failure.isRetryable, retry < maxRetries else { return nil }
        if let asked = failure.retryAfter { return asked <= maxDelay ? asked : nil }
        return min(maxDelay, baseDelay * Double(1 << min(retry, 20)))
    }
}
