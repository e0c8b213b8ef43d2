public import ClaudeStreaming
public import ClaudeTransport
public import IncrementalJSON
import Synchronization

// A conversation with Claude: the model, the system prompt, the tools, and
// the transcript. `respond(to:)` sends the prompt and runs the tool loop by
// itself:
//
//   prompt ─► request ─► response ─┬─ tool_use  ─► run the tools (concurrently) ─► results ─┐
//                ▲                 ├─ pause_turn ───────────────────────────────────────────┤
//                └─────────────────┼────────────────── (at most maxTurns requests) ─────────┘
//                                  └─ anything else: the final response
//
// The transcript changes only at complete steps: a response once it has
// fully arrived (with the prompt that led to it), the outputs of a tool
// round once every tool has finished. A cancelled or failed call leaves it
// at the last complete step, so nothing half-done is ever sent later.

/// A multi-turn conversation with tools and a transcript.
public final class ClaudeSession: Sendable {
    /// The model every request asks first.
    public let model: ClaudeModel
    /// The system prompt of every request.
    public let system: String?
    /// The request fields every turn shares, and the tool loop's limit.
    public let configuration: SessionConfiguration
    /// The names of the client tools, in declaration order.
    public var toolNames: [String] { tools.map(\.name) }

    let tools: [_ErasedTool]
    let transport: any MessageStreaming
    private let state: Mutex<(transcript: SessionTranscript, busy: Bool)>

    /// A session over any transport (`MessagesClient` conforms).
    ///
    /// - Parameters:
    ///   - model: the model every request asks first.
    ///   - system: the system prompt of every request.
    ///   - tools: the client tools the model may call (names unique).
    ///   - configuration: the shared request fields and the tool loop's limit.
    ///   - transport: sends each request and streams its response.
    ///   - transcript: a saved conversation to continue.
    public init(model: ClaudeModel, system: String? = nil, tools: [any ClientTool] = [],
                configuration: SessionConfiguration = SessionConfiguration(),
                transport: any MessageStreaming, transcript: SessionTranscript = SessionTranscript()) {
        self.model = model
        self.system = system
        self.tools = tools.map { _ErasedTool($0) }
        self.configuration = configuration
        self.transport = transport
        self.state = Mutex((transcript, false))
    }

    /// The conversation so far.
    public var transcript: SessionTranscript { state.withLock { $0.transcript } }

    /// Sends `prompt`, runs the tool loop, and returns the final response.
    ///
    /// - Throws: ``SessionError`` with the transcript after the last complete step.
    public func respond(to prompt: String) async throws(SessionError) -> SessionResponse {
        try await _run(prompt: [.text(prompt)], outputSchema: nil, onSnapshot: nil)
    }

    /// Sends a prompt of any content (images, documents, several parts).
    public func respond(to prompt: [TurnContent]) async throws(SessionError) -> SessionResponse {
        try await _run(prompt: prompt, outputSchema: nil, onSnapshot: nil)
    }

    /// Continues without a new prompt: runs tool calls a turn limit left
    /// pending, or answers a transcript that ends with the user's turn.
    public func resume() async throws(SessionError) -> SessionResponse {
        try await _run(prompt: nil, outputSchema: nil, onSnapshot: nil)
    }

    /// Asks for an answer of type `T` (its schema goes in the request) and decodes it.
    ///
    /// - Throws: ``SessionError``; a decode failure is ``SessionError/Kind/structuredOutput(_:)`` saying why.
    public func respond<T: StructuredResponse>(to prompt: String, generating type: T.Type) async throws(SessionError) -> T {
        let response = try await _run(prompt: [.text(prompt)], outputSchema: try T.schemaForRequest(transcript: transcript), onSnapshot: nil)
        do throws(StructuredOutputError) {
            return try response.message.decodeStructured(T.self, complete: true)
        } catch {
            throw SessionError(.structuredOutput(error), transcript: transcript)
        }
    }

    /// The response being built, as cumulative snapshots (across tool rounds:
    /// each element names its step). Nothing is sent until the first `next()`.
    public func streamResponse(to prompt: String) -> ResponseStream {
        streamResponse(to: [.text(prompt)])
    }

    /// As ``streamResponse(to:)-(String)``, for a prompt of any content.
    public func streamResponse(to prompt: [TurnContent]) -> ResponseStream {
        ResponseStream(transcript: { self.transcript }) { onSnapshot throws(SessionError) in
            _ = try await self._run(prompt: prompt, outputSchema: nil, onSnapshot: onSnapshot)
        }
    }

    /// As ``streamResponse(to:)-(String)``, with `T.Partial` decoded at every snapshot.
    public func streamResponse<T: StructuredResponse>(to prompt: String, generating type: T.Type) -> StructuredResponseStream<T> {
        StructuredResponseStream(base: ResponseStream(transcript: { self.transcript }) { onSnapshot throws(SessionError) in
            _ = try await self._run(prompt: [.text(prompt)], outputSchema: try T.schemaForRequest(transcript: self.transcript), onSnapshot: onSnapshot)
        })
    }

    /// The request the session would send next with `prompt` (nil: none):
    /// for counting its tokens, or for inspecting it.
    ///
    /// - Complexity: O(entries); replayed responses are shared bytes.
    public func nextRequest(prompt: [TurnContent]? = nil, outputSchema: JSONValue? = nil) -> MessageRequest {
        var transcript = self.transcript
        if let prompt { transcript.entries.append(.prompt(prompt)) }
        return _request(transcript, outputSchema: outputSchema)
    }

