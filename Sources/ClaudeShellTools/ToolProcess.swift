#if os(Linux) || os(macOS)

// One shell command run as a tool: `/bin/sh -c COMMAND` as a child in a
// process group of its own, its input JSON on stdin, stdout and stderr read
// as they come.
//
// Foundation's `Process` cannot give a child its own process group, a clean
// signal mask or default dispositions, so the child is started by
// ChildSpawn (posix_spawn): group = its pid, an empty mask, every signal
// default (SIGPIPE included, so `yes | head -1` ends), the three pipes as
// its only descriptors.
//
// Every run ends with the whole group killed and the leader reaped, whatever
// happened: when the leader exits, what it left running in its group gets
// SIGKILL; at the deadline or on cancellation the group gets SIGTERM, then
// SIGKILL after `grace`. The leader is reaped only after that, so its pid,
// which is the group's id, cannot be reused while the group is signalled.
//
// A thread of its own drives each run: it waits on the pipes with poll(2),
// and sees the leader's exit without reaping it, through a pidfd (Linux
// 5.3+) in the same poll, else through waitid(WNOWAIT) at each wake-up
// (macOS, older Linux). The run's state belongs to that thread alone;
// cancellation only sets a flag it reads within 50 ms. Dispatch sources are
// not used for these descriptors: libdispatch's epoll backend can read a
// descriptor's record after another thread freed it, when a hang-up on it
// (every pipe hangs up as its tool ends) races the handling of its source;
// a process that also ran requests crashed in _dispatch_event_loop_drain,
// and that stopped once tools no longer used dispatch sources.

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a tool process ended, and what it wrote.
struct ToolProcessOutcome: Sendable {
    enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed at its deadline.
        case timedOut
        /// Killed because the run was cancelled.
        case cancelled
        /// Killed because it wrote more than the limit.
        case tooMuchOutput
        case couldNotStart(String)
    }

    var ending: Ending
    var stdout: [UInt8] = []
    var stderrTail: [UInt8] = []
}

/// The process groups of shell tools still running, so an exit path that
/// cannot wait for them (a second Ctrl-C) still kills them.
public enum LiveToolGroups {
    private static let groups = Mutex<Set<pid_t>>([])

    static func insert(_ group: pid_t) { _ = groups.withLock { $0.insert(group) } }
    static func remove(_ group: pid_t) { _ = groups.withLock { $0.remove(group) } }

    /// Sends SIGKILL to every group still running, without waiting; for an
    /// exit that cannot wait (cancelling the calls is the orderly way).
    public static func killAll() {
        for group in groups.withLock({ $0 }) { kill(-group, SIGKILL) }
    }
}

/// Makes this process a child subreaper (Linux): a tool's orphans, killed
/// with its group, are then reparented to this process and reaped by it,
/// instead of going to an init that may never reap them (a container's),
/// where they would stay zombies of the group.
///
/// macOS has no subreaper: a killed group's orphans go to launchd, which
/// reaps them. A tool call there returns once its leader is reaped and
/// SIGKILL was sent to the rest of its group, without waiting for launchd
/// to reap them.
public enum ToolReaper {
    /// Sets PR_SET_CHILD_SUBREAPER on Linux; does nothing on macOS. Call it
    /// once, before the first tool runs.
    public static func becomeSubreaper() {
        #if os(Linux)
        // prctl is variadic, which Swift does not import; on Linux's calling
        // conventions integer arguments pass the same way either way.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setChildSubreaper: Int32 = 36  // PR_SET_CHILD_SUBREAPER
        _ = prctl(setChildSubreaper, 1, 0, 0, 0)
        #endif
    }
}

enum ToolProcess {
    /// Runs `/bin/sh -c command` with `input` on stdin and `environment`
    /// (`NAME=value` strings) as its whole environment.
    static func run(_ command: String, input: [UInt8], environment: [String], limits: ShellToolLimits) async -> ToolProcessOutcome {
        let run = ToolProcessRun(command: command, input: input, environment: environment, limits: limits)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in run.start(continuation) }
        } onCancel: {
            run.cancel()
        }
    }
}

