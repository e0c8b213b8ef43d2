/// How a ``ClaudeSession`` runs its loop: the limit on requests per call,
/// what a new prompt does to pending tool calls, how many tools run at once,
/// and the caller's hooks between rounds. The request itself (model,
/// max_tokens, system, tools, …) is not here: it is the transcript's
/// ``SessionTranscript/setup``.
public struct SessionConfiguration: Sendable {
    /// Most requests one call makes (tool rounds and `pause_turn`
    /// continuations included); more ends with ``SessionError/Kind/turnLimitReached(turns:pendingCalls:)``.
    public var maxTurns: Int
    /// What a new prompt does when the last response's tool calls have no output.
    public var pendingCalls: PendingCallPolicy
    /// Most tools of one response running at the same time (at least 1).
    public var maxConcurrentTools: Int
    /// Asked after each response that calls client tools, before they run:
    /// run them (the default without a hook), deny some, stop, or add content.
    public var onToolCalls: (@Sendable (ToolRound) async -> ToolRoundDecision)?
    /// Told after each complete round (a response and, when it called
    /// tools, their outputs), with the transcript as it now stands: the
    /// place to save it.
    public var onRoundCompleted: (@Sendable (CompletedRound) async -> Void)?
    /// The most UTF-8 bytes of text one tool result sends (1 MiB by
    /// default); a longer text is cut and says so (``ToolResultText``).
    public var maxToolResultBytes = SessionConfiguration.defaultMaxToolResultBytes

    /// At most `maxTurns` requests per call (10), pending calls answered as
    /// not run, 8 tools at a time, no hooks.
    public init(
        maxTurns: Int = 10, pendingCalls: PendingCallPolicy = .answerAsNotRun, maxConcurrentTools: Int = 8,
        onToolCalls: (@Sendable (ToolRound) async -> ToolRoundDecision)? = nil,
        onRoundCompleted: (@Sendable (CompletedRound) async -> Void)? = nil
    ) {
        self.maxTurns = maxTurns
        self.pendingCalls = pendingCalls
        self.maxConcurrentTools = maxConcurrentTools
        self.onToolCalls = onToolCalls
        self.onRoundCompleted = onRoundCompleted
    }
}

/// What a new prompt does when tool calls of the last response have no
/// output (a turn limit, a cancellation or the caller stopped first). Tools
/// are never re-run by a prompt: only ``ClaudeSession/resume()`` runs them.
public enum PendingCallPolicy: Sendable, Hashable {
    /// Each pending call gets an error result saying it was not run, then the prompt follows.
    case answerAsNotRun
    /// The call throws ``SessionError/Kind/pendingToolCalls(_:)``; nothing is sent.
    case refuse
}
