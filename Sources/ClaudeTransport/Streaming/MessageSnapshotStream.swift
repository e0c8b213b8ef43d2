import ClaudeStreaming
import Synchronization

// The hand-over between the network (a URLSession delegate queue) and the
// consuming task. Snapshots are cumulative, so only the newest undelivered
// one is kept: a slow consumer skips intermediate snapshots and never loses
// content, and memory stays at one snapshot (which shares its text storage
// with the accumulator) however far the network runs ahead. The final
// snapshot is always delivered, then the end (nil) or the error.
//
// Cancelling the consuming task, or dropping the iterator, cancels the
// URLSessionTask and the driving task, which closes the connection.

/// The snapshots of one streamed response, newest only (see above); ends
/// with the complete message or throws a ``TransportError``.
public struct MessageSnapshotStream: AsyncSequence, Sendable {
    public typealias Element = MessageSnapshot
    public typealias Failure = TransportError

    let snapshotChannel: SnapshotChannel

    /// The `request-id` header of the successful response; nil until the
    /// response headers arrived (or when the server sent none).
    public var requestID: String? { snapshotChannel.requestID }

    public func makeAsyncIterator() -> Iterator {
        Iterator(channel: snapshotChannel, guardian: IteratorGuardian(snapshotChannel))
    }

    /// Hands out the newest snapshot at each call; the first call opens the
    /// connection. Ends after `message_stop`; throws ``TransportError`` otherwise.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: SnapshotChannel
        let guardian: IteratorGuardian

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(TransportError) -> MessageSnapshot? {
            try await channel.next()
        }

        public mutating func next() async throws(TransportError) -> MessageSnapshot? {
            try await channel.next()
        }
    }
}

/// Cancels the request when the last copy of an iterator goes away unfinished.
final class IteratorGuardian: Sendable {
    let channel: SnapshotChannel
    init(_ channel: SnapshotChannel) { self.channel = channel }
    deinit { channel.cancel() }
}

/// Where the network delivers snapshots and the consumer waits for them.
final class SnapshotChannel: Sendable {
    typealias Delivery = Result<MessageSnapshot?, TransportError>

    struct State: ~Copyable {
        var pending: MessageSnapshot?
        var latest: MessageSnapshot?
        var end: TransportError??
        var waiter: CheckedContinuation<Delivery, Never>?
        var onEnd: [@Sendable () -> Void] = []
        var started = false
        /// The consumer only wants the end: deliveries do not wake it.
        var onlyFinal = false
        var requestID: String?
        /// When the overall limit runs out, and the limit as configured.
        var deadline: ContinuousClock.Instant?
        var overallTimeout: Double = 0
    }

    private let state = Mutex(State())
    private let start: @Sendable (SnapshotChannel) -> Void

    /// `start` runs once, on the first `next()`, so an unread stream sends nothing.
    init(start: @escaping @Sendable (SnapshotChannel) -> Void) {
        self.start = start
    }

    /// The newest snapshot seen, delivered or not (for error payloads).
    var latest: MessageSnapshot? { state.withLock { $0.latest } }

    var isFinished: Bool { state.withLock { $0.end != nil } }

    /// When the overall limit runs out (nil before it is armed).
    var deadline: ContinuousClock.Instant? { state.withLock { $0.deadline } }

    var requestID: String? { state.withLock { $0.requestID } }

    func setRequestID(_ id: String?) { state.withLock { $0.requestID = id } }

    /// The final snapshot, without waking for the ones before it; nil when
    /// the stream ended without any.
    func final() async throws(TransportError) -> MessageSnapshot? {
        state.withLock { $0.onlyFinal = true }
        var last: MessageSnapshot?
        while let snapshot = try await next() { last = snapshot }
        return last
    }

    func next() async throws(TransportError) -> MessageSnapshot? {
        let mustStart = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        if mustStart { start(self) }
        let delivery = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
                let ready: Delivery? = state.withLock { state in
                    if let snapshot = state.pending {
                        state.pending = nil
                        return .success(snapshot)
                    }
                    if let end = state.end {
                        if let error = end { return .failure(error) }
                        return .success(nil)
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            self.cancel()
        }
        return try delivery.get()
    }

    /// A new cumulative snapshot; replaces an undelivered older one.
    /// Sets the overall limit, counted from now. Every delivery checks it, so
    /// a stream that keeps sending ends on time even when the timer task
    /// (which covers a silent connection) is resumed late on a saturated
    /// cooperative pool. Any value is safe: NaN and negatives are 0, huge
    /// values are a century.
    /// Returns the limit as clamped, for the timer.
    @discardableResult
    func arm(overallTimeout seconds: Double) -> Double {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 100 * 365 * 86_400)
        state.withLock {
            $0.overallTimeout = seconds
            $0.deadline = .now + .nanoseconds(Int64(clamped * 1e9))
        }
        return clamped
    }

    func deliver(_ snapshot: MessageSnapshot) {
        var expired: Double?
        let waiter = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
            guard state.end == nil else { return nil }
            state.latest = snapshot
            if let deadline = state.deadline, ContinuousClock.now >= deadline {
                expired = state.overallTimeout
                return nil
            }
            if !state.onlyFinal, let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = snapshot
            return nil
        }
        if let expired { return cancel(with: .overallTimeout(seconds: expired, snapshot: snapshot)) }
        waiter?.resume(returning: .success(snapshot))
    }

    /// Ends the stream: nil for success, else the error. Only the first end counts.
    func finish(_ error: TransportError?) {
        let (actions, waiter, pending) = state.withLock {
            state -> ([@Sendable () -> Void], CheckedContinuation<Delivery, Never>?, MessageSnapshot?) in
            guard state.end == nil else { return ([], nil, nil) }
            state.end = .some(error)
            let actions = state.onEnd
            state.onEnd.removeAll()
            guard let waiter = state.waiter else { return (actions, nil, nil) }
            state.waiter = nil
            // Only a final-only consumer waits while a snapshot is pending: hand it over first.
            let pending = state.pending
            state.pending = nil
            return (actions, waiter, pending)
        }
        for action in actions { action() }
        if let pending {
            waiter?.resume(returning: .success(pending))
        } else {
            waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
        }
    }

    /// Registers clean-up for when the stream ends, however it ends (cancel
    /// the URLSessionTask, the driving task, the timeout timer: all no-ops
    /// once finished); runs it at once if the stream already ended.
    func onEnd(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.end != nil { return true }
            state.onEnd.append(action)
            return false
        }
        if runNow { action() }
    }

    /// Ends the stream as cancelled (or as `error`, a timeout) and closes the connection.
    func cancel(with error: TransportError? = nil) {
        let (actions, waiter, failure) = state.withLock {
            state -> ([@Sendable () -> Void], CheckedContinuation<Delivery, Never>?, TransportError?) in
            guard state.end == nil else { return ([], nil, nil) }
            let failure = error ?? .cancelled(snapshot: state.latest)
            state.end = .some(failure)
            state.pending = nil
            let actions = state.onEnd
            state.onEnd.removeAll()
            let waiter = state.waiter
            state.waiter = nil
            return (actions, waiter, failure)
        }
        for action in actions { action() }
        if let waiter, let failure { waiter.resume(returning: .failure(failure)) }
    }
}
