// claude-stream: the command line over the streaming core.
//
// Each subcommand lives in its own file as a type with `usage` (its help
// text) and `run(_:)` returning the exit code; `commands` below is the one
// table of them, so a new subcommand is one entry. `-h`/`--help` anywhere in
// a subcommand's arguments prints that command's usage and exits 0, before
// the command parses anything. The contract (flags, output, exit codes) is
// in README.md and must stay stable: outside checks drive it.

import ClaudeTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The version `claude-stream --version` prints: the package's.
let version = ClaudeStreamingVersion.current

/// One subcommand: its name, a one-line summary, its usage text, its entry.
struct Subcommand {
    var name: String
    var summary: String
    var usage: String
    var run: ([String]) async -> Int32
}

let commands: [Subcommand] = [
    Subcommand(
        name: "replay", summary: "render a recorded stream as it builds up (bundled recording without FILE, stdin with -)",
        usage: ReplayCommand.usage, run: { ReplayCommand.run($0) }),
    Subcommand(
        name: "events", summary: "one JSON line per event, SSE or Bedrock's event stream (stdin without FILE)",
        usage: EventsCommand.usage, run: { EventsCommand.run($0) }),
    Subcommand(
        name: "json", summary: "validate and print one JSON text (stdin without FILE)",
        usage: JSONCommand.usage, run: { JSONCommand.run($0) }),
    Subcommand(
        name: "chat", summary: "stream a real request (key from ANTHROPIC_API_KEY; --bedrock, --vertex)",
        usage: ChatCommand.usage, run: { await ChatCommand.run($0) }),
]

let usage = """
    usage: claude-stream <command> [options]      (claude-stream <command> --help for its options)

    commands:
    \(commands.map { "  " + $0.name + String(repeating: " ", count: max(1, 8 - $0.name.count)) + $0.summary }.joined(separator: "\n"))

      --version       print the version
      -h, --help      this text

    """ + ExitCodes.text

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    CLIOutput.standardError(usage)
    _exit(ExitCodes.usage)
}
let rest = Array(arguments.dropFirst())
let status: Int32
if let command = commands.first(where: { $0.name == first }) {
    if rest.contains("-h") || rest.contains("--help") {
        CLIOutput.standardOutput(command.usage)
        status = ExitCodes.success
    } else {
        status = await command.run(rest)
    }
} else {
    switch first {
    case "-h", "--help", "help":
        if let named = rest.first, let command = commands.first(where: { $0.name == named }) {
            CLIOutput.standardOutput(command.usage)
        } else {
            CLIOutput.standardOutput(usage)
        }
        status = ExitCodes.success
    case "--version", "version":
        CLIOutput.standardOutput("claude-stream \(version)")
        status = ExitCodes.success
    default:
        CLIOutput.standardError("claude-stream: unknown command '\(first)'\n\n" + usage)
        status = ExitCodes.usage
    }
}
// Every byte of output went out through write(2) (CLIOutput), so no buffer
// is left to flush: end with _exit. exit(3) would first run the exit-time
// handlers of the libraries loaded (OpenSSL's cleanup, C++ destructors)
// while dispatch threads may still be at work: after --timeout or a signal
// they are cancelling the request, some just starting.
_exit(status)