/// One run: started on a thread of its own, which returns the outcome
/// through the continuation.
private final class ToolProcessRun: Sendable {
    private let command: String
    private let input: [UInt8]
    private let environment: [String]
    private let limits: ShellToolLimits
    private let cancelled = Atomic(false)

    init(command: String, input: [UInt8], environment: [String], limits: ShellToolLimits) {
        self.command = command
        self.input = input
        self.environment = environment
        self.limits = limits
    }

    func start(_ continuation: CheckedContinuation<ToolProcessOutcome, Never>) {
        let thread = Thread { [self] in continuation.resume(returning: drive()) }
        thread.name = "ClaudeShellTools.tool"
        thread.start()
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    private func drive() -> ToolProcessOutcome {
        if cancelled.load(ordering: .relaxed) { return ToolProcessOutcome(ending: .cancelled) }
        _ = Self.ignoreBrokenPipes
        let child: ChildSpawn.Child
        switch ChildSpawn.spawn("/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment) {
        case .failure(let failure): return ToolProcessOutcome(ending: .couldNotStart(failure.description))
        case .success(let spawned): child = spawned
        }
        LiveToolGroups.insert(child.pid)
        defer { LiveToolGroups.remove(child.pid) }
        var io = ToolChildIO(child, input: input, limits: limits)
        return io.run { cancelled.load(ordering: .relaxed) }
    }

    /// A command that exits without reading its input makes our write to
    /// its stdin fail; that must be EPIPE, not a SIGPIPE that ends this
    /// process. macOS can say so per descriptor (F_SETNOSIGPIPE, in
    /// ToolChildIO); Linux cannot for a pipe, so there a default SIGPIPE
    /// disposition becomes "ignore", once. A handler the process installed
    /// itself is left alone.
    private static let ignoreBrokenPipes: Void = {
        #if os(Linux)
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        signal(SIGPIPE, SIG_IGN)
        #endif
    }()
}

/// The running child as its thread sees it: the pipes (-1 once closed),
/// what came out, and where the ending stands.
private struct ToolChildIO {
    let pid: pid_t
    let limits: ShellToolLimits
    let input: [UInt8]
    var stdin: Int32
    var stdout: Int32
    var stderr: Int32
    /// Readable once the leader has exited (a pidfd); -1 where there is none.
    var exit: Int32
    var written = 0
    var output: [UInt8] = []
    var errorTail: [UInt8] = []
    var killReason: ToolProcessOutcome.Ending?
    /// When the group gets SIGKILL, after SIGTERM and the grace.
    var killAt: ContinuousClock.Instant?
    /// The leader's wait status, once it is reaped.
    var status: Int32?
    /// After the leader's exit: when pipes still open are closed (a process
    /// that left the group, with setsid, may hold them).
    var pipesDeadline: ContinuousClock.Instant?
    let deadline: ContinuousClock.Instant

