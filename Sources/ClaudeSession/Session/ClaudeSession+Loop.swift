import ClaudeStreaming
import ClaudeTransport
import IncrementalJSON
import Synchronization

// The loop of one call. `working` is the transcript being built; `commit()`
// makes it the session's at each complete step. Every error is built by
// `failure`, which knows the committed transcript, whether the prompt is in
// it, the round, and the partial response.

extension ClaudeSession {
    func runRounds(
        prompt: [TurnContent]?, outputSchema: JSONValue?,
        onSnapshot: (@Sendable (ResponseSnapshot) -> Void)?
    ) async throws(SessionError) -> SessionResponse {
        let start = state.withLock { state -> SessionTranscript? in
            if state.busy { return nil }
            state.busy = true
            return state.transcript
        }
        guard var working = start else { throw SessionError(.busy, transcript: transcript) }
        defer { state.withLock { $0.busy = false } }
        var promptIn = prompt == nil
        func commit() { state.withLock { $0.transcript = working } }
        func failure(_ kind: SessionError.Kind, partial: MessageSnapshot? = nil) -> SessionError {
            SessionError(kind, transcript: transcript, partial: partial, promptInTranscript: promptIn, round: working.responses.count)
        }
        if let error = tools.lazy.compactMap(\.schemaError).first { throw failure(.structuredOutput(.schemaDerivation(error))) }

        try settlePending(&working, prompt: prompt)
        if prompt == nil, let last = working.responses.last, !working.pendingToolCalls.isEmpty {
            // resume(): the calls left pending run first, as the rest of their round.
            let round = working.responses.count - 1
            let outcome = await toolRound(round: round, response: last, working: working)
            if Task.isCancelled { throw failure(.cancelled) }
            guard let outcome else {
                return SessionResponse(
                    message: last.snapshot, entry: last, requests: 0, pendingToolCalls: working.pendingToolCalls,
                    transcript: working)
            }
            appendOutcome(outcome, to: &working)
            commit()
            await configuration.onRoundCompleted?(
                CompletedRound(
                    round: round, response: last, toolOutputs: outcome.outputs,
                    pendingCalls: [], isLast: false, transcript: working))
        } else if let prompt {
            working.appendPrompt(prompt)
        }

        var requests = 0
        while true {
            if Task.isCancelled { throw failure(.cancelled) }
            let request = self.request(for: working, outputSchema: outputSchema)
            do throws(RequestError) { try RequestEncoder.validate(request) } catch { throw failure(.invalidRequest(error)) }
            let round = working.responses.count
            let message: MessageSnapshot
            requests += 1
            switch await streamRound(request, round: round, onSnapshot: onSnapshot) {
            case .success(let complete): message = complete
            case .failure(let ending): throw failure(ending.kind, partial: ending.partial)
            }
            if Task.isCancelled { throw failure(.cancelled, partial: message) }
            let entry = ResponseEntry(message)
            working.appendResponse(entry)
            commit()
            promptIn = true
            let calls = entry.toolCalls
            func finish(pending: [ToolCallEntry]) async -> SessionResponse {
                await configuration.onRoundCompleted?(
                    CompletedRound(
                        round: round, response: entry, toolOutputs: [],
                        pendingCalls: pending, isLast: true, transcript: working))
                return SessionResponse(message: message, entry: entry, requests: requests, pendingToolCalls: pending, transcript: working)
            }

            switch message.stopReason {
            case "tool_use" where !calls.isEmpty:
                if requests >= configuration.maxTurns {
                    _ = await finish(pending: calls)
                    throw failure(.turnLimitReached(turns: requests, pendingCalls: calls))
                }
                guard let outcome = await toolRound(round: round, response: entry, working: working) else {
                    return await finish(pending: calls)
                }
                if Task.isCancelled { throw failure(.cancelled) }
                appendOutcome(outcome, to: &working)
                commit()
                await configuration.onRoundCompleted?(
                    CompletedRound(
                        round: round, response: entry, toolOutputs: outcome.outputs,
                        pendingCalls: [], isLast: false, transcript: working))
            case "pause_turn":
                if requests >= configuration.maxTurns {
                    _ = await finish(pending: [])
                    throw failure(.turnLimitReached(turns: requests, pendingCalls: []))
                }
                await configuration.onRoundCompleted?(
                    CompletedRound(
                        round: round, response: entry, toolOutputs: [],
                        pendingCalls: [], isLast: false, transcript: working))
            default:
                return await finish(pending: [])
            }
        }
    }

    /// How one round's request ended without a message: the error's kind
    /// and the partial response.
    struct RoundEnding: Error {
        var kind: SessionError.Kind
        var partial: MessageSnapshot?
    }

