public import ClaudeStreaming
public import ClaudeTransport
public import IncrementalJSON
import Synchronization

// A conversation with Claude: the transcript (its setup, the request every
// turn shares, and its entries), the client tools, and the transport. The
// session supplies only `messages`; everything else of a request is the
// setup's. `respond(to:)` sends the prompt and runs the tool loop:
//
//   prompt ─► request ─► response ─┬─ tool_use  ─► onToolCalls ─► run (≤ maxConcurrentTools at once) ─► results ─┐
//                ▲                 ├─ pause_turn ────────────────────────────────────────────────────────────────┤
//                └─────────────────┼────────────────── (at most maxTurns requests) ─────────────────────────────┘
//                                  └─ anything else: the final response
//
// The transcript changes only at complete steps: a response once it has
// fully arrived (with the prompt that led to it), the outputs of a tool
// round once every tool has finished. A cancelled or failed call leaves it
// at the last complete step, so nothing half-done is ever sent later, and
// its error says whether the prompt got in.

/// A multi-turn conversation with tools and a transcript.
public final class ClaudeSession: Sendable {
    /// The loop's policy and the caller's hooks between rounds.
    public let configuration: SessionConfiguration
    /// The names of the client tools, in declaration order.
    public var toolNames: [String] { tools.map(\.name) }

    let tools: [ErasedTool]
    let transport: any MessageStreaming
    let state: Mutex<(transcript: SessionTranscript, busy: Bool)>

    /// A session continuing `transcript` (a new one: ``SessionTranscript/init(setup:)``;
    /// a saved one: ``SessionTranscript/init(jsonBytes:resolveModel:defaultModel:)``).
    ///
    /// Each tool's definition is added to the setup's `tools` unless a tool
    /// of that name is already there (a definition given as JSON wins, so
    /// `tools` files keep their exact schema).
    ///
    /// - Parameters:
    ///   - transcript: the setup and the conversation so far.
    ///   - tools: the client tools the session runs (names unique).
    ///   - configuration: the loop's policy and hooks.
    ///   - transport: sends each request and streams its response.
    public init(
        transcript: SessionTranscript, tools: [any ClientTool] = [],
        configuration: SessionConfiguration = SessionConfiguration(), transport: any MessageStreaming
    ) {
        self.tools = tools.map { ErasedTool($0) }
        var transcript = transcript
        let declared = Set(transcript.setup.tools.compactMap(\.name))
        transcript.setup.tools += self.tools.filter { !declared.contains($0.name) }.map(\.definition)
        self.configuration = configuration
        self.transport = transport
        self.state = Mutex((transcript, false))
    }

    /// A new conversation whose every request is `setup` with the
    /// conversation's messages (to continue a request's messages, pass
    /// ``SessionTranscript/init(request:)``).
    public convenience init(
        setup: RequestSetup, tools: [any ClientTool] = [],
        configuration: SessionConfiguration = SessionConfiguration(), transport: any MessageStreaming
    ) {
        self.init(transcript: SessionTranscript(setup: setup), tools: tools, configuration: configuration, transport: transport)
    }

    /// A new conversation with `model` and an optional plain system prompt;
    /// every other request field at its default (see ``init(setup:tools:configuration:transport:)``).
    public convenience init(
        model: ClaudeModel, system: String? = nil, tools: [any ClientTool] = [],
        configuration: SessionConfiguration = SessionConfiguration(), transport: any MessageStreaming
    ) {
        self.init(
            setup: RequestSetup(model: model, system: system.map(SystemPrompt.text)), tools: tools,
            configuration: configuration, transport: transport)
    }

    /// The conversation so far.
    public var transcript: SessionTranscript { state.withLock { $0.transcript } }

    /// The request every turn shares (the transcript's setup, client tools included).
    public var setup: RequestSetup { transcript.setup }

    /// Whether a call is running (a second one would fail with ``SessionError/Kind/busy``).
    public var isResponding: Bool { state.withLock { $0.busy } }

    // MARK: Answers