    init(_ child: ChildSpawn.Child, input: [UInt8], limits: ShellToolLimits) {
        pid = child.pid
        self.input = input
        self.limits = limits
        stdin = child.stdin
        stdout = child.stdout
        stderr = child.stderr
        deadline = .now + limits.timeout
        for fd in [stdin, stdout, stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        #if canImport(Darwin)
        _ = fcntl(stdin, F_SETNOSIGPIPE, 1)
        exit = -1
        #else
        exit = ChildSpawn.pidfd(child.pid) ?? -1
        #endif
        if input.isEmpty { Self.close(&stdin) }
    }

    /// Runs the child to its end: the group gone, the leader reaped.
    mutating func run(cancelled: () -> Bool) -> ToolProcessOutcome {
        while status == nil || stdout >= 0 || stderr >= 0 {
            let now = ContinuousClock.now
            if status == nil {
                if cancelled() { terminate(.cancelled) } else if now >= deadline { terminate(.timedOut) }
                if let killAt, now >= killAt {
                    kill(-pid, SIGKILL)
                    self.killAt = nil
                }
            } else if let pipesDeadline, now >= pipesDeadline {
                Self.close(&stdout)
                Self.close(&stderr)
                break
            }
            wait(until: [deadline, killAt, pipesDeadline].compactMap { $0 }.min())
            if status == nil, leaderHasExited() { leaderExited() }
        }
        Self.close(&stdin)
        Self.close(&exit)
        reapGroup()
        let ending: ToolProcessOutcome.Ending
        if let killReason {
            ending = killReason
        } else if let status, status & 0x7F == 0 {
            ending = .exited((status >> 8) & 0xFF)
        } else {
            ending = .signalled((status ?? 0) & 0x7F)
        }
        return ToolProcessOutcome(ending: ending, stdout: output, stderrTail: Array(errorTail.suffix(limits.stderrTailBytes)))
    }

    /// SIGTERM to the group now, SIGKILL after the grace.
    mutating func terminate(_ reason: ToolProcessOutcome.Ending) {
        guard status == nil, killReason == nil else { return }
        killReason = reason
        kill(-pid, SIGTERM)
        killAt = .now + limits.grace
    }

    /// One poll of the open descriptors, at most 50 ms (the cancellation
    /// flag is read between polls) or until `until`; then what is ready.
    mutating func wait(until: ContinuousClock.Instant?) {
        var slice = Duration.milliseconds(exit >= 0 || status != nil ? 50 : 10)
        if let until { slice = min(slice, max(.zero, until - .now)) }
        let timeout = Int32(slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000)
        var polled = [
            pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0), pollfd(fd: stdout, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stderr, events: Int16(POLLIN), revents: 0), pollfd(fd: status == nil ? exit : -1, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&polled, nfds_t(polled.count), timeout) > 0 else { return }
        if polled[0].revents != 0 { feed() }
        if polled[1].revents != 0 { drain(isError: false) }
        if polled[2].revents != 0 { drain(isError: true) }
    }

    /// Writes the input as the pipe takes it, then closes stdin; a command
    /// that stopped reading gets its stdin closed.
    mutating func feed() {
        while written < input.count {
            let count = input.withUnsafeBytes { write(stdin, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if count > 0 {
                written += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
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
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                take(buffer[0..<count], isError: isError)
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
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
            errorTail.append(contentsOf: bytes)
            if errorTail.count > 2 * limits.stderrTailBytes { errorTail.removeFirst(errorTail.count - limits.stderrTailBytes) }
        } else if output.count + bytes.count > limits.maxOutputBytes {
            output.append(contentsOf: bytes.prefix(limits.maxOutputBytes - output.count))
            terminate(.tooMuchOutput)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Whether the leader has exited, without reaping it: its pidfd is
    /// readable, or waitid(WNOWAIT) reports it.
    func leaderHasExited() -> Bool {
        if exit >= 0 {
            var polled = pollfd(fd: exit, events: Int16(POLLIN), revents: 0)
            return poll(&polled, 1, 0) > 0
        }
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// The leader has ended: kill what it left in its group, reap it, and
    /// give the pipes a grace to deliver their last bytes.
    mutating func leaderExited() {
        kill(-pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        Self.close(&stdin)
        pipesDeadline = .now + limits.grace
    }

    /// Reaps what the group left: a child subreaper (ToolReaper) gets the
    /// killed orphans as its children, and they would stay zombies (still
    /// in the group) if nobody waited for them. Ends when the group has no
    /// child of ours left, or after 500 polls 10 ms apart.
    func reapGroup() {
        var raw: Int32 = 0
        var attempts = 500
        while true {
            let reaped = waitpid(-pid, &raw, WNOHANG)
            if reaped > 0 || (reaped < 0 && errno == EINTR) { continue }
            guard reaped == 0, attempts > 0 else { return }
            kill(-pid, SIGKILL)
            attempts -= 1
            usleep(10_000)
        }
    }

    static func close(_ fd: inout Int32) {
        if fd >= 0 { _ = systemClose(fd) }
        fd = -1
    }
}

/// close(2), named apart from `ToolChildIO.close`.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }

#endif
