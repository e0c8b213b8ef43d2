#if os(Linux) || os(macOS)

public import ClaudeSession
import ClaudeTransport
public import IncrementalJSON

// A client tool as a shell command. The call's input JSON goes to the
// command's stdin; CLAUDE_TOOL_USE_ID and CLAUDE_TOOL_NAME are in its
// environment and no credential is (CredentialEnvironment). It runs as a
// ToolProcess: its own process group, killed at its time limit and when the
// calling task is cancelled.
//
// Text output: stdout, one trailing newline dropped, is the result's text.
// JSON output: stdout is a JSON value; a string or an array of content
// blocks is sent as the result's `content` itself, any other value as its
// JSON text. A non-zero exit, a signal, a timeout or output that is not
// JSON is an `is_error` result whose text says what happened, with the
// command's stdout and the last bytes of its stderr (secrets redacted).

/// The `content` of a shell tool's result and whether it is an error.
public struct ShellToolResult: Sendable, Hashable {
    /// A string (the text) or an array of content blocks.
    public var content: JSONValue
    /// Whether the result is sent with `is_error`.
    public var isError: Bool

    /// A result of `content`.
    public init(content: JSONValue, isError: Bool) {
        self.content = content
        self.isError = isError
    }
}

/// A `ClientTool` that runs `/bin/sh -c COMMAND` for each call.
///
/// ```swift
/// let options = ShellToolOptions(environment: CredentialEnvironment.capture())
/// let tools: [any ClientTool] = [ShellTool(name: "date", command: "date -u", options: options)]
/// let session = ClaudeSession(setup: setup, tools: tools, transport: client)
/// ```
///
/// The call's input JSON is the command's standard input, and
/// `CLAUDE_TOOL_USE_ID` and `CLAUDE_TOOL_NAME` are in its environment,
/// which never holds a credential (``CredentialEnvironment/scrubbed``). The
/// command runs in a process group of its own with an empty signal mask and
/// default dispositions; the whole group is killed (SIGTERM, then SIGKILL
/// after ``ShellToolLimits/grace``) at ``ShellToolLimits/timeout``, when it
/// writes more than ``ShellToolLimits/maxOutputBytes``, and when the calling
/// task is cancelled, and the call returns only once the group is gone.
///
/// The tools of one response run concurrently, as many at a time as
/// `SessionConfiguration.maxConcurrentTools` allows.
public struct ShellTool: ClientTool {
    /// The call's input, whatever JSON it is.
    public typealias Arguments = JSONValue

    /// The tool's name, as the model calls it.
    public var name: String
    /// The command line `/bin/sh -c` runs.
    public var command: String
    /// Whether stdout is one JSON value (a string or a block array is sent
    /// as the content itself, any other value as its JSON text) rather than text.
    public var outputIsJSON: Bool
    /// The environment, limits and redaction every call uses.
    public var options: ShellToolOptions

    /// A tool `name` running `command`.
    public init(name: String, command: String, outputIsJSON: Bool = false, options: ShellToolOptions) {
        self.name = name
        self.command = command
        self.outputIsJSON = outputIsJSON
        self.options = options
    }

    /// A generic description; a definition declared in the request's
    /// `tools` replaces it (the session keeps the first of a name).
    public var description: String { "Runs a command; the input JSON is its standard input." }
    /// Any JSON object.
    public var inputSchema: JSONValue { .object([("type", .string("object"))]) }

    /// An error result's text (ClaudeSession sends a thrown error's description).
    public struct Failure: Error, CustomStringConvertible {
        /// What happened, then the command's stdout and the tail of its stderr.
        public var description: String
    }

    /// Runs the command for the current call (`ClientToolCall.current`).
    ///
    /// - Throws: ``Failure`` when the command failed, with the text of its error result.
    public func call(_ input: JSONValue) async throws -> ToolOutput {
        let result = await run(id: ClientToolCall.current?.id ?? "", input: input)
        let content = result.content
        if result.isError { throw Failure(description: content.stringValue ?? content.compactJSON) }
        if let text = content.stringValue { return .text(text) }
        return .blocks([.raw(RawJSON(content))])
    }

    /// Runs the command for the call `id` with `input` on its stdin; never
    /// throws: every failure is an error result.
    public func run(id: String, input: JSONValue) async -> ShellToolResult {
        if Task.isCancelled { return failure("the run was stopped before the tool started; it did not run") }
        var bytes: [UInt8] = []
        input.encodeCompact(into: &bytes)
        let environment = CredentialEnvironment.forTool(
            options.environment, extra: [("CLAUDE_TOOL_USE_ID", id), ("CLAUDE_TOOL_NAME", name)])
        let outcome = await ToolProcess.run(command, input: bytes, environment: environment, limits: options.limits)
        return result(outcome)
    }

    func result(_ outcome: ToolProcessOutcome) -> ShellToolResult {
        var stdout = outcome.stdout
        switch outcome.ending {
        case .exited(0):
            if outputIsJSON { return jsonResult(stdout) }
            if stdout.last == UInt8(ascii: "\n") { stdout.removeLast() }
            return ShellToolResult(content: .string(options.redactor.redact(String(decoding: stdout, as: UTF8.self))), isError: false)
        case .exited(let status):
            return failure("the command exited with status \(status)", outcome)
        case .signalled(let signal):
            return failure("the command was killed by signal \(signal)", outcome)
        case .timedOut:
            return failure("the command was stopped after \(seconds(options.limits.timeout)) s (\(options.timeoutName))", outcome)
        case .cancelled:
            return failure("the command was stopped: the run was interrupted", outcome)
        case .tooMuchOutput:
            return failure("the command wrote more than \(options.limits.maxOutputBytes) bytes and was stopped", outcome)
        case .couldNotStart(let reason):
            return failure("the command could not start: \(reason)")
        }
    }

    /// JSON output: a string or a block array as itself, other JSON as its text.
    private func jsonResult(_ stdout: [UInt8]) -> ShellToolResult {
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONValue.parse(stdout) } catch {
            return failure("the command's output is not JSON (\(error)); this tool must write one JSON value")
        }
        if value.stringValue != nil || value.arrayValue != nil { return ShellToolResult(content: value, isError: false) }
        return ShellToolResult(content: .string(value.compactJSON), isError: false)
    }

    /// An error result: what happened, then stdout, then the tail of stderr.
    private func failure(_ what: String, _ outcome: ToolProcessOutcome? = nil) -> ShellToolResult {
        var text = ""
        if let outcome, !outcome.stdout.isEmpty {
            var stdout = outcome.stdout
            if stdout.last == UInt8(ascii: "\n") { stdout.removeLast() }
            text += String(decoding: stdout, as: UTF8.self) + "\n"
        }
        text += "[\(what)]"
        if let outcome, !outcome.stderrTail.isEmpty {
            let cut = outcome.stderrTail.count >= options.limits.stderrTailBytes ? "…" : ""
            text += "\nstderr:\n" + cut + String(decoding: outcome.stderrTail, as: UTF8.self)
        }
        return ShellToolResult(content: .string(options.redactor.redact(text)), isError: true)
    }

    private func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

#endif