    /// Sends `prompt`, runs the tool loop, and returns the final response.
    /// Tool calls still pending from before follow ``SessionConfiguration/pendingCalls``.
    ///
    /// - Throws: ``SessionError`` with the transcript after the last complete step.
    public func respond(to prompt: String) async throws(SessionError) -> SessionResponse {
        try await runRounds(prompt: [.text(prompt)], outputSchema: nil, onSnapshot: nil)
    }

    /// Sends a prompt of any content (images, documents, several parts, API blocks).
    public func respond(to prompt: [TurnContent]) async throws(SessionError) -> SessionResponse {
        try await runRounds(prompt: prompt, outputSchema: nil, onSnapshot: nil)
    }

    /// Continues without a new prompt: runs the tool calls left pending (a
    /// turn limit, a cancellation, a stop), or answers a transcript that
    /// ends with the user's turn, or continues after `pause_turn`.
    public func resume() async throws(SessionError) -> SessionResponse {
        try await runRounds(prompt: nil, outputSchema: nil, onSnapshot: nil)
    }

    /// Asks for an answer of type `T` (its schema goes in the request) and decodes it.
    ///
    /// - Throws: ``SessionError``; a decode failure is ``SessionError/Kind/structuredOutput(_:)`` saying why.
    public func respond<T: StructuredResponse>(to prompt: String, generating type: T.Type) async throws(SessionError) -> T {
        let response = try await runRounds(prompt: [.text(prompt)], outputSchema: try T.schemaForRequest(transcript: transcript), onSnapshot: nil)
        return try T.decoded(from: response)
    }

    // MARK: Streams

    /// The response being built, as cumulative snapshots of every round
    /// (each names its round). Nothing is sent until the first `next()`.
    public func streamResponse(to prompt: String) -> ResponseStream {
        streamResponse(to: [.text(prompt)])
    }

    /// As ``streamResponse(to:)-(String)``, for a prompt of any content.
    public func streamResponse(to prompt: [TurnContent]) -> ResponseStream {
        ResponseStream(transcript: { self.transcript }) { onSnapshot throws(SessionError) in
            try await self.runRounds(prompt: prompt, outputSchema: nil, onSnapshot: onSnapshot)
        }
    }

    /// As ``resume()``, streamed.
    public func streamResume() -> ResponseStream {
        ResponseStream(transcript: { self.transcript }) { onSnapshot throws(SessionError) in
            try await self.runRounds(prompt: nil, outputSchema: nil, onSnapshot: onSnapshot)
        }
    }

    /// As ``streamResponse(to:)-(String)``, with `T.Partial` decoded at every snapshot.
    public func streamResponse<T: StructuredResponse>(to prompt: String, generating type: T.Type) -> StructuredResponseStream<T> {
        StructuredResponseStream(
            base: ResponseStream(transcript: { self.transcript }) { onSnapshot throws(SessionError) in
                try await self.runRounds(prompt: [.text(prompt)], outputSchema: try T.schemaForRequest(transcript: self.transcript), onSnapshot: onSnapshot)
            })
    }

    // MARK: The next request

    /// The request the session would send next with `prompt` (nil: none),
    /// checked as a send is (`RequestEncoder.validate(_:)`): for counting
    /// its tokens, or inspecting it. Pending tool calls follow
    /// ``SessionConfiguration/pendingCalls`` as a prompt would.
    ///
    /// - Throws: ``SessionError``: ``SessionError/Kind/invalidRequest(_:)``;
    ///   ``SessionError/Kind/pendingToolCalls(_:)`` without a prompt while
    ///   calls are pending (only running them makes the next request), or
    ///   with one under ``PendingCallPolicy/refuse``.
    /// - Complexity: O(entries); replayed responses are shared bytes.
    public func nextRequest(prompt: [TurnContent]? = nil, outputSchema: JSONValue? = nil) throws(SessionError) -> MessageRequest {
        var working = transcript
        let pending = working.pendingToolCalls
        if prompt == nil, !pending.isEmpty {
            throw SessionError(.pendingToolCalls(pending), transcript: working, round: working.responses.count)
        }
        try settlePending(&working, prompt: prompt)
        if let prompt { working.appendPrompt(prompt) }
        let request = self.request(for: working, outputSchema: outputSchema)
        do throws(RequestError) { try RequestEncoder.validate(request) } catch {
            throw SessionError(.invalidRequest(error), transcript: transcript, round: working.responses.count)
        }
        return request
    }

