import Foundation

// What is sent again, how often, and after what wait. The defaults are the
// official SDKs': 2 retries; 408, 409, 429 and every 5xx (529 overloaded
// among them), connection failures and timeouts before the answer; the
// server's `x-should-retry` obeyed either way; its `retry-after-ms`, else
// `retry-after`, as the wait, else an exponential backoff with jitter.
//
// One more failure is retried here that no SDK retries: a stream that broke
// after it began (the connection lost, a cut before `message_stop`, an
// `error` event such as `overloaded_error`). ClaudeSession sends such a
// round again, because its transcript changes only at complete steps, so a
// broken attempt has left nothing behind; MessagesClient itself never
// restarts a stream it has begun to hand out.
//
// Every retry, of either kind, is reported to `onRetry` before its wait, so
// none is silent, and none is sent past `deadline`.

/// Which failures a request is sent again after, how often, and after what wait.
///
/// ```swift
/// var retries = RetryPolicy.standard                      // 2 retries, 0.5 s backoff doubling to 8 s
/// retries.onRetry = { attempt in log("\(attempt)") }      // "retry 1 of 2 in 0.43 s after HTTP 529 …"
/// let client = MessagesClient(configuration: ClientConfiguration(credentials: .apiKey(key), retryPolicy: retries))
/// ```
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (0: never retry).
    public var maxRetries: Int
    /// The first computed wait, in seconds; each retry doubles it.
    public var baseDelay: Double
    /// The longest computed wait, in seconds.
    public var maxDelay: Double
    /// The longest wait a server may ask for (`retry-after-ms`,
    /// `retry-after`), in seconds; an answer that asks for longer is not
    /// retried: the caller sees its ``HTTPFailure/retryAfter`` and decides.
    public var maxRetryAfter: Double
    /// A computed wait is shortened by up to this fraction at random (0.25:
    /// to between 75% and 100%), so that clients that failed together do
    /// not retry together. A wait the server asked for is kept exact.
    public var jitter: Double
    /// Whether a session sends a round again when its stream broke after it
    /// began (see ``TransportError/isRetryable``); MessagesClient alone
    /// never restarts a stream.
    public var restartsBrokenStreams: Bool
    /// No retry is sent after this instant, and no wait runs past it (a
    /// run's own deadline, such as `chat --timeout`); nil: none beyond the
    /// request's ``ClientConfiguration/overallTimeout``.
    public var deadline: ContinuousClock.Instant?
    /// Told of every retry before its wait.
    public var onRetry: (@Sendable (RetryAttempt) -> Void)?

    /// A policy; every parameter defaults to the ``standard`` one's value.
    public init(
        maxRetries: Int = 2, baseDelay: Double = 0.5, maxDelay: Double = 8, maxRetryAfter: Double = 60,
        jitter: Double = 0.25, restartsBrokenStreams: Bool = true, deadline: ContinuousClock.Instant? = nil,
        onRetry: (@Sendable (RetryAttempt) -> Void)? = nil
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.jitter = jitter
        self.restartsBrokenStreams = restartsBrokenStreams
        self.deadline = deadline
        self.onRetry = onRetry
    }

    /// 2 retries, waiting what the server asks (up to 60 s) or 0.5 s, 1 s,
    /// … up to 8 s, each shortened by up to 25% at random. The default of
    /// ``ClientConfiguration``.
    public static let standard = RetryPolicy()

    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// The wait before retry number `retry` (0 for the first) after
    /// `error`, in seconds, or nil to give up: the error is not retryable,
    /// no retry is left, or the server asks for more than ``maxRetryAfter``.
    /// `unitRandom` (in 0..<1) picks the jitter.
    ///
    /// Any field value is safe: NaN and negative waits are 0.
    public func delay(after error: TransportError, retry: Int, unitRandom: Double = .random(in: 0..<1)) -> Double? {
        guard retry < maxRetries, error.isRetryable else { return nil }
        if !restartsBrokenStreams, error.brokeStream { return nil }
        if let asked = error.httpFailure?.retryAfter {
            return asked <= maxRetryAfter ? asked : nil
        }
        let doubled = baseDelay * Double(1 << min(max(retry, 0), 30))
        let shortened = min(maxDelay, doubled) * (1 - min(max(jitter, 0), 1) * min(max(unitRandom, 0), 1))
        return shortened.isNaN ? 0 : max(0, shortened)
    }
}

/// One retry, as ``RetryPolicy/onRetry`` hears of it before the wait.
public struct RetryAttempt: Sendable, CustomStringConvertible {
    /// 1 for the first retry of the request.
    public var retry: Int
    /// The policy's ``RetryPolicy/maxRetries``.
    public var maxRetries: Int
    /// What failed.
    public var error: TransportError
    /// Seconds waited before the request is sent again.
    public var delay: Double
    /// Whether the failed attempt had begun to stream: the session sends
    /// the round again and what it showed of the attempt is void.
    public var restartsStream: Bool

    /// A retry of `error`, after `delay` seconds.
    public init(retry: Int, maxRetries: Int, error: TransportError, delay: Double, restartsStream: Bool) {
        self.retry = retry
        self.maxRetries = maxRetries
        self.error = error
        self.delay = delay
        self.restartsStream = restartsStream
    }

    /// `retry 1 of 2 in 0.43 s after HTTP 529 overloaded_error: Overloaded`.
    public var description: String {
        let wait = delay < 10 ? String(format: "%.2f", delay) : secondsText(delay.rounded())
        let what = restartsStream ? "the stream broke (\(error)); sending the round again" : "\(error)"
        return "retry \(retry) of \(maxRetries) in \(wait) s: \(what)"
    }
}
