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
// Text output: stdout, one trailing newline dropped, is the result's text,
// cut to ShellToolLimits.maxResultBytes; output that is not text (a NUL
// byte, or not UTF-8) is described instead of sent.
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
/// The result holds at most ``ShellToolLimits/maxResultBytes`` of text:
/// longer output is cut and says so, and output that is not UTF-8 text
/// (a NUL byte, or bytes that are not UTF-8) is described, with its size,
/// and not sent. Only that much of stdout is kept in memory, whatever the
/// command writes.
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
        switch await ToolProcess.run(command, input: bytes, environment: environment, limits: options.limits) {
        case .ran(let outcome): return result(outcome)
        case .couldNotStart(let reason): return failure("the command could not start: \(reason)")
        case .cancelledBeforeStart: return failure("the run was stopped before the tool started; it did not run")
        }
    }

    func result(_ outcome: ChildProcess.Outcome) -> ShellToolResult {
        let limits = options.limits
        switch outcome.ending {
        case .exited(0):
            if !outputIsJSON { return ShellToolResult(content: .string(redacted(outputText(outcome, within: limits.maxResultBytes))), isError: false) }
            guard outcome.outputByteCount <= outcome.output.count else {
                return failure(
                    "the command wrote \(outcome.outputByteCount) bytes of JSON, more than the \(limits.maxResultBytes) a result holds; JSON cannot be cut")
            }
            return jsonResult(outcome.output)
        case .exited(let status):
            return failure("the command exited with status \(status)", outcome)
        case .signalled(let signal):
            return failure("the command was killed by signal \(signal)", outcome)
        case .timedOut:
            return failure("the command was stopped after \(seconds(limits.timeout)) s (its time limit)", outcome)
        case .cancelled:
            return failure("the command was stopped: the run was interrupted", outcome)
        case .tooMuchOutput:
            return failure("the command wrote more than \(limits.maxOutputBytes) bytes and was stopped", outcome)
        }
    }

    /// What the result says of stdout, in at most `limit` bytes: its text
    /// (one trailing newline dropped), cut to fit and saying so, or a
    /// description of output that is not text.
    ///
    /// Text is UTF-8 without NUL bytes. NUL is valid UTF-8 but marks binary
    /// data (as git and grep take it), and the API's JSON would carry each
    /// as six bytes (`\u0000`); other control characters (escape sequences
    /// of colored output, backspaces) are text. Only the kept prefix is
    /// judged; the rest is not sent, so the result says how long it was.
    private func outputText(_ outcome: ChildProcess.Outcome, within limit: Int) -> String {
        var bytes = outcome.output
        let cut = outcome.outputByteCount > bytes.count
        if cut {
            Self.dropUnfinishedCharacter(&bytes)
        } else if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            return "[binary output, \(outcome.outputByteCount) bytes, not sent]"
        }
        return ToolResultText.fitting(text, within: limit, wholeBytes: cut ? outcome.outputByteCount : nil)
    }

    /// Removes a UTF-8 sequence that the cut at the kept prefix left
    /// unfinished: the last lead byte among the final four, when fewer
    /// bytes follow it than its sequence needs.
    private static func dropUnfinishedCharacter(_ bytes: inout [UInt8]) {
        var back = 1
        while back <= min(4, bytes.count) {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 != 0x80 {
                let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                if length > back { bytes.removeLast(back) }
                return
            }
            back += 1
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

    /// An error result: stdout (what fits), then what happened, then the
    /// tail of stderr.
    private func failure(_ what: String, _ outcome: ChildProcess.Outcome? = nil) -> ShellToolResult {
        var rest = "[\(what)]"
        if let outcome, !outcome.errorOutput.isEmpty {
            let cut = outcome.errorByteCount > outcome.errorOutput.count ? "…" : ""
            rest += "\nstderr:\n" + cut + String(decoding: outcome.errorOutput, as: UTF8.self)
        }
        var text = rest
        if let outcome, outcome.outputByteCount > 0 {
            let room = max(0, options.limits.maxResultBytes - rest.utf8.count - 1)
            text = outputText(outcome, within: room) + "\n" + rest
        }
        return ShellToolResult(content: .string(redacted(text)), isError: true)
    }

    private func redacted(_ text: String) -> String { options.redactor.redact(text) }

    private func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}

#endif
