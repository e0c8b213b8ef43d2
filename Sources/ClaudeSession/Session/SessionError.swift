public import ClaudeTransport

/// Why a session call ended without a final response. Every case carries
/// the transcript as it stands: the completed responses and tool outputs
/// are in it, a half-received response or half-run tool round never is.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    /// What ended the call.
    public enum Kind: Sendable {
        /// The request failed or the stream broke (HTTP, network, timeout, protocol).
        case transport(TransportError)
        /// The loop made ``SessionConfiguration/maxTurns`` requests and the
        /// model still wanted to go on; `pendingCalls` are tool calls not run.
        case turnLimitReached(turns: Int, pendingCalls: [ToolCallEntry])
        /// The consuming task was cancelled.
        case cancelled
        /// A structured answer did not decode.
        case structuredOutput(StructuredOutputError)
        /// Another call of this session was still running.
        case busy
    }

    /// What ended the call.
    public var kind: Kind
    /// The conversation after the last complete step.
    public var transcript: SessionTranscript

    /// An error of `kind`, carrying `transcript`.
    public init(_ kind: Kind, transcript: SessionTranscript) {
        self.kind = kind
        self.transcript = transcript
    }

    public var description: String {
        switch kind {
        case .transport(let error): "the request failed: \(error)"
        case .turnLimitReached(let turns, let pending):
            "stopped after \(turns) requests with \(pending.count) tool call(s) pending (\(pending.map(\.name).joined(separator: ", ")))"
        case .cancelled: "cancelled"
        case .structuredOutput(let error): "structured output: \(error)"
        case .busy: "the session is already answering another prompt"
        }
    }
}
