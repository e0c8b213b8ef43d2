// The flags of `claude-stream chat`, parsed and checked before anything is
// sent. Numeric flags are bounded: zero, negative, non-numbers, NaN,
// infinities and values past the bound are usage errors (exit 64) that name
// the flag and the bound.

import ClaudeSession
import ClaudeShellTools
import ClaudeTransport

struct ChatUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

struct ChatOptions: Sendable {
    var prompt: String?
    var model: String?
    var system: String?
    var effort: String?
    var search = false
    var schemaPath: String?
    var baseURL: String?
    var maxTokens: Int?
    var finalJSON = false
    var requestPath: String?
    var toolsPath: String?
    /// `--tool` and `--tool-json`, in the order given.
    var toolCommands: [ToolCommand] = []
    /// `--tool-timeout`: seconds from a tool's start to SIGTERM of its group.
    var toolTimeout = Double(ShellToolLimits.defaultTimeout.components.seconds)
    /// `--tool-concurrency`: tool processes at once (4 by default: a shell
    /// tool is a process, fewer at once than the session's default).
    var toolConcurrency = 4
    /// `--tool-output-limit`: the most bytes of text one tool result sends.
    var toolOutputLimit = SessionConfiguration.defaultMaxToolResultBytes
    var toolChoice: ToolChoice?
    var maxTurns = 10
    /// `--retries`: retries of a failed request or a broken round (0: none).
    var retries = RetryPolicy.standard.maxRetries
    var transcriptPath: String?
    /// Overall limit of the whole run, in seconds.
    var timeout: Double?
    /// `--bedrock REGION` / `--vertex PROJECT/REGION`; nil is the Anthropic API.
    var endpoint: ClaudeEndpoint?

    struct ToolCommand: Sendable {
        var name: String
        var command: String
        /// `--tool-json`: stdout is a JSON value.
        var json: Bool
    }

    /// The command of the tool called `name`, if one was given.
    func toolCommand(_ name: String) -> ToolCommand? { toolCommands.first { $0.name == name } }

    static let maxTurnsLimit = 1000
    static let retriesLimit = 100
    static let toolConcurrencyLimit = 64
    static let maxTokensLimit = 1 << 20
    /// 8 MiB: several results travel in one request, a byte of text can be
    /// six in its JSON, and the API refuses a request over 32 MB.
    static let toolOutputLimitBound = 8 << 20
    /// One week: past that a timeout is a mistake, not a limit.
    static let timeoutLimit = 604_800.0

    static func parse(_ arguments: [String]) throws(ChatUsageError) -> ChatOptions {
        var options = ChatOptions()
        var index = 0
        func value(_ flag: String) throws(ChatUsageError) -> String {
            index += 1
            guard index < arguments.count else { throw ChatUsageError("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--model": options.model = try value(argument)
            case "--system": options.system = try value(argument)
            case "--effort": options.effort = try value(argument)
            case "--search": options.search = true
            case "--schema": options.schemaPath = try value(argument)
            case "--base-url": options.baseURL = try value(argument)
            case "--final-json": options.finalJSON = true
            case "--request": options.requestPath = try value(argument)
            case "--tools": options.toolsPath = try value(argument)
            case "--transcript": options.transcriptPath = try value(argument)
            case "--max-tokens": options.maxTokens = try integer(argument, try value(argument), limit: maxTokensLimit)
            case "--max-turns": options.maxTurns = try integer(argument, try value(argument), limit: maxTurnsLimit)
            case "--retries": options.retries = try integer(argument, try value(argument), from: 0, limit: retriesLimit)
            case "--timeout": options.timeout = try seconds(argument, try value(argument))
            case "--tool-timeout": options.toolTimeout = try seconds(argument, try value(argument))
            case "--tool-concurrency": options.toolConcurrency = try integer(argument, try value(argument), limit: toolConcurrencyLimit)
            case "--tool-output-limit": options.toolOutputLimit = try integer(argument, try value(argument), limit: toolOutputLimitBound)
            case "--bedrock", "--vertex":
                guard options.endpoint == nil else { throw ChatUsageError("give one of --bedrock and --vertex, once") }
                let text = try value(argument)
                if argument == "--bedrock" {
                    guard !text.isEmpty else { throw ChatUsageError("--bedrock: expected a REGION such as us-east-1") }
                    options.endpoint = .bedrock(region: text)
                } else {
                    guard let endpoint = vertex(projectAndRegion: text) else {
                        throw ChatUsageError("--vertex: expected PROJECT/REGION such as my-project/us-east5, got '\(text)'")
                    }
                    options.endpoint = endpoint
                }
            case "--tool", "--tool-json":
                let spec = try value(argument)
                guard let equals = spec.firstIndex(of: "="), equals != spec.startIndex else {
                    throw ChatUsageError("\(argument): expected NAME=COMMAND, got '\(spec)'")
                }
                let name = String(spec[..<equals])
                let command = String(spec[spec.index(after: equals)...])
                guard !command.isEmpty else { throw ChatUsageError("\(argument) \(name): the command is empty") }
                guard options.toolCommand(name) == nil else { throw ChatUsageError("\(argument): tool '\(name)' given twice") }
                options.toolCommands.append(ToolCommand(name: name, command: command, json: argument == "--tool-json"))
            case "--tool-choice":
                let text = try value(argument)
                guard let choice = ToolChoice(parsing: text) else {
                    throw ChatUsageError("--tool-choice: expected auto, any, none or tool:NAME, got '\(text)'")
                }
                options.toolChoice = choice
            default:
                guard !argument.hasPrefix("--"), options.prompt == nil else {
                    throw ChatUsageError(options.prompt == nil ? "unknown option \(argument)" : "only one PROMPT")
                }
                options.prompt = argument
            }
            index += 1
        }
        return options
    }

    /// `--vertex PROJECT/REGION`: nil unless two non-empty parts.
    static func vertex(projectAndRegion value: String) -> ClaudeEndpoint? {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return .vertex(project: String(parts[0]), region: String(parts[1]))
    }

    /// A whole number in `from...limit`.
    static func integer(_ flag: String, _ text: String, from lowest: Int = 1, limit: Int) throws(ChatUsageError) -> Int {
        guard let number = Int(text) else {
            throw ChatUsageError("\(flag): not a whole number: '\(text)' (expected \(lowest) to \(limit))")
        }
        guard number >= lowest, number <= limit else {
            throw ChatUsageError("\(flag): \(number) is out of range (expected \(lowest) to \(limit))")
        }
        return number
    }

    /// A finite number of seconds in (0, timeoutLimit].
    static func seconds(_ flag: String, _ text: String) throws(ChatUsageError) -> Double {
        guard let number = Double(text), number.isFinite else {
            throw ChatUsageError("\(flag): not a finite number of seconds: '\(text)'")
        }
        guard number > 0, number <= timeoutLimit else {
            throw ChatUsageError("\(flag): \(text) is out of range (expected more than 0 and at most \(Int(timeoutLimit)) seconds)")
        }
        return number
    }
}
