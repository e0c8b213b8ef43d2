public import ClaudeTransport

// The caller's hold on the loop between rounds (what the Python SDK's tool
// runner gives with its per-round yield): after a response that calls
// tools, the `onToolCalls` hook sees the calls and decides; after each
// complete round, `onRoundCompleted` gets the transcript to save.
//
// A round is one response and the tool outputs that answer it; round `r`
// is `transcript.responses[r]`, the numbering snapshots use too.

/// A response that called client tools, before they run.
public struct ToolRound: Sendable {
    /// The response's index in ``SessionTranscript/responses``.
    public var round: Int
    /// The response.
    public var response: ResponseEntry
    /// Its calls that have no output yet, in content order.
    public var calls: [ToolCallEntry]
    /// The conversation with the response in it.
    public var transcript: SessionTranscript
}

/// What to do with a round's tool calls.
public struct ToolRoundDecision: Sendable, Hashable {
    /// Stop here: nothing runs, the call returns with the calls pending
    /// (``SessionResponse/pendingToolCalls``); ``ClaudeSession/resume()`` runs them later.
    public var stops: Bool
    /// Calls not to run, by `tool_use` id, with the reason the model is told (an error result).
    public var denied: [String: String]
    /// Content added after the tool results, in the same user turn.
    public var added: [TurnContent]

    /// Run every call (what happens without a hook).
    public static let run = ToolRoundDecision(stops: false, denied: [:], added: [])
    /// Run nothing and return.
    public static let stop = ToolRoundDecision(stops: true, denied: [:], added: [])

    /// Deny the call `id`; the model gets `reason` as its error result. The others run.
    public static func deny(_ id: String, reason: String) -> ToolRoundDecision { run.denying(id, reason: reason) }

    /// This decision, also denying the call `id` with `reason`.
    public func denying(_ id: String, reason: String) -> ToolRoundDecision {
        var copy = self
        copy.denied[id] = reason
        return copy
    }

    /// This decision, also adding `content` after the results.
    public func adding(_ content: [TurnContent]) -> ToolRoundDecision {
        var copy = self
        copy.added += content
        return copy
    }
}

/// A round that completed: its response and outputs are in the transcript.
public struct CompletedRound: Sendable {
    /// The response's index in ``SessionTranscript/responses``.
    public var round: Int
    /// The response of the round.
    public var response: ResponseEntry
    /// The outputs that answered its calls (empty: no calls, or they are pending).
    public var toolOutputs: [ToolResult]
    /// Calls of the response still without output (a stop, a turn limit).
    public var pendingCalls: [ToolCallEntry]
    /// True when the call ends with this round (a final answer, a stop, a turn limit).
    public var isLast: Bool
    /// The conversation after the round: what a caller saves.
    public var transcript: SessionTranscript
}
