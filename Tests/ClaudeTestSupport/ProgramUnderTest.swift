// Runs a program (the built `claude-stream`, the loopback server) as a
// child process the test controls:
// stdin fed piece by piece (slowly, to check output appears before the
// input ends, or in bulk from a generator, through a real pipe), stdout
// read as it comes or sent to a file, and the child's own resource usage:
// CPU time from wait4(2); peak resident memory from GNU time, because
// posix_spawn starts the child in the test runner's address space (vfork)
// and Linux then counts the runner's peak as the child's ru_maxrss.
//
// Tests run in parallel, so a child must inherit no descriptor but its own
// three. posix_spawn hands on every descriptor not marked close-on-exec:
// two children spawned at once each kept the other's stdin open, so neither
// ever saw end of input and both waited forever (the CI run of 2026-12-01
// hung until its time ran out). So children start through the shell
// tools' ChildSpawn: serialised with every other spawn of the process,
// close-on-exec pipes, no other descriptor in the child; and every wait
// has a deadline after which the child is killed and the test fails,
// saying so.
//
// The child starts with an empty signal mask, every signal at its default
// disposition (the test runner ignores SIGPIPE, and a child that inherited
// that would spin on a closed pipe) and in a process group of its own, so
// the deadline kills the whole group, grandchildren included.

import ClaudeShellTools
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package final class ChildProcess {
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

    package let pid: pid_t
    private var input: Int32
    /// Where GNU time writes the child's peak RSS in KiB, when it measures.
    private let peakFile: String?
    private let output: Int32
    private let errors: Int32
    private var collected: [UInt8] = []

    /// Starts `executable` with `arguments`; `environment` (all of it) replaces this process's when given.
    package init(
        executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .pipe, measuringPeak: Bool = false
    ) throws {
        var command = [executable] + arguments
        var executablePath = executable
        if measuringPeak, let meter = Self.peakMeter {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
            command = [meter, "-f", "%M", "-o", file] + command
            executablePath = meter
            peakFile = file
        } else {
            peakFile = nil
        }
        // A child that exits early (a limit fired) must not kill the test with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let variables = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let child: ChildSpawn.Child
        switch ChildSpawn.spawn(executablePath, arguments: command, environment: variables, discardingStdout: stdout == .null) {
        case .success(let started): child = started
        case .failure: throw CocoaError(.executableLoad)
        }
        pid = child.pid
        input = child.stdin
        output = child.stdout
        errors = child.stderr
        // Never let a later write to a closed pipe, or an unread pipe, wedge the test.
        if output >= 0 { _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK) }
    }

    /// How long `finish` waits for the child before killing it: far above
    /// the slowest case (a 1 GiB pipe, a few seconds), far below CI's budget.
    package static let deadlineSeconds: Double = 300

    /// Writes all of `bytes` to the child's stdin; false once the child stopped reading.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(input, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    package func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits up to `timeout` seconds for stdout to hold `count` bytes in all;
    /// returns everything read so far.
    package func waitForOutput(atLeast count: Int, timeout: Double) -> [UInt8] {
        waitForOutput(timeout: timeout) { $0.count >= count }
    }

    /// Waits up to `timeout` seconds until the output so far satisfies `done`.
    package func waitForOutput(timeout: Double, until done: ([UInt8]) -> Bool) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while !done(collected) && Date() < deadline {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 10)
            drain()
        }
        return collected
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            collected.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether a `read` that returned `count` (nothing) ended its pipe: at
    /// its end, or on an error other than a signal or an empty pipe, which
    /// the next round of `poll` retries.
    private static func ended(_ count: Int) -> Bool {
        count == 0 || (errno != EINTR && errno != EAGAIN)
    }

    /// Closes stdin (unless another thread feeds it), reads the rest of the
    /// output and reaps the child.
    package func finish(closingInput: Bool = true) -> Result {
        if closingInput { closeInput() }
        var errorBytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var outputOpen = output >= 0
        var errorsOpen = true
        let deadline = Date().addingTimeInterval(Self.deadlineSeconds)
        var killed = false
        while outputOpen || errorsOpen {
            if !killed && Date() > deadline {
                kill(-pid, SIGKILL)
                killed = true
                errorBytes.append(contentsOf: Array("[test harness: killed after \(Int(Self.deadlineSeconds)) s]\n".utf8))
            }
            // A grandchild (GNU time's) may still hold the pipes: stop reading.
            if killed && Date() > deadline.addingTimeInterval(5) { break }
            var pollers = [
                pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&pollers, 2, 1000)
            if outputOpen && pollers[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count > 0 { collected.append(contentsOf: buffer[0..<count]) } else if Self.ended(count) { outputOpen = false }
            }
            if errorsOpen && pollers[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
                if count > 0 { errorBytes.append(contentsOf: buffer[0..<count]) } else if Self.ended(count) { errorsOpen = false }
            }
        }
        if output >= 0 { close(output) }
        close(errors)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        var peak = usage.ru_maxrss * 1024
        if let peakFile {
            let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: peakFile)
            // GNU time adds "Command exited with non-zero status N" before the figure.
            if let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { peak = kib * 1024 }
        }
        return Result(
            status: exit, stdout: collected, stderr: String(decoding: errorBytes, as: UTF8.self),
            cpuSeconds: cpu, peakResidentBytes: peak)
    }

    /// Runs to the end with `input` written from a background thread (so a
    /// child that writes while it reads cannot deadlock against the test).
    package static func run(
        executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .pipe, measuringPeak: Bool = false,
        input: @escaping @Sendable (ChildProcess) -> Void
    ) throws -> Result {
        let child = try ChildProcess(
            executable: executable, arguments, environment: environment, stdout: stdout, measuringPeak: measuringPeak)
        let done = DispatchSemaphore(value: 0)
        let box = UncheckedChild(child)
        Thread.detachNewThread {
            input(box.child)
            box.child.closeInput()
            done.signal()
        }
        let result = child.finish(closingInput: false)
        done.wait()
        return result
    }
}

/// Hands the child to the feeding thread; the two threads touch disjoint
/// descriptors (stdin there, stdout and stderr here).
private struct UncheckedChild: @unchecked Sendable {
    let child: ChildProcess
    init(_ child: ChildProcess) { self.child = child }
}
