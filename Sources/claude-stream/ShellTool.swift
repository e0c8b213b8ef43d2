// A client tool of `chat` as a shell command (`--tool NAME=COMMAND`,
// `--tool-json NAME=COMMAND`). The call's input JSON goes to the command's
// stdin; CLAUDE_TOOL_USE_ID and CLAUDE_TOOL_NAME are in its environment and
// no credential is (CredentialEnvironment). It runs as a ToolProcess: its
// own process group, killed at --tool-timeout, on Ctrl-C and at --timeout.
//
// `--tool`: stdout, one trailing newline dropped, is the result's text.
// `--tool-json`: stdout is a JSON value; a string or an array of content
// blocks is sent as the result's `content` itself, any other value as its
// JSON text. A non-zero exit, a signal, a timeout or output that is not
// JSON is an `is_error` result whose text says what happened, with the
// command's stdout and the last bytes of its stderr (secrets redacted).

import ClaudeSession
import ClaudeTransport
import IncrementalJSON

/// What every shell tool of one run shares.
struct ShellToolSettings: Sendable {
    /// The environment as chat started (credentials are dropped per tool).
    var environment: [String: String]
    var limits: ToolProcessLimits
    /// Removes any credential value from what a tool wrote.
    var redactor: SecretRedactor

    /// Default of `--tool-timeout`, in seconds.
    static let defaultTimeout = 120.0
    /// Default of `--tool-concurrency`.
    static let defaultConcurrency = 4
}

/// The `content` of a tool result and whether it is an error.
struct ShellToolResult: Sendable {
    var content: JSONValue
    var isError: Bool
}

struct ShellTool: ClientTool {
    typealias Arguments = JSONValue

    var name: String
    var command: String
    var outputIsJSON: Bool
    var settings: ShellToolSettings

    /// A definition from --tools replaces this one (the session keeps the first of a name).
    var description: String { "Runs a command; the input JSON is its standard input." }
    /// Any JSON object.
    var inputSchema: JSONValue { .object([("type", .string("object"))]) }

    /// An error result's text (ClaudeSession sends a thrown error's description).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func call(_ input: JSONValue) async throws -> ToolOutput {
        let result = await run(id: ClientToolCall.current?.id ?? "", input: input)
        let content = result.content
        if result.isError { throw Failure(description: content.stringValue ?? content.compactJSON) }
        if let text = content.stringValue { return .text(text) }
        return .blocks([.verbatimBlocks(content)])
    }

    /// Runs the command for the call `id`.
    func run(id: String, input: JSONValue) async -> ShellToolResult {
        if Task.isCancelled { return failure("the run was stopped before the tool started; it did not run") }
        var bytes: [UInt8] = []
        input.encodeCompact(into: &bytes)
        let environment = CredentialEnvironment.forTool(
            settings.environment, extra: [("CLAUDE_TOOL_USE_ID", id), ("CLAUDE_TOOL_NAME", name)])
        let outcome = await ToolProcess.run(command, input: bytes, environment: environment, limits: settings.limits)
        return result(outcome)
    }

    func result(_ outcome: ToolProcessOutcome) -> ShellToolResult {
        var stdout = outcome.stdout
        switch outcome.ending {
        case .exited(0):
            if outputIsJSON { return jsonResult(stdout) }
            if stdout.last == UInt8(ascii: "\n") { stdout.removeLast() }
            return ShellToolResult(content: .string(settings.redactor.redact(String(decoding: stdout, as: UTF8.self))), isError: false)
        case .exited(let status):
            return failure("the command exited with status \(status)", outcome)
        case .signalled(let signal):
            return failure("the command was killed by signal \(signal)", outcome)
        case .timedOut:
            return failure("the command was stopped after \(seconds(settings.limits.timeout)) s (--tool-timeout)", outcome)
        case .cancelled:
            return failure("the command was stopped: the run was interrupted", outcome)
        case .tooMuchOutput:
            return failure("the command wrote more than \(settings.limits.maxOutputBytes) bytes and was stopped", outcome)
        case .couldNotStart(let reason):
            return failure("the command could not start: \(reason)")
        }
    }

    /// `--tool-json`: a string or a block array as itself, other JSON as its text.
    private func jsonResult(_ stdout: [UInt8]) -> ShellToolResult {
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONValue.parse(stdout) } catch {
            return failure("the command's output is not JSON (\(error)); --tool-json expects one JSON value")
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
            let cut = outcome.stderrTail.count >= settings.limits.stderrTailBytes ? "…" : ""
            text += "\nstderr:\n" + cut + String(decoding: outcome.stderrTail, as: UTF8.self)
        }
        return ShellToolResult(content: .string(settings.redactor.redact(text)), isError: true)
    }

    private func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
