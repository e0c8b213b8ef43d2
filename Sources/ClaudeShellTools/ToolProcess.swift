#if os(Linux) || os(macOS)

// One shell command run as a tool: `/bin/sh -c COMMAND` as a child in a
// process group of its own, its input JSON on stdin, stdout and stderr read
// as they come, without a thread blocked on it.
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
// The leader's exit is seen through a pidfd (Linux 5.3+), whose descriptor
// becomes readable when the process ends, without reaping it; where there
// is none, a timer polls `waitpid(WNOHANG)`. On macOS a process source
// (kqueue's EVFILT_PROC, NOTE_EXIT) does the same, also without reaping.

import Dispatch
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

/// The state of one run, touched only on its serial queue.
private final class ToolProcessRun: @unchecked Sendable {
    private let command: String
    private let input: [UInt8]
    private let environment: [String]
    private let limits: ShellToolLimits
    private let queue = DispatchQueue(label: "ClaudeShellTools.tool")

    private var continuation: CheckedContinuation<ToolProcessOutcome, Never>?
    private var cancelled = false
    private var pid: pid_t = 0
    private var killReason: ToolProcessOutcome.Ending?
    private var status: Int32?
    private var groupReaped = false
    private var stdout: [UInt8] = []
    private var stderrTail: [UInt8] = []
    private var written = 0
    private var sources: [any DispatchSourceProtocol] = []
    private var openStreams = 0
    private var inputSource: (any DispatchSourceWrite)?
    private var inputFD: Int32 = -1

    init(command: String, input: [UInt8], environment: [String], limits: ShellToolLimits) {
        self.command = command
        self.input = input
        self.environment = environment
        self.limits = limits
    }

