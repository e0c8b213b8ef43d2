// A shell command run by script(1), which gives it a terminal of its own:
// what the test types goes to that terminal, and what the command writes
// there comes back byte for byte (plus the terminal's `\r` before each line
// feed). For the tests of what reaches a terminal, and of chat's
// interactive mode.
//
// The output is read to its end before the input is closed: some versions
// of script(1) end the command as soon as their input ends.

import Foundation

package final class TerminalRun: Sendable {
    /// Whether script(1) is installed where the tests look for it.
    package static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    private let program: ProgramUnderTest

    /// Starts `command` (a shell command line) on a terminal; `environment`
    /// (all of it) replaces this process's when given. A command still
    /// running after `deadline` seconds is stopped, so a hang fails its
    /// test instead of stalling the whole run.
    package init(_ command: String, environment: [String: String]? = nil, deadline: Double = 300) throws {
        program = try ProgramUnderTest(
            executable: "/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, stderr: .standardOutput,
            timeLimit: deadline)
    }

    /// Types `text` at the command's terminal.
    package func type(_ text: String) throws {
        guard program.send(Array(text.utf8)) else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Waits for the command to end: its exit status and every byte it
    /// wrote to the terminal.
    package func finish() throws -> (status: Int32, bytes: [UInt8]) {
        let result = program.finish(closingInput: false)
        program.closeInput()
        return (result.status, result.stdout)
    }

    /// Runs `command` to its end without typing anything.
    package static func run(_ command: String) throws -> (status: Int32, bytes: [UInt8]) {
        try TerminalRun(command).finish()
    }
}
