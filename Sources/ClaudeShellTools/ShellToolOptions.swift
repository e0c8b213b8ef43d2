#if os(Linux) || os(macOS)

public import ClaudeSession
public import ClaudeTransport

/// How long a shell tool may run and how much of its output is kept.
public struct ShellToolLimits: Sendable, Hashable {
    /// The default ``timeout``: 120 seconds.
    public static let defaultTimeout: Duration = .seconds(120)

    /// From the start to SIGTERM of the command's process group.
    public var timeout: Duration
    /// From SIGTERM to SIGKILL, for a command that ignores SIGTERM.
    public var grace: Duration
    /// Most stdout bytes read; past that the group is killed and the call
    /// is an error. Only the first ``maxResultBytes`` are kept: the rest is
    /// counted.
    public var maxOutputBytes: Int
    /// The most UTF-8 bytes of text a call's result holds: stdout past it
    /// is cut (the result says so and how much there was), the whole
    /// result included. The session cuts every tool's text the same way
    /// (`SessionConfiguration.maxToolResultBytes`).
    public var maxResultBytes: Int
    /// The last bytes of stderr kept, for an error result's text.
    public var stderrTailBytes: Int

    /// Limits of `timeout`, `grace` (500 ms), 1 GiB of stdout read, 1 MiB
    /// of text in the result and 2 KiB of stderr.
    public init(
        timeout: Duration = ShellToolLimits.defaultTimeout, grace: Duration = .milliseconds(500), maxOutputBytes: Int = 1 << 30,
        maxResultBytes: Int = SessionConfiguration.defaultMaxToolResultBytes, stderrTailBytes: Int = 2048
    ) {
        self.timeout = timeout
        self.grace = grace
        self.maxOutputBytes = maxOutputBytes
        self.maxResultBytes = maxResultBytes
        self.stderrTailBytes = stderrTailBytes
    }
}

/// What every ``ShellTool`` of a session shares: the environment, the
/// limits and the redaction of what a command writes.
public struct ShellToolOptions: Sendable {
    /// The environment a command gets, less every name in
    /// ``CredentialEnvironment/scrubbed`` (dropped at each call).
    public var environment: [String: String]
    /// The time and output limits of each call.
    public var limits: ShellToolLimits
    /// Removes secrets from a result's text (stdout and stderr alike).
    public var redactor: SecretRedactor

    /// Options for tools run in `environment`; by default the redactor
    /// removes the value of every credential variable of `environment`.
    public init(environment: [String: String], limits: ShellToolLimits = ShellToolLimits(), redactor: SecretRedactor? = nil) {
        self.environment = environment
        self.limits = limits
        self.redactor = redactor ?? SecretRedactor(secrets: CredentialEnvironment.secrets(in: environment))
    }
}

#endif
