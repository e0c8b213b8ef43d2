// This executable run again as a child (a memory probe, a loopback server),
// started as ClaudeShellTools' ChildProcess like every child of the
// package: its own process group, an empty signal mask, default signal
// dispositions, a time limit, SIGKILL on Linux if the benchmark dies; a
// pipe to its standard input (closed when done, which ends a server), one
// from its standard output, and the benchmark's own standard error.

import ClaudeShellTools

enum ProbeProcess {
    /// Starts this executable with `arguments`; nil if it could not start.
    static func start(_ arguments: [String]) -> ChildProcess? {
        try? ChildProcess(
            executable: CommandLine.arguments[0], arguments: arguments, standardError: .inherited, timeLimit: .seconds(600))
    }

    /// Runs a probe to its end and returns its first output line.
    static func outputLine(of arguments: [String]) -> String? {
        guard let child = start(arguments) else { return nil }
        let line = firstLine(of: child)
        finish(child)
        return line
    }

    /// Reads the child's output up to its first newline (or its end).
    static func firstLine(of child: ChildProcess) -> String? {
        var bytes: [UInt8] = []
        while !bytes.contains(0x0A), let piece = child.readOutput(waitingAtMost: .seconds(600)) { bytes += piece }
        let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).first ?? []
        return bytes.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// Closes the child's input (a server then exits) and waits for it.
    static func finish(_ child: ChildProcess) {
        child.closeInput()
        _ = child.collect()
    }
}
