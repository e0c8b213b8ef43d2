#if os(Linux) || os(macOS)

// A child run to its end by one thread: its input written as the pipe
// takes it, stdout and stderr read as they come, and every ending handled
// the same way: the whole group killed and the leader reaped.
//
// When the leader exits, what it left running in its group gets SIGKILL;
// at the deadline or on cancellation the group gets SIGTERM, then SIGKILL
// after the grace. The leader is reaped only after that, so its pid, which
// is the group's id, cannot be reused while the group is signalled.
//
// The thread sleeps in one poll(2) on everything that can end its wait:
// the pipes; the leader's exit, seen without reaping it, through a pidfd
// (Linux 5.3+) or, elsewhere, a pipe that a helper thread closes once
// waitid(WNOWAIT) returns; the wake-up pipe that `cancel()` writes to; and
// the next deadline as the timeout. Nothing is polled on a timer.
//
// Dispatch sources are not used for these descriptors: libdispatch's epoll
// backend can read a descriptor's record after another thread freed it,
// when a hang-up on it (every pipe hangs up as its child ends) races the
// handling of its source; a process that also ran requests crashed in
// _dispatch_event_loop_drain, and that stopped once tools no longer used
// dispatch sources.
//
// Memory is bounded by the limits, not by what the child writes: stdout
// past `keptOutputBytes` is read and counted, then dropped, and stderr
// keeps its last `keptErrorBytes`.

import ClaudeSession
import Foundation
import _ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// How much of a child's output ``ChildProcess/collect(input:limits:)`` keeps.
    public struct OutputLimits: Sendable, Hashable {
        /// The first bytes of stdout kept; the rest is read and counted only.
        public var keptOutputBytes: Int
        /// Most stdout bytes read; past that the group is killed
        /// (``Outcome/Ending-swift.enum/tooMuchOutput``).
        public var maxOutputBytes: Int
        /// The last bytes of stderr kept.
        public var keptErrorBytes: Int

        /// Limits of `keptOutputBytes`, `maxOutputBytes` and
        /// `keptErrorBytes`; by default everything is kept.
        public init(keptOutputBytes: Int = .max, maxOutputBytes: Int = .max, keptErrorBytes: Int = .max) {
            self.keptOutputBytes = keptOutputBytes
            self.maxOutputBytes = maxOutputBytes
            self.keptErrorBytes = keptErrorBytes
        }
    }

    /// How a child ended, and what it wrote.
    public struct Outcome: Sendable {
        /// How a child ended.
        public enum Ending: Sendable, Hashable {
            /// It exited with this status.
            case exited(Int32)
            /// A signal it did not handle ended it.
            case signalled(Int32)
            /// Killed at its time limit.
            case timedOut
            /// Killed because of ``ChildProcess/cancel()``.
            case cancelled
            /// Killed because it wrote more than ``OutputLimits/maxOutputBytes``.
            case tooMuchOutput
        }

        /// How it ended.
        public var ending: Ending
        /// The first ``OutputLimits/keptOutputBytes`` of what it wrote to stdout.
        public var output: [UInt8] = []
        /// How many bytes it wrote to stdout in all (as far as it was read).
        public var outputByteCount = 0
        /// The last ``OutputLimits/keptErrorBytes`` of what it wrote to stderr.
        public var errorOutput: [UInt8] = []
        /// How many bytes it wrote to stderr in all.
        public var errorByteCount = 0
        /// The child's user and system CPU time (not its descendants').
        public var cpuTime: Duration = .zero
        /// The child's peak resident memory, as the system counts it (on
        /// Linux this includes the parent's pages at the moment of the
        /// start, so it is an upper bound for a child of a large process).
        public var peakResidentBytes = 0
    }

    /// Runs the child to its end (its group gone, the leader reaped) and
    /// returns how it ended and what it wrote; blocks the calling thread.
    ///
    /// - Parameters:
    ///   - bytes: written to stdin as the child reads it, which is then
    ///     closed (an empty array closes it at once); nil leaves stdin to
    ///     the caller (another thread may be writing it).
    ///   - limits: how much output is kept and read.
    /// - Complexity: O(bytes read); memory O(the limits).
    public func collect(input bytes: [UInt8]? = nil, limits: OutputLimits = OutputLimits()) -> Outcome {
        var collection = OutputCollection(self, input: bytes, limits: limits)
        return collection.run()
    }
}

