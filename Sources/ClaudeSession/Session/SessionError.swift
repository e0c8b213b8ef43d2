public import ClaudeStreaming
public import ClaudeTransport

/// Why a session call ended without a final response. Every case carries
/// the transcript as it stands (completed responses and tool outputs are in
/// it, a half-received response or half-run tool round never is), the
/// response being received when it ended, and whether this call's prompt
/// made it into the transcript.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    /// What ended the call.
    public enum Kind: Sendable {
        /// The request failed or the stream broke (HTTP, network, timeout, protocol).
        case transport(TransportError)
        /// The request was refused before any traffic: it would break the
        /// API's rules (tool pairing, a `tool_choice` naming no tool) or a
        /// model's capabilities.
        case invalidRequest(RequestError)
        /// The loop made ``SessionConfiguration/maxTurns`` requests and the
        /// model still wanted to go on; `pendingCalls` are tool calls not run
        /// (empty at a `pause_turn`). ``ClaudeSession/resume()`` goes on.
        case turnLimitReached(turns: Int, pendingCalls: [ToolCallEntry])
        /// A new prompt met tool calls without output under
        /// ``PendingCallPolicy/refuse``, or ``ClaudeSession/nextRequest(prompt:outputSchema:)``
        /// was asked for the request after calls only ``ClaudeSession/resume()`` can run.
        case pendingToolCalls([ToolCallEntry])
        /// The consuming task was cancelled.
        case cancelled
        /// A structured answer did not decode.
        case structuredOutput(StructuredOutputError)
        /// Another call of this session was still running.
        case busy
        /// The transport cannot count tokens (it does not conform to ``TokenCounting``).
        case tokenCountingUnsupported
    }

    /// What ended the call.
    public var kind: Kind
    /// The conversation after the last complete step.
    public var transcript: SessionTranscript
    /// The response being received when the call ended (a dropped stream, a
    /// timeout, a cancellation mid-stream), as far as it came; never in the transcript.
    public var partial: MessageSnapshot?
    /// Whether this call's prompt is in ``transcript``. It goes in with the
    /// first complete response; when false (a 429, a dropped first stream),
    /// send the prompt again, as nothing of it was kept.
    public var promptInTranscript: Bool
    /// The round the call was in (the index its response would have in ``SessionTranscript/responses``).
    public var round: Int?

    /// An error of `kind`, carrying `transcript` and what else is known.
    public init(
        _ kind: Kind, transcript: SessionTranscript, partial: MessageSnapshot? = nil,
        promptInTranscript: Bool = false, round: Int? = nil
    ) {
        self.kind = kind
        self.transcript = transcript
        self.partial = partial
        self.promptInTranscript = promptInTranscript
        self.round = round
    }

    public var description: String {
        switch kind {
        case .transport(let error): "the request failed: \(error)"
        case .invalidRequest(let error): "the request was not sent: \(error)"
        case .turnLimitReached(let turns, let pending):
            pending.isEmpty
                ? "stopped after \(turns) requests at pause_turn"
                : "stopped after \(turns) requests with \(pending.count) tool call(s) pending (\(pending.map(\.name).joined(separator: ", ")))"
        case .pendingToolCalls(let pending):
            "\(pending.count) tool call(s) have no output yet (\(pending.map(\.name).joined(separator: ", "))): resume() runs them"
        case .cancelled: "cancelled"
        case .structuredOutput(let error): "structured output: \(error)"
        case .busy: "the session is already answering another prompt"
        case .tokenCountingUnsupported: "the session's transport cannot count tokens"
        }
    }
}