    // MARK: The loop

    func _run(prompt: [TurnContent]?, outputSchema: JSONValue?,
              onSnapshot: (@Sendable (ResponseSnapshot) -> Void)?) async throws(SessionError) -> SessionResponse {
        let start = state.withLock { state -> SessionTranscript? in
            if state.busy { return nil }
            state.busy = true
            return state.transcript
        }
        guard var working = start else { throw SessionError(.busy, transcript: transcript) }
        defer { state.withLock { $0.busy = false } }
        func commit() { state.withLock { $0.transcript = working } }
        func failure(_ kind: SessionError.Kind) -> SessionError { SessionError(kind, transcript: transcript) }
        if let error = tools.lazy.compactMap(\.schemaError).first { throw failure(.structuredOutput(.schemaDerivation(error))) }

        // Calls a turn limit left unanswered are answered first (the API
        // needs a result for every tool_use before anything else).
        let pending = working.pendingToolCalls
        if !pending.isEmpty {
            let outputs = await _runTools(pending)
            if Task.isCancelled { throw failure(.cancelled) }
            working.entries.append(contentsOf: outputs.map(SessionTranscript.Entry.toolOutput))
            commit()
        }
        if let prompt { working.entries.append(.prompt(prompt)) }

        var turns = 0
        while true {
            if Task.isCancelled { throw failure(.cancelled) }
            let request = _request(working, outputSchema: outputSchema)
            let step = turns
            turns += 1
            let message: MessageSnapshot
            var forward: (@Sendable (MessageSnapshot) -> Void)?
            if let onSnapshot {
                forward = { snapshot in onSnapshot(ResponseSnapshot(message: snapshot, step: step)) }
            }
            do throws(TransportError) {
                message = try await transport.streamMessage(request, onSnapshot: forward)
            } catch {
                if case .cancelled = error { throw failure(.cancelled) }
                if Task.isCancelled { throw failure(.cancelled) }
                throw failure(.transport(error))
            }
            if Task.isCancelled { throw failure(.cancelled) }
            let entry = ResponseEntry(message)
            working.entries.append(.response(entry))
            let calls = Self._toolCalls(message)
            working.entries.append(contentsOf: calls.map(SessionTranscript.Entry.toolCall))
            commit()

            switch message.stopReason {
            case "tool_use" where !calls.isEmpty:
                if turns >= configuration.maxTurns { throw failure(.turnLimitReached(turns: turns, pendingCalls: calls)) }
                let outputs = await _runTools(calls)
                if Task.isCancelled { throw failure(.cancelled) }
                working.entries.append(contentsOf: outputs.map(SessionTranscript.Entry.toolOutput))
                commit()
            case "pause_turn":
                if turns >= configuration.maxTurns { throw failure(.turnLimitReached(turns: turns, pendingCalls: [])) }
            default:
                return SessionResponse(message: message, entry: entry, requests: turns)
            }
        }
    }

    /// The request for the conversation in `transcript`.
    ///
    /// - Complexity: O(entries) plus the encoding of new content; replayed
    ///   responses are shared bytes.
    func _request(_ transcript: SessionTranscript, outputSchema: JSONValue?) -> MessageRequest {
        let c = configuration
        return MessageRequest(
            model: model, messages: transcript.messages, system: system, maxTokens: c.maxTokens, effort: c.effort,
            adaptiveThinking: c.adaptiveThinking, outputSchema: outputSchema, serverTools: c.serverTools,
            fallbacks: c.fallbacks, betas: c.betas, tools: tools.map(\.definition) + c.additionalTools,
            toolChoice: c.toolChoice, stopSequences: c.stopSequences, metadataUserID: c.metadataUserID,
            thinkingBudget: c.thinkingBudget, cacheControl: c.cacheControl)
    }

    /// The client tool calls of a finished message, in content order.
    static func _toolCalls(_ message: MessageSnapshot) -> [ToolCallEntry] {
        message.content.compactMap { block in
            guard case .toolUse(let call) = block, call.kind == .toolUse else { return nil }
            var problem: String?
            if let error = call.inputError {
                problem = "the input is not valid JSON (\(error))"
            } else if !call.isComplete || !call.input.isComplete {
                problem = "the input was cut off before it was complete"
            }
            return ToolCallEntry(id: call.id, name: call.name, input: RawJSON(call.input), inputError: problem)
        }
    }

    /// Runs every call concurrently; results in the order of `calls`.
    func _runTools(_ calls: [ToolCallEntry]) async -> [ToolResult] {
        let tools = self.tools
        return await withTaskGroup(of: (Int, ToolResult).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask {
                    if let problem = call.inputError {
                        return (index, ToolResult(toolUseID: call.id, content: .text("\(problem); the tool did not run"), isError: true))
                    }
                    guard let tool = tools.first(where: { $0.name == call.name }) else {
                        return (index, ToolResult(toolUseID: call.id, content: .text("no tool named '\(call.name)' in this session"), isError: true))
                    }
                    let (content, isError) = await tool.run(call.input.value)
                    return (index, ToolResult(toolUseID: call.id, content: content, isError: isError))
                }
            }
            var results = [ToolResult?](repeating: nil, count: calls.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
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

    /// The text of the final message.
    public var text: String { message.text }
}

/// A snapshot of the response being built.
public struct ResponseSnapshot: Sendable {
    /// The message of the current step, as it stands.
    public var message: MessageSnapshot
    /// Which request of the call it belongs to (0 first; tool rounds and continuations add one each).
    public var step: Int
}
