// ChildProcess, the one way the package starts a child: the state the
// program starts in (read from its own /proc entry on Linux), the deadline
// that holds whether or not anyone collects, and cancellation, which wakes
// the collecting thread at once rather than at its next poll.

#if os(Linux) || os(macOS)

import ClaudeSession
import ClaudeShellTools
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let clock = ContinuousClock()

/// Runs `executable ARGUMENTS` to its end; its stdout as text.
private func output(of executable: String, _ arguments: [String]) throws -> String {
    let child = try ChildProcess(executable: executable, arguments: arguments, timeLimit: .seconds(60))
    let outcome = child.collect(input: [])
    #expect(outcome.ending == .exited(0), "\(outcome.ending)")
    return String(decoding: outcome.output, as: UTF8.self)
}

/// The value of `Name:` in a /proc status text.
private func field(_ name: String, in status: String) -> String? {
    status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
}

@Suite struct ChildProcessTests {
    /// The supervisor thread that starts children blocks every signal for
    /// itself, so an empty mask in the child shows it was reset, not inherited.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc"))
    func theProgramStartsWithAnEmptyMaskDefaultDispositionsAndItsOwnGroup() throws {
        let status = try output(of: "/bin/cat", ["/proc/self/status"])
        #expect(field("SigBlk", in: status) == "0000000000000000", "\(status)")
        #expect(field("SigIgn", in: status) == "0000000000000000", "\(status)")
        let stat = try output(of: "/bin/cat", ["/proc/self/stat"])
        // After "(comm)": state, ppid, pgrp.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let pid = try #require(stat.split(separator: " ").first)
        #expect(fields.count > 2 && fields[2] == pid, "group \(fields.count > 2 ? fields[2] : "?") of \(pid)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc"))
    func theProgramHoldsOnlyItsThreeDescriptors() throws {
        // Pipes of other children, open meanwhile, must not reach it.
        let others = try (0..<4).map { _ in try ChildProcess(executable: "/bin/sleep", arguments: ["5"], timeLimit: .seconds(30)) }
        defer {
            for other in others {
                other.cancel()
                _ = other.collect(input: [])
            }
        }
        // ls lists its own directory descriptor too.
        let listed = try output(of: "/bin/ls", ["/proc/self/fd"]).split(separator: "\n").compactMap { Int($0) }.sorted()
        #expect(listed == [0, 1, 2, 3], "\(listed)")
    }

    @Test func theTimeLimitHoldsWhenNothingCollects() throws {
        let child = try ChildProcess(
            executable: "/bin/sleep", arguments: ["600"], standardInput: .null, standardOutput: .null, standardError: .null,
            timeLimit: .milliseconds(200), grace: .milliseconds(100))
        // No thread waits on it: the supervisor's SIGKILL ends it.
        var waited = 0
        while waited < 30_000 && !Self.hasExited(child.pid) {
            usleep(1000)
            waited += 1
        }
        #expect(Self.hasExited(child.pid), "still running after \(waited) ms")
        #expect(child.collect().ending == .timedOut)
    }

    /// Whether `pid` has exited (it is not reaped here).
    static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// The collector sleeps in one poll until something happens: over a
    /// second of waiting it is switched out a handful of times, where a
    /// collector looking at a cancel flag every 10 to 50 ms would be
    /// switched out 20 to 100 times.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/status"), "needs /proc"))
    func theCollectorSleepsUntilCancelWakesIt() async throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["600"], timeLimit: .seconds(600))
        var cancelledAt = clock.now
        // The times are taken on the threads themselves: the test task may
        // wait long for a thread of the shared pool to resume it when other
        // tests block theirs, and that wait is not the collector's.
        let (outcome, switches, returnedAt) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let before = Self.voluntarySwitches()
                let outcome = child.collect(input: [])
                continuation.resume(returning: (outcome, Self.voluntarySwitches() - before, clock.now))
            }
            Thread.sleep(forTimeInterval: 1)
            cancelledAt = clock.now
            child.cancel()
        }
        #expect(outcome.ending == .cancelled)
        #expect(switches < 20, "\(switches) voluntary context switches while waiting")
        #expect(returnedAt - cancelledAt < .seconds(60), "\(returnedAt - cancelledAt) from the cancel to the collector's return")
    }

    /// This thread's voluntary context switches so far.
    static func voluntarySwitches() -> Int {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        return field("voluntary_ctxt_switches", in: status).flatMap { Int($0) } ?? 0
    }

    @Test func outputPastTheKeptPartIsCountedNotKept() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "head -c 5000000 /dev/zero"], timeLimit: .seconds(60))
        let outcome = child.collect(input: [], limits: ChildProcess.OutputLimits(keptOutputBytes: 1000, keptErrorBytes: 10))
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output.count == 1000)
        #expect(outcome.outputByteCount == 5_000_000)
    }

    @Test func aProgramThatCannotStartSaysWhy() {
        #expect(throws: ChildProcessError.self) {
            try ChildProcess(executable: "/nonexistent/program", arguments: [], timeLimit: .seconds(5))
        }
        do {
            _ = try ChildProcess(executable: "/nonexistent/program", arguments: [], timeLimit: .seconds(5))
        } catch {
            #expect(error.code == ENOENT)
            #expect(error.description.contains("/nonexistent/program could not start"), "\(error)")
        }
    }

    /// A reader that is gone makes the write fail, and raises no SIGPIPE
    /// that would end this process (whose disposition for it is the
    /// default): after the child's exit, and while a write is blocked on a
    /// full pipe when the child stops reading (that write returns the
    /// bytes it got through, and the kernel still raises SIGPIPE).
    @Test func writingToAChildThatStoppedReadingFailsWithoutASignal() throws {
        let exited = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 0"], timeLimit: .seconds(30))
        _ = exited.collect()
        #expect(exited.writeInput(Array(repeating: 0x61, count: 1 << 20)) == false)
        let stopsReading = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "head -c 10 >/dev/null"], timeLimit: .seconds(30))
        #expect(stopsReading.writeInput(Array(repeating: 0x61, count: 16 << 20)) == false)
        stopsReading.closeInput()
        #expect(stopsReading.collect().ending == .exited(0))
    }
}

/// Cancellation, the library's way to stop a tool: the program maps its
/// signals onto it (claude-stream's tests check that end to end, and
/// ChildProcess.killAllBeforeExit() there too: here it would kill the
/// children of tests running beside it, and stop later ones starting).
@Suite struct CancellationTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs /proc"))
    func cancellingTheCallKillsTheToolsWholeGroup() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let tool = ShellTool(
            name: "t", command: "echo $$ > '\(file)'; sleep 600 & sleep 600",
            options: ShellToolOptions(environment: ["PATH": "/usr/bin:/bin"], limits: ShellToolLimits(timeout: .seconds(600))))
        let call = Task { await tool.run(id: "toolu_1", input: .object([])) }
        var group: pid_t?
        for _ in 0..<2000 where group == nil {
            try await Task.sleep(for: .milliseconds(10))
            group = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let leader = try #require(group)
        call.cancel()
        let result = await call.value
        #expect(result.isError)
        #expect(result.content.stringValue?.contains("interrupted") == true, "\(result.content)")
        #expect(runningMembers(of: leader).isEmpty, "the group is gone once the call returned: \(runningMembers(of: leader))")
    }
}

#endif