    func start(_ continuation: CheckedContinuation<ToolProcessOutcome, Never>) {
        queue.async { [self] in
            self.continuation = continuation
            if cancelled { return finish(ToolProcessOutcome(ending: .cancelled)) }
            let spawned: ChildSpawn.Child
            _ = Self.ignoreBrokenPipes
            switch ChildSpawn.spawn("/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment) {
            case .failure(let failure): return finish(ToolProcessOutcome(ending: .couldNotStart(failure.description)))
            case .success(let child): spawned = child
            }
            for fd in [spawned.stdin, spawned.stdout, spawned.stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            #if canImport(Darwin)
            _ = fcntl(spawned.stdin, F_SETNOSIGPIPE, 1)
            #endif
            pid = spawned.pid
            LiveToolGroups.insert(pid)
            collect(spawned.stdout, isError: false)
            collect(spawned.stderr, isError: true)
            feed(spawned.stdin)
            watchExit()
            after(limits.timeout) { [self] in terminate(.timedOut) }
        }
    }

    /// A command that exits without reading its input makes our write to
    /// its stdin fail; that must be EPIPE, not a SIGPIPE that ends this
    /// process. macOS can say so per descriptor (F_SETNOSIGPIPE, in
    /// `start`); Linux cannot for a pipe, so there a default SIGPIPE
    /// disposition becomes "ignore", once. A handler the process installed
    /// itself is left alone.
    private static let ignoreBrokenPipes: Void = {
        #if os(Linux)
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        signal(SIGPIPE, SIG_IGN)
        #endif
    }()

    func cancel() {
        queue.async { [self] in
            cancelled = true
            if pid != 0 { terminate(.cancelled) }
        }
    }

    /// SIGTERM to the group now, SIGKILL after the grace.
    private func terminate(_ reason: ToolProcessOutcome.Ending) {
        guard status == nil, killReason == nil else { return }
        killReason = reason
        kill(-pid, SIGTERM)
        after(limits.grace) { [self] in
            if status == nil { kill(-pid, SIGKILL) }
        }
    }

    private func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: action)
    }

    // MARK: Pipes

    private func collect(_ fd: Int32, isError: Bool) {
        openStreams += 1
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    take(buffer[0..<count], isError: isError)
                    continue
                }
                if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
                source.cancel()
                return
            }
        }
        source.setCancelHandler { [self] in
            close(fd)
            openStreams -= 1
            finishIfDone()
        }
        sources.append(source)
        source.resume()
    }

    private func take(_ bytes: ArraySlice<UInt8>, isError: Bool) {
        if isError {
            stderrTail.append(contentsOf: bytes)
            if stderrTail.count > 2 * limits.stderrTailBytes { stderrTail.removeFirst(stderrTail.count - limits.stderrTailBytes) }
            return
        }
        if stdout.count + bytes.count > limits.maxOutputBytes {
            stdout.append(contentsOf: bytes.prefix(limits.maxOutputBytes - stdout.count))
            terminate(.tooMuchOutput)
        } else {
            stdout.append(contentsOf: bytes)
        }
    }

    /// Writes the input as the pipe takes it, then closes stdin (a command
    /// that never reads gets EPIPE here, or SIGPIPE unless the process ignores it).
    private func feed(_ fd: Int32) {
        inputFD = fd
        guard !input.isEmpty else { return closeInput() }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in
            while written < input.count {
                let count = input.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
                if count > 0 {
                    written += count
                    continue
                }
                if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
                break
            }
            closeInput()
        }
        inputSource = source
        source.resume()
    }

    private func closeInput() {
        if let inputSource {
            self.inputSource = nil
            let fd = inputFD
            inputSource.setCancelHandler { close(fd) }
            inputSource.cancel()
        } else if inputFD >= 0 {
            close(inputFD)
        }
        inputFD = -1
    }

    // MARK: Exit

    private func watchExit() {
        #if os(Linux)
        if let pidfd = ChildSpawn.pidfd(pid) {
            // Reaping makes the pidfd report a hang-up; libdispatch's epoll loop
            // crashed when that raced the source's cancellation, so the leader
            // is reaped only once the source is gone.
            let source = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
            source.setEventHandler { source.cancel() }
            source.setCancelHandler { [self] in
                close(pidfd)
                leaderExited(reaped: nil)
            }
            source.resume()
            return
        }
        poll(every: .milliseconds(5))
        #else
        let source = DispatchSource.makeProcessSource(identifier: pid, eventMask: .exit, queue: queue)
        source.setEventHandler { [self] in
            source.cancel()
            leaderExited(reaped: nil)
        }
        source.resume()
        #endif
    }

    /// Without a pidfd: `waitpid(WNOHANG)` on a timer, backing off to 50 ms.
    /// (This reaps the leader before its group is swept; the pidfd path does not.)
    private func poll(every interval: Duration) {
        after(interval) { [self] in
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                leaderExited(reaped: raw)
            } else {
                poll(every: min(interval * 2, .milliseconds(50)))
            }
        }
    }

    /// The leader has ended: kill what it left in its group, reap it (unless
    /// that is done), and give the pipes a grace to deliver their last bytes.
    private func leaderExited(reaped: Int32?) {
        kill(-pid, SIGKILL)
        var raw: Int32 = reaped ?? 0
        if reaped == nil {
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
        status = raw
        closeInput()
        after(limits.grace) { [self] in
            // A process that left the group (setsid) may hold a pipe open.
            for source in sources where !source.isCancelled { source.cancel() }
        }
        reapGroup(attempts: 500)
    }

    /// Reaps what the group left: a child subreaper (ToolReaper), so
    /// gets the killed orphans as its children and would stay zombies (still
    /// in the group) if nobody waited for them. Ends when the group has no
    /// child of ours left, or after `attempts` polls 10 ms apart.
    private func reapGroup(attempts: Int) {
        var raw: Int32 = 0
        while true {
            let reaped = waitpid(-pid, &raw, WNOHANG)
            if reaped > 0 { continue }
            if reaped == 0 && attempts > 0 {
                kill(-pid, SIGKILL)
                after(.milliseconds(10)) { [self] in reapGroup(attempts: attempts - 1) }
                return
            }
            if reaped < 0 && errno == EINTR { continue }
            break
        }
        groupReaped = true
        LiveToolGroups.remove(pid)
        finishIfDone()
    }

    private func finishIfDone() {
        guard let status, groupReaped, openStreams == 0 else { return }
        let ending: ToolProcessOutcome.Ending
        if let killReason {
            ending = killReason
        } else if status & 0x7F == 0 {
            ending = .exited((status >> 8) & 0xFF)
        } else {
            ending = .signalled(status & 0x7F)
        }
        finish(ToolProcessOutcome(ending: ending, stdout: stdout, stderrTail: Array(stderrTail.suffix(limits.stderrTailBytes))))
    }

    private func finish(_ outcome: ToolProcessOutcome) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(returning: outcome)
    }
}

#endif
