import ClaudeStreaming
public import ClaudeTransport

// The async edge of the session: the loop runs in a task started by the
// first `next()`, reporting snapshots as it goes. Cancelling the consuming
// task (or dropping the iterator) cancels that task, which cancels the HTTP
// request; the transcript keeps the last complete step.

/// Cumulative snapshots of a session's response; throws ``SessionError``.
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = ResponseSnapshot
    public typealias Failure = SessionError

    typealias Body = @Sendable (_ onSnapshot: @escaping @Sendable (ResponseSnapshot) -> Void) async throws(SessionError) -> Void
    let body: Body
    /// The session's transcript, for the error a cancelled consumer gets.
    let transcript: @Sendable () -> SessionTranscript

    init(transcript: @escaping @Sendable () -> SessionTranscript, body: @escaping Body) {
        self.transcript = transcript
        self.body = body
    }

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<ResponseSnapshot, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let body = self.body
        let start: @Sendable () -> Void = {
            let task = Task {
                do throws(SessionError) {
                    try await body { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return Iterator(base: stream.makeAsyncIterator(), start: start, transcript: transcript)
    }

    /// Starts the session's call on the first `next()` and hands out its
    /// snapshots; throws ``SessionError`` (``SessionError/Kind/cancelled`` when
    /// the consuming task was cancelled).
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ResponseSnapshot, any Error>.Iterator
        var start: (@Sendable () -> Void)?
        let transcript: @Sendable () -> SessionTranscript

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> ResponseSnapshot? {
            if let start {
                self.start = nil
                start()
            }
            let element: ResponseSnapshot?
            do {
                element = try await base.next(isolation: actor)
            } catch let error as SessionError {
                throw error
            } catch {
                throw SessionError(.cancelled, transcript: transcript())
            }
            // A cancelled consumer sees the stream end early: say so, not "done".
            if element == nil, Task.isCancelled { throw SessionError(.cancelled, transcript: transcript()) }
            return element
        }
    }
}

/// A session response with `T.Partial` decoded at every snapshot.
public struct StructuredResponseStream<T: StructuredResponse>: AsyncSequence, Sendable {
    public typealias Element = StructuredSnapshot<T.Partial>
    public typealias Failure = SessionError

    let base: ResponseStream

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Hands out each snapshot of the session's response with `T.Partial`
    /// decoded from its message.
    public struct Iterator: AsyncIteratorProtocol {
        var base: ResponseStream.Iterator

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> Element? {
            try await base.next(isolation: actor).map { StructuredSnapshot($0.message) }
        }
    }
}
