import Synchronization

/// The retries left to one request, shared by every layer that retries it:
/// MessagesClient for answers before the stream, ClaudeSession for a round
/// whose stream broke. Shared, so a round makes at most
/// 1 + ``RetryPolicy/maxRetries`` requests however its attempts fail.
public final class RetryBudget: Sendable {
    /// What is retried, how often and after what wait.
    public let policy: RetryPolicy
    private let used = Mutex(0)

    /// A budget of `policy.maxRetries` retries.
    public init(_ policy: RetryPolicy) {
        self.policy = policy
    }

    /// A century: any longer wait is read as this one, so the clock
    /// arithmetic cannot overflow.
    static let longestWait = 100 * 365 * 86_400.0

    /// Retries taken so far.
    public var retriesUsed: Int { used.withLock { $0 } }

    /// Takes one retry after `error`: counts it, tells
    /// ``RetryPolicy/onRetry``, and returns the seconds to wait before
    /// sending again. Nil when the policy gives up (see
    /// ``RetryPolicy/delay(after:retry:unitRandom:)``), or when the wait
    /// would end past ``RetryPolicy/deadline`` or `deadline`.
    public func take(after error: TransportError, deadline: ContinuousClock.Instant? = nil) -> Double? {
        let taken = used.withLock { used -> (Int, Double)? in
            guard let delay = policy.delay(after: error, retry: used) else { return nil }
            for limit in [policy.deadline, deadline].compactMap({ $0 }) where ContinuousClock.now + .seconds(min(delay, Self.longestWait)) > limit {
                return nil
            }
            used += 1
            return (used, min(delay, Self.longestWait))
        }
        guard let (retry, delay) = taken else { return nil }
        policy.onRetry?(
            RetryAttempt(retry: retry, maxRetries: policy.maxRetries, error: error, delay: delay, restartsStream: error.brokeStream))
        return delay
    }
}