/// The running child as its collecting thread sees it: the descriptors it
/// owns (-1 once closed), what came out, and where the ending stands.
private struct OutputCollection {
    let child: ChildProcess
    let limits: ChildProcess.OutputLimits
    let input: [UInt8]
    var stdin: Int32
    var stdout: Int32
    var stderr: Int32
    /// Readable once the leader has exited; -1 where there is none.
    var exit: Int32
    var written = 0
    var outcome = ChildProcess.Outcome(ending: .exited(0))
    var killReason: ChildProcess.Outcome.Ending?
    /// When the group gets SIGKILL, after SIGTERM and the grace.
    var killAt: ContinuousClock.Instant?
    /// The leader's wait status, once it is reaped.
    var status: Int32?
    /// After the leader's exit: when pipes still open are closed (a process
    /// that left the group, with setsid, may hold them).
    var pipesDeadline: ContinuousClock.Instant?

    init(_ child: ChildProcess, input: [UInt8]?, limits: ChildProcess.OutputLimits) {
        self.child = child
        self.limits = limits
        self.input = input ?? []
        stdin = input == nil ? -1 : child.input.exchange(-1, ordering: .acquiringAndReleasing)
        stdout = child.output.exchange(-1, ordering: .acquiringAndReleasing)
        stderr = child.errors.exchange(-1, ordering: .acquiringAndReleasing)
        if stdin >= 0 { _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK) }
        exit = Self.exitDescriptor(child.pid)
        if self.input.isEmpty { Self.close(&stdin) }
    }

    /// Runs the child to its end: the group gone, the leader reaped.
    mutating func run() -> ChildProcess.Outcome {
        while status == nil || stdout >= 0 || stderr >= 0 {
            let now = ContinuousClock.now
            if status == nil {
                if child.cancelled.load(ordering: .acquiring) {
                    terminate(.cancelled)
                } else if now >= child.deadline {
                    terminate(.timedOut)
                }
                if let killAt, now >= killAt {
                    child.signalGroup(SIGKILL)
                    self.killAt = nil
                }
            } else if let pipesDeadline, now >= pipesDeadline {
                Self.close(&stdout)
                Self.close(&stderr)
                break
            }
            let deadline = status == nil && killReason == nil ? child.deadline : nil
            wait(until: [deadline, killAt, pipesDeadline].compactMap { $0 }.min())
            if status == nil, leaderHasExited() { leaderExited() }
        }
        Self.close(&stdin)
        Self.close(&exit)
        reapGroup()
        if let killReason {
            outcome.ending = killReason
        } else if let status, status & 0x7F == 0 {
            outcome.ending = .exited((status >> 8) & 0xFF)
        } else {
            outcome.ending = .signalled((status ?? 0) & 0x7F)
        }
        if outcome.errorOutput.count > limits.keptErrorBytes { outcome.errorOutput.removeFirst(outcome.errorOutput.count - limits.keptErrorBytes) }
        return outcome
    }

    /// SIGTERM to the group now, SIGKILL after the grace.
    mutating func terminate(_ reason: ChildProcess.Outcome.Ending) {
        guard status == nil, killReason == nil else { return }
        killReason = reason
        child.signalGroup(SIGTERM)
        killAt = .now + child.grace
    }

    /// Sleeps in one poll of the open descriptors until one is ready, the
    /// child is woken (`cancel`) or `until` passes; then handles what is ready.
    mutating func wait(until: ContinuousClock.Instant?) {
        var timeout = until.map { pollTimeout(until: $0) } ?? -1
        // Without an exit descriptor (no pidfd and no helper thread) the
        // leader's exit is looked for at each wake-up, at least every 50 ms.
        if exit < 0 && status == nil && (timeout < 0 || timeout > 50) { timeout = 50 }
        var polled = [
            pollfd(fd: written < input.count ? stdin : -1, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: stdout, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0),
            pollfd(fd: status == nil ? exit : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: child.wakeUp.read, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&polled, nfds_t(polled.count), timeout) > 0 else { return }
        if polled[0].revents != 0 { feed() }
        if polled[1].revents != 0 { drain(isError: false) }
        if polled[2].revents != 0 { drain(isError: true) }
        if polled[4].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(child.wakeUp.read, &buffer, buffer.count) > 0 {}
        }
    }

    /// Writes the input as the pipe takes it, then closes stdin; a child
    /// that stopped reading gets its stdin closed.
    mutating func feed() {
        while written < input.count {
            let count = input.withUnsafeBytes { bytes in
                retryingInterruptions { _process_write(stdin, bytes.baseAddress.map { $0 + written }, bytes.count - written) }
            }
            if count > 0 {
                written += count
            } else if count < 0 && errno == EAGAIN {
                return
            } else {
                break
            }
        }
        Self.close(&stdin)
    }

    /// Reads what stdout (or stderr) holds; closes it at its end.
    mutating func drain(isError: Bool) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let fd = isError ? stderr : stdout
            guard fd >= 0 else { return }
            let count = buffer.withUnsafeMutableBytes { bytes in retryingInterruptions { read(fd, bytes.baseAddress, bytes.count) } }
            if count > 0 {
                take(buffer[0..<count], isError: isError)
            } else if count < 0 && errno == EAGAIN {
                return
            } else if isError {
                Self.close(&stderr)
            } else {
                Self.close(&stdout)
            }
        }
    }

    mutating func take(_ bytes: ArraySlice<UInt8>, isError: Bool) {
        if isError {
            outcome.errorByteCount += bytes.count
            outcome.errorOutput.append(contentsOf: bytes)
            // Trimmed in steps of at least the tail's size: O(1) a byte.
            if outcome.errorOutput.count - limits.keptErrorBytes > max(limits.keptErrorBytes, 1 << 16) {
                outcome.errorOutput.removeFirst(outcome.errorOutput.count - limits.keptErrorBytes)
            }
            return
        }
        let room = max(0, limits.keptOutputBytes - outcome.output.count)
        if room > 0 { outcome.output.append(contentsOf: bytes.prefix(room)) }
        outcome.outputByteCount += bytes.count
        if outcome.outputByteCount > limits.maxOutputBytes { terminate(.tooMuchOutput) }
    }

    /// Whether the leader has exited, without reaping it.
    func leaderHasExited() -> Bool {
        if exit >= 0 {
            var polled = pollfd(fd: exit, events: Int16(POLLIN), revents: 0)
            return poll(&polled, 1, 0) > 0
        }
        var info = siginfo_t()
        return waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// The leader has ended: kill what it left in its group, reap it, and
    /// give the pipes a grace to deliver their last bytes.
    mutating func leaderExited() {
        child.signalGroup(SIGKILL)
        child.reaped.withLock { $0 = true }
        ChildSupervisor.children.forget(child.pid)
        var raw: Int32 = 0
        var usage = rusage()
        _ = retryingInterruptions { wait4(child.pid, &raw, 0, &usage) }
        status = raw
        outcome.cpuTime =
            .seconds(Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec))
            + .microseconds(Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec))
        #if canImport(Darwin)
        outcome.peakResidentBytes = Int(usage.ru_maxrss)
        #else
        outcome.peakResidentBytes = Int(usage.ru_maxrss) * 1024
        #endif
        Self.close(&stdin)
        pipesDeadline = .now + child.grace
    }

    /// Reaps what the group left: a child subreaper (ToolReaper) gets the
    /// killed orphans as its children, and they would stay zombies (still
    /// in the group) if nobody waited for them. Ends when the group has no
    /// child of ours left, or after 5 s of killed members that do not die
    /// (a process in uninterruptible sleep).
    func reapGroup() {
        var raw: Int32 = 0
        var attempts = 5000
        while attempts > 0 {
            let reaped = retryingInterruptions { waitpid(-child.pid, &raw, WNOHANG) }
            if reaped > 0 { continue }
            guard reaped == 0 else { return }
            kill(-child.pid, SIGKILL)
            attempts -= 1
            usleep(1000)
        }
    }

    /// A descriptor readable once `pid` has exited (not reaped): its pidfd,
    /// else the read end of a pipe whose write end a helper thread closes
    /// when waitid(WNOWAIT) returns; -1 when neither can be had.
    static func exitDescriptor(_ pid: pid_t) -> Int32 {
        let pidfd = _process_pidfd(pid)
        if pidfd >= 0 { return pidfd }
        var ends: [Int32] = [-1, -1]
        guard _process_pipe(&ends) == 0 else { return -1 }
        let writeEnd = ends[1]
        Thread.detachNewThread {
            var info = siginfo_t()
            _ = retryingInterruptions { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
            _ = systemClose(writeEnd)
        }
        return ends[0]
    }

    static func close(_ fd: inout Int32) {
        if fd >= 0 { _ = systemClose(fd) }
        fd = -1
    }
}

/// close(2), named apart from `OutputCollection.close`.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

#endif
