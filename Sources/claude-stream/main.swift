// claude-stream: the command line over the streaming core.
//
// Each subcommand lives in its own file as a type with
// `static func run(_ arguments: [String]) -> Int32` returning the exit code.
// The contract (flags, output, exit codes) is in README.md and must stay
// stable: outside checks drive it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    usage: claude-stream <command> [options]

    commands:
      replay [FILE]   render a recorded stream as it builds up (bundled recording without FILE)
      events [FILE]   one JSON line per dispatched server-sent event (stdin without FILE)
      json [FILE]     validate and print one JSON text (stdin without FILE)
      chat PROMPT     stream a real request (key from ANTHROPIC_API_KEY)
    """

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    CLIOutput.standardError(usage)
    exit(64)
}
let rest = Array(arguments.dropFirst())
let status: Int32
switch command {
case "events": status = EventsCommand.run(rest)
case "json": status = JSONCommand.run(rest)
case "replay": status = ReplayCommand.run(rest)
case "chat": status = await ChatCommand.run(rest)
case "-h", "--help", "help":
    CLIOutput.standardOutput(usage)
    status = 0
default:
    CLIOutput.standardError("claude-stream: unknown command '\(command)'\n\n" + usage)
    status = 64
}
exit(status)
