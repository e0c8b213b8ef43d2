import ClaudeStreaming
public import ClaudeTransport
import Synchronization

// The async edge of the session: the loop runs in a task started by the
// first `next()`, reporting snapshots as it goes. Snapshots are cumulative,
// so a slow consumer gets the newest one of a round; but the last snapshot
// of every round (and of every attempt of it) is always handed out before
// the next one's first, so text derived across rounds (`textDeltas`,
// `blockEvents`) loses nothing, and a restart is never skipped.
// Cancelling the consuming task, or dropping the iterator, cancels the loop's
// task, which cancels the HTTP request; the transcript keeps the last
// complete step.

/// Cumulative snapshots of a session's response, across every round; throws
/// ``SessionError``. ``collect()`` gives the final response.
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = ResponseSnapshot
    public typealias Failure = SessionError

    typealias Body = @Sendable (_ onSnapshot: @escaping @Sendable (ResponseSnapshot) -> Void) async throws(SessionError) -> SessionResponse
    let body: Body
    /// The session's transcript, for the error a cancelled consumer gets.
    let transcript: @Sendable () -> SessionTranscript

    init(transcript: @escaping @Sendable () -> SessionTranscript, body: @escaping Body) {
        self.transcript = transcript
        self.body = body
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(mailbox: SnapshotMailbox(), body: body, transcript: transcript)
    }

    /// Runs the whole call, skipping the snapshots, and returns its final response.
    ///
    /// - Throws: ``SessionError`` as the iteration would.
    public func collect() async throws(SessionError) -> SessionResponse {
        var iterator = makeAsyncIterator()
        while try await iterator.next() != nil {}
        guard let response = iterator.response else { throw SessionError(.cancelled, transcript: transcript()) }
        return response
    }

    /// Starts the session's call on the first `next()` and hands out its
    /// snapshots; throws ``SessionError`` (``SessionError/Kind/cancelled`` when
    /// the consuming task was cancelled).
    public struct Iterator: AsyncIteratorProtocol {
        let mailbox: SnapshotMailbox
        var body: Body?
        let transcript: @Sendable () -> SessionTranscript
        /// The final response, once the stream has ended without an error.
        public private(set) var response: SessionResponse?

        init(mailbox: SnapshotMailbox, body: @escaping Body, transcript: @escaping @Sendable () -> SessionTranscript) {
            self.mailbox = mailbox
            self.body = body
            self.transcript = transcript
        }

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> ResponseSnapshot? {
            if let body {
                self.body = nil
                mailbox.start(body)
            }
            switch await mailbox.next() {
            case .snapshot(let snapshot):
                return snapshot
            case .finished(let response):
                // A cancelled consumer sees the stream end early: say so, not "done".
                if Task.isCancelled, response == nil { throw SessionError(.cancelled, transcript: transcript()) }
                self.response = response
                return nil
            case .failed(let error):
                throw error
            }
        }
    }
}

/// Hands snapshots from the loop's task to the consumer: the newest of each
/// round, never dropping a round's last one.
final class SnapshotMailbox: Sendable {
    enum Delivery {
        case snapshot(ResponseSnapshot)
        case finished(SessionResponse?)
        case failed(SessionError)
    }

    private struct State {
        var queue: [ResponseSnapshot] = []
        var end: Result<SessionResponse, SessionError>?
        var handedEnd = false
        var waiter: CheckedContinuation<Void, Never>?
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    init() {}

    deinit { state.withLock { $0.task?.cancel() } }

    func start(_ body: @escaping ResponseStream.Body) {
        // Weak: dropping the consumer's iterator frees the mailbox, whose
        // deinit cancels this task.
        let task = Task { [weak self] in
            let result: Result<SessionResponse, SessionError>
            let put: @Sendable (ResponseSnapshot) -> Void = { [weak self] snapshot in self?.put(snapshot) }
            do throws(SessionError) {
                result = .success(try await body(put))
            } catch {
                result = .failure(error)
            }
            self?.finish(result)
        }
        state.withLock { $0.task = task }
    }

    func put(_ snapshot: ResponseSnapshot) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            // Newest only within an attempt; an attempt's last snapshot
            // (a restart's announcement among them) is never replaced.
            if let last = state.queue.last, last.round == snapshot.round, last.attempt == snapshot.attempt, last.restart == nil {
                state.queue[state.queue.count - 1] = snapshot
            } else {
                state.queue.append(snapshot)
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func finish(_ result: Result<SessionResponse, SessionError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.end = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func next() async -> Delivery {
        while true {
            if let ready = take() { return ready }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.queue.isEmpty || state.end != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                // The loop ends with `.cancelled`, which wakes the consumer.
                state.withLock { $0.task }?.cancel()
            }
        }
    }

    private func take() -> Delivery? {
        state.withLock { state -> Delivery? in
            if !state.queue.isEmpty { return .snapshot(state.queue.removeFirst()) }
            guard let end = state.end else { return nil }
            if state.handedEnd { return .finished(nil) }
            state.handedEnd = true
            switch end {
            case .success(let response): return .finished(response)
            case .failure(let error): return .failed(error)
            }
        }
    }
}

/// A session response with `T.Partial` decoded at every snapshot;
/// ``collect()`` decodes the complete `T`.
public struct StructuredResponseStream<T: StructuredResponse>: AsyncSequence, Sendable {
    public typealias Element = StructuredSnapshot<T.Partial>
    public typealias Failure = SessionError

    let base: ResponseStream

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Runs the call and decodes the final answer as `T`.
    ///
    /// - Throws: ``SessionError``; an answer that does not decode is
    ///   ``SessionError/Kind/structuredOutput(_:)`` saying why.
    public func collect() async throws(SessionError) -> T {
        try T.decoded(from: try await base.collect())
    }

    /// Hands out each snapshot of the session's response with `T.Partial`
    /// decoded from its message.
    public struct Iterator: AsyncIteratorProtocol {
        var base: ResponseStream.Iterator

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> Element? {
            try await base.next(isolation: actor).map { StructuredSnapshot($0.message) }
        }
    }
}