    /// Counts the input tokens of ``nextRequest(prompt:outputSchema:)``.
    ///
    /// - Throws: ``SessionError``: as `nextRequest`; ``SessionError/Kind/tokenCountingUnsupported``
    ///   when the transport is not ``TokenCounting``; ``SessionError/Kind/transport(_:)``.
    public func countTokens(prompt: [TurnContent]? = nil, outputSchema: JSONValue? = nil) async throws(SessionError) -> TokenCount {
        let request = try nextRequest(prompt: prompt, outputSchema: outputSchema)
        guard let counter = transport as? any TokenCounting else {
            throw SessionError(.tokenCountingUnsupported, transcript: transcript)
        }
        do throws(TransportError) { return try await counter.countTokens(request) } catch {
            throw SessionError(.transport(error), transcript: transcript)
        }
    }

    /// Answers every pending tool call with an error result saying `reason`
    /// (the calls are dropped, not run), so the conversation can go on.
    ///
    /// - Returns: the calls answered.
    /// - Throws: ``SessionError/Kind/busy`` while a call runs.
    @discardableResult
    public func answerPendingCalls(reason: String) throws(SessionError) -> [ToolCallEntry] {
        let answered = state.withLock { state -> [ToolCallEntry]? in
            if state.busy { return nil }
            let pending = state.transcript.pendingToolCalls
            try? state.transcript.appendToolOutputs(pending.map { Self.notRunResult($0, reason: reason) })
            return pending
        }
        guard let answered else { throw SessionError(.busy, transcript: transcript) }
        return answered
    }
}

/// The final response of a `respond` call.
public struct SessionResponse: Sendable {
    /// The last message, complete.
    public var message: MessageSnapshot
    /// It as the transcript keeps it.
    public var entry: ResponseEntry
    /// Requests this call made (1 without tool rounds or continuations).
    public var requests: Int
    /// Calls of the last message left without output because the caller
    /// stopped (``ToolRoundDecision/stop``); ``ClaudeSession/resume()`` runs them.
    public var pendingToolCalls: [ToolCallEntry]
    /// The conversation after the call.
    public var transcript: SessionTranscript

    /// The text of the final message.
    public var text: String { message.text }
}

/// A snapshot of the response being built. Each round's message is a
/// message of its own: derive text with the stream's own
/// ``ResponseStream/textDeltas`` or ``ResponseStream/blockEvents``, which
/// start afresh at each round (the snapshot-sequence helpers over
/// `.map(\.message)` would take every round for one message).
public struct ResponseSnapshot: Sendable {
    /// The message of the current round, as it stands.
    public var message: MessageSnapshot
    /// The round it belongs to: the index the response will have in
    /// ``SessionTranscript/responses`` once complete.
    public var round: Int
    /// Which attempt of the round: 0, then one more each time the round is
    /// sent again after its stream broke (see ``restart``).
    public var attempt: Int
    /// Set on the last snapshot of an attempt whose stream broke and that
    /// the session sends again: what `message` shows of the round is void
    /// (clear it), and the next snapshot starts the round afresh, with
    /// ``attempt`` one higher. The transcript never saw the broken attempt.
    public var restart: RoundRestart?

    /// A snapshot of `round`'s message in its `attempt`.
    public init(message: MessageSnapshot, round: Int, attempt: Int = 0, restart: RoundRestart? = nil) {
        self.message = message
        self.round = round
        self.attempt = attempt
        self.restart = restart
    }
}

/// Why and when a round is sent again (``ResponseSnapshot/restart``).
public struct RoundRestart: Sendable {
    /// What broke the stream.
    public var error: TransportError
    /// Seconds until the round is sent again.
    public var delay: Double
    /// The retry this is of the round's budget (1 for the first).
    public var retry: Int
}