    /// Sends one round's request and returns its complete message. A stream
    /// that breaks after it began is sent again while the round's
    /// `RetryBudget` allows (the transport takes its own retries from the
    /// same budget), each restart announced by a snapshot with
    /// ``ResponseSnapshot/restart``. Nothing of a broken attempt is kept:
    /// the transcript changes only when the message is complete.
    func streamRound(
        _ request: MessageRequest, round: Int,
        onSnapshot: (@Sendable (ResponseSnapshot) -> Void)?
    ) async -> Result<MessageSnapshot, RoundEnding> {
        let budget = RetryBudget(transport.retryPolicy)
        var attempt = 0
        while true {
            // Only a streaming caller pays for a callback per snapshot; the
            // others get the partial response from the transport's error.
            let seen = LastSnapshot()
            var forward: (@Sendable (MessageSnapshot) -> Void)?
            if let onSnapshot {
                forward = { [attempt] snapshot in
                    seen.set(snapshot)
                    onSnapshot(ResponseSnapshot(message: snapshot, round: round, attempt: attempt))
                }
            }
            do throws(TransportError) {
                return .success(try await transport.streamMessage(request, retries: budget, onSnapshot: forward))
            } catch {
                let partial = error.snapshot ?? seen.value
                switch error {
                case .cancelled: return .failure(RoundEnding(kind: .cancelled, partial: partial))
                case .invalidRequest(let refused): return .failure(RoundEnding(kind: .invalidRequest(refused), partial: nil))
                default: break
                }
                if Task.isCancelled { return .failure(RoundEnding(kind: .cancelled, partial: partial)) }
                guard error.brokeStream, let delay = budget.take(after: error) else {
                    return .failure(RoundEnding(kind: .transport(error), partial: partial))
                }
                if let onSnapshot, let partial {
                    let restart = RoundRestart(error: error, delay: delay, retry: budget.retriesUsed)
                    onSnapshot(ResponseSnapshot(message: partial, round: round, attempt: attempt, restart: restart))
                }
                guard (try? await Task.sleep(for: .seconds(delay))) != nil else {
                    return .failure(RoundEnding(kind: .cancelled, partial: partial))
                }
                attempt += 1
            }
        }
    }

    /// Applies ``SessionConfiguration/pendingCalls`` before a prompt: answers
    /// pending calls as not run, or refuses. Without a prompt nothing changes.
    func settlePending(_ working: inout SessionTranscript, prompt: [TurnContent]?) throws(SessionError) {
        let pending = working.pendingToolCalls
        guard !pending.isEmpty else { return }
        guard prompt != nil else {
            return
        }
        switch configuration.pendingCalls {
        case .refuse:
            throw SessionError(.pendingToolCalls(pending), transcript: working, round: working.responses.count)
        case .answerAsNotRun:
            try? working.appendToolOutputs(pending.map { Self.notRunResult($0, reason: "the conversation moved on to a new prompt") })
        }
    }

    /// The outputs of one round and what the caller added, or nil: the caller stopped.
    struct RoundOutcome {
        var outputs: [ToolResult]
        var added: [TurnContent]
    }

    /// Asks the hook, then runs what it allows. Nil when it says stop.
    func toolRound(round: Int, response: ResponseEntry, working: SessionTranscript) async -> RoundOutcome? {
        let calls = working.pendingToolCalls
        let decision = await configuration.onToolCalls?(ToolRound(round: round, response: response, calls: calls, transcript: working)) ?? .run
        if decision.stops { return nil }
        let outputs = await runTools(calls, denied: decision.denied)
        return RoundOutcome(outputs: outputs, added: decision.added)
    }

    func appendOutcome(_ outcome: RoundOutcome, to working: inout SessionTranscript) {
        // Every output answers a pending call of the last response: the append cannot refuse.
        try? working.appendToolOutputs(outcome.outputs)
        if !outcome.added.isEmpty { working.appendPrompt(outcome.added) }
    }

    /// The request for the conversation in `transcript`: its setup with its messages.
    ///
    /// - Complexity: O(entries); replayed responses are shared bytes.
    func request(for transcript: SessionTranscript, outputSchema: JSONValue?) -> MessageRequest {
        var request = transcript.request
        if let outputSchema { request.outputSchema = outputSchema }
        return request
    }

    /// The error result of a call that was not run.
    static func notRunResult(_ call: ToolCallEntry, reason: String) -> ToolResult {
        ToolResult(toolUseID: call.id, content: .text("the call was not run: \(reason)"), isError: true)
    }

    /// Runs the calls, at most ``SessionConfiguration/maxConcurrentTools`` at
    /// once; results in the order of `calls`, their text cut to
    /// ``SessionConfiguration/maxToolResultBytes``. A denied call gets its reason.
    func runTools(_ calls: [ToolCallEntry], denied: [String: String]) async -> [ToolResult] {
        let tools = self.tools
        let width = max(1, configuration.maxConcurrentTools)
        let limit = configuration.maxToolResultBytes
        return await withTaskGroup(of: (Int, ToolResult).self) { group in
            var results = [ToolResult?](repeating: nil, count: calls.count)
            var next = 0
            func startNext() {
                guard next < calls.count else { return }
                let index = next
                let call = calls[index]
                next += 1
                group.addTask {
                    if let reason = denied[call.id] {
                        return (index, ToolResult(toolUseID: call.id, content: .text("the call was denied: \(reason)"), isError: true))
                    }
                    if let problem = call.inputError {
                        return (index, ToolResult(toolUseID: call.id, content: .text("\(problem); the tool did not run"), isError: true))
                    }
                    guard let tool = tools.first(where: { $0.name == call.name }) else {
                        return (index, ToolResult(toolUseID: call.id, content: .text("no tool named '\(call.name)' in this session"), isError: true))
                    }
                    let (content, isError) = await ClientToolCall.$running.withValue(ClientToolCall(id: call.id, name: call.name)) {
                        await tool.run(call.input.value)
                    }
                    let capped = ToolResultText.capped(content, within: limit)
                    return (index, ToolResult(toolUseID: call.id, content: capped, isError: isError))
                }
            }
            for _ in 0..<width { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }
}

/// The newest snapshot the transport handed over, for the error of a call
/// whose transport gave none.
final class LastSnapshot: Sendable {
    private let last = Mutex<MessageSnapshot?>(nil)
    func set(_ snapshot: MessageSnapshot) { last.withLock { $0 = snapshot } }
    var value: MessageSnapshot? { last.withLock { $0 } }
}
