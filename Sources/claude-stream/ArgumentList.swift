// Reading a command's arguments: its flags (with their values) and at most
// one input, FILE or `-` for stdin. Every command walks its flags with
// `nextFlag()` and asks for values here, so a missing value, a number out
// of range and a second FILE read the same way everywhere.

struct ArgumentList {
    private let arguments: [String]
    private var index = 0
    /// The input named: a path, `-` for stdin, or nil when none was given.
    private(set) var input: String?

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next flag; a non-flag argument (or `-`) on the way is taken as
    /// the input. Nil at the end.
    mutating func nextFlag() throws(UsageError) -> String? {
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("-") && argument != "-" { return argument }
            guard input == nil else { throw UsageError("unexpected argument '\(argument)' (one input only)") }
            input = argument
        }
        return nil
    }

    /// The value after `flag`.
    mutating func value(of flag: String) throws(UsageError) -> String {
        guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
        defer { index += 1 }
        return arguments[index]
    }

    /// A whole number from 0 to Int.max after `flag`.
    mutating func count(of flag: String) throws(UsageError) -> Int {
        let text = try value(of: flag)
        guard let value = Int(text), value >= 0 else {
            throw UsageError("\(flag) takes a whole number from 0 to \(Int.max), not '\(text)'")
        }
        return value
    }

    /// The error for a flag the command does not know.
    func unknown(_ flag: String) -> UsageError { UsageError("unknown option '\(flag)'") }
}

/// The start every streaming command shares: read the options, open the
/// input, and print what went wrong with either.
enum CommandStart {
    /// The options and the opened input, or the exit code once the problem
    /// is printed (the usage text with a usage error).
    static func prepare<Options>(
        _ command: String, usage: String, _ arguments: [String],
        parse: ([String]) throws(UsageError) -> Options,
        open: (Options) throws(InputError) -> StreamInput
    ) -> Result<(Options, StreamInput), CommandExit> {
        let options: Options
        do throws(UsageError) { options = try parse(arguments) } catch {
            CLIOutput.standardError("\(command): \(error.message)\n" + usage)
            return .failure(CommandExit(status: ExitCodes.usage))
        }
        do throws(InputError) { return .success((options, try open(options))) } catch {
            CLIOutput.standardError("\(command): \(error.message)")
            return .failure(CommandExit(status: error.exitCode))
        }
    }
}

/// An exit status as an error, for ``CommandStart``.
struct CommandExit: Error {
    var status: Int32
}

extension Result where Failure == CommandExit {
    /// The exit status of a failed start (0 for a successful one).
    var exitStatus: Int32 {
        if case .failure(let exit) = self { return exit.status }
        return ExitCodes.success
    }
}
