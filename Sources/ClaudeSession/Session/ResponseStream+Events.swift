public import ClaudeStreaming

// Text and block events over a whole session call. Each round is a message
// of its own (its block indices start at 0 again), so the deriver starts
// afresh at every round: the final answer's text comes through like the
// first round's. So it does at every attempt of a round: after a restart
// (`ResponseSnapshot.restart`) the round's text comes through again from its
// start, as the new attempt sends it. The round number says so directly;
// the snapshot-sequence helpers over `.map(\.message)` reach the same events by telling the
// messages apart themselves (see BlockEventDeriver), and these sequences
// add the final response.

extension ResponseStream {
    /// Block started, text, thinking, input JSON, citation, block stopped and
    /// message stopped, for every round in order (one `messageStopped` ends each).
    /// After a restart (``ResponseSnapshot/restart``) the round's events
    /// start again from its first block, as with ``textDeltas``.
    public var blockEvents: SessionBlockEventSequence { SessionBlockEventSequence(base: self) }
    /// The text of every round's text blocks as it arrives, the final answer included.
    ///
    /// A round whose stream broke is sent again (``ResponseSnapshot/restart``),
    /// and its text then comes again from the start, as the new attempt
    /// sends it: text pieces cannot be taken back. A caller that shows the
    /// text and must clear a broken attempt's part reads the snapshots
    /// (the ``ResponseStream`` itself), where the restart is announced.
    public var textDeltas: SessionTextDeltaSequence { SessionTextDeltaSequence(base: SessionBlockEventSequence(base: self)) }
}

/// The block events of a session call, round after round.
public struct SessionBlockEventSequence: AsyncSequence, Sendable {
    public typealias Element = BlockEvent
    public typealias Failure = SessionError

    let base: ResponseStream

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Reads the session's snapshots and hands out the events between them.
    public struct Iterator: AsyncIteratorProtocol {
        var base: ResponseStream.Iterator
        var deriver = BlockEventDeriver()
        var attempt: (round: Int, attempt: Int)?
        var pending: [BlockEvent] = []
        var next = 0

        /// The final response, once the events have ended without an error.
        public var response: SessionResponse? { base.response }

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> BlockEvent? {
            while next == pending.count {
                guard let snapshot = try await base.next(isolation: actor) else { return nil }
                if attempt == nil || attempt?.round != snapshot.round || attempt?.attempt != snapshot.attempt {
                    deriver = BlockEventDeriver()
                    attempt = (snapshot.round, snapshot.attempt)
                }
                pending = deriver.events(to: snapshot.message)
                next = 0
            }
            defer { next += 1 }
            return pending[next]
        }
    }
}

/// The text of a session call as it arrives, round after round.
public struct SessionTextDeltaSequence: AsyncSequence, Sendable {
    public typealias Element = String
    public typealias Failure = SessionError

    let base: SessionBlockEventSequence

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Reads block events and hands out the text pieces among them.
    public struct Iterator: AsyncIteratorProtocol {
        var base: SessionBlockEventSequence.Iterator

        /// The final response, once the text has ended without an error.
        public var response: SessionResponse? { base.response }

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SessionError) -> String? {
            while let event = try await base.next(isolation: actor) {
                if case .text(_, let text) = event { return text }
            }
            return nil
        }
    }
}
