// A program the test runs (the built `claude-stream`, the loopback server,
// script(1)) as a ClaudeShellTools ChildProcess, the way every child of the
// package starts: its own process group, a clean signal state, no
// descriptor but its own three, a time limit, and SIGKILL if the test
// process dies. On top of it, what tests need: stdin fed piece by piece
// (slowly, to check output appears before the input ends, or in bulk from
// a generator, through a real pipe), stdout read as it comes, and the
// child's own resource usage: CPU time from wait4(2); peak resident memory
// from GNU time, because Linux counts the test runner's pages at the
// moment of the start as the child's ru_maxrss.
//
// Every run has a deadline (`deadlineSeconds`) after which the child's
// group is stopped and the test fails, saying so, instead of stalling the
// whole run until CI's time is up.

import ClaudeShellTools
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package final class ProgramUnderTest: @unchecked Sendable {
    // @unchecked: `collected` belongs to the thread that reads stdout (the
    // test's); a feeding thread only writes stdin, through `child`.

    package enum Output { case pipe, null }

    /// Whether this process (and so the binary it tests, built the same
    /// way) runs under AddressSanitizer: its shadow memory and quarantine
    /// inflate peak memory and stretch large runs more than small ones, so
    /// the memory bounds and time ratios are checked in the plain run only.
    package static let underAddressSanitizer: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(program) }
        return dlsym(program, "__asan_init") != nil
    }()

    package struct Result {
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: String
        /// User plus system CPU time of the child, in seconds.
        package var cpuSeconds: Double
        /// Peak resident memory of the child, in bytes.
        package var peakResidentBytes: Int
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// GNU time, which forks (so its child's peak is the child's own).
    package static let peakMeter: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    /// How long a child may run before it is stopped: far above the
    /// slowest case (a 1 GiB pipe, a few seconds), far below CI's budget.
    package static let deadlineSeconds: Double = 300

    package let child: ChildProcess
    package var pid: pid_t { child.pid }
    private let timeLimit: Double
    /// Where GNU time writes the child's peak RSS in KiB, when it measures.
    private let peakFile: String?
    private var collected: [UInt8] = []

    /// Starts `executable` with `arguments`; `environment` (all of it)
    /// replaces this process's when given.
    package init(
        executable: String, _ arguments: [String], environment: [String: String]? = nil, stdout: Output = .pipe,
        stderr: ChildProcess.Stream = .pipe, measuringPeak: Bool = false, timeLimit: Double = ProgramUnderTest.deadlineSeconds
    ) throws {
        var command = arguments
        var executablePath = executable
        if measuringPeak, let meter = Self.peakMeter {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
            command = ["-f", "%M", "-o", file, executable] + arguments
            executablePath = meter
            peakFile = file
        } else {
            peakFile = nil
        }
        self.timeLimit = timeLimit
        child = try ChildProcess(
            executable: executablePath, arguments: command, environment: environment.map { $0.map { "\($0.key)=\($0.value)" } },
            standardOutput: stdout == .null ? .null : .pipe, standardError: stderr,
            timeLimit: .milliseconds(Int64(timeLimit * 1000)), grace: .seconds(5))
    }

    /// Writes all of `bytes` to the child's stdin; false once the child stopped reading.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool { child.writeInput(bytes) }

    package func closeInput() { child.closeInput() }

    /// Sends `number` to the program alone.
    package func signal(_ number: Int32) { child.sendSignal(number) }

    /// Sends `number` to the program's whole process group.
    package func signalGroup(_ number: Int32) { child.signalGroup(number) }

    /// Waits up to `timeout` seconds for stdout to hold `count` bytes in all;
    /// returns everything read so far.
    package func waitForOutput(atLeast count: Int, timeout: Double) -> [UInt8] {
        waitForOutput(timeout: timeout) { $0.count >= count }
    }

    /// Waits up to `timeout` seconds until the output so far satisfies `done`.
    package func waitForOutput(timeout: Double, until done: ([UInt8]) -> Bool) -> [UInt8] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while !done(collected), ContinuousClock.now < deadline, let piece = child.readOutput(waitingAtMost: deadline - .now) {
            collected += piece
        }
        return collected
    }

    /// Closes stdin (unless another thread feeds it), reads the rest of the
    /// output and reaps the child (stopping it at its deadline).
    package func finish(closingInput: Bool = true) -> Result {
        if closingInput { closeInput() }
        let outcome = child.collect()
        var errors = outcome.errorOutput
        let status: Int32
        switch outcome.ending {
        case .exited(let code): status = code
        case .signalled(let signal): status = 128 + signal
        case .timedOut, .cancelled, .tooMuchOutput:
            status = 128 + SIGKILL
            errors += Array("[test harness: stopped after \(Int(timeLimit)) s]\n".utf8)
        }
        var peak = outcome.peakResidentBytes
        if let peakFile {
            let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: peakFile)
            // GNU time adds "Command exited with non-zero status N" before the figure.
            if let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { peak = kib * 1024 }
        }
        let cpu = Double(outcome.cpuTime.components.seconds) + Double(outcome.cpuTime.components.attoseconds) / 1e18
        return Result(
            status: status, stdout: collected + outcome.output, stderr: String(decoding: errors, as: UTF8.self), cpuSeconds: cpu,
            peakResidentBytes: peak)
    }

    /// Runs to the end with `input` written from a background thread (so a
    /// child that writes while it reads cannot deadlock against the test).
    package static func run(
        executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .pipe, measuringPeak: Bool = false,
        input: @escaping @Sendable (ProgramUnderTest) -> Void
    ) throws -> Result {
        let program = try ProgramUnderTest(executable: executable, arguments, environment: environment, stdout: stdout, measuringPeak: measuringPeak)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            input(program)
            program.closeInput()
            done.signal()
        }
        let result = program.finish(closingInput: false)
        done.wait()
        return result
    }
}
