#if os(Linux) || os(macOS)

// A child process started the way every child of this package starts: a
// shell tool, the programs the tests run, the benchmark's probes. The
// system's part is in _ProcessSupport (clone on Linux, posix_spawn on
// macOS); ChildSupervisor's thread does the start, and ChildList holds
// the deadline.
//
// What the child gets, whoever starts it: its own process group (its id is
// the child's pid), an empty signal mask, every signal at its default
// disposition (SIGPIPE included, so `yes | head -1` ends), its three
// standard descriptors and no other, and a time limit after which its
// group gets SIGKILL. On Linux it also gets SIGKILL when this process ends,
// however that happens (PR_SET_PDEATHSIG, armed from the supervisor
// thread, which lives as long as the process). macOS has no such signal: a
// child there outlives a parent that is killed with SIGKILL, until its own
// time limit, which only a living parent enforces; every other way the
// parent ends (a cancelled call, a deadline, ChildProcess.killAllBeforeExit()
// before exit) kills the group first.
//
// Children may start concurrently (the tools of one response, tests in
// parallel): every pipe is close-on-exec from its creation (pipe2), and the
// child closes every descriptor above 2 before the program starts, so no
// child holds another's pipe.

import ClaudeSession
import Synchronization
import _ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process in a process group of its own, with a clean signal
/// state, its three standard descriptors and a time limit; on Linux it
/// never outlives this process.
///
/// ```swift
/// let child = try ChildProcess(executable: "/usr/bin/git", arguments: ["log", "-n", "5"], timeLimit: .seconds(30))
/// let outcome = child.collect(input: [])        // stdin closed at once
/// if outcome.ending == .exited(0) { print(String(decoding: outcome.output, as: UTF8.self)) }
/// ```
///
/// The program runs with its arguments as given (no shell), so nothing in
/// them is ever parsed as a command line. Its group gets SIGKILL at
/// `timeLimit` + `grace` whether or not anything waits for it;
/// ``collect(input:limits:)`` ends it more gently (SIGTERM at the time
/// limit, SIGKILL after the grace) and reaps it. On Linux the child also
/// gets SIGKILL when this process ends, however it ends; macOS has no such
/// signal (see the module's catalog).
///
/// One thread at a time uses each of the child's streams; ``cancel()``,
/// ``sendSignal(_:)`` and ``signalGroup(_:)`` may be called from any thread.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable, Hashable {
        /// A pipe to or from this process.
        case pipe
        /// `/dev/null`.
        case null
        /// This process's own descriptor of the same number.
        case inherited
        /// A file: read for standard input; else created or truncated, mode 0600.
        case file(String)
        /// For standard error only: wherever standard output goes.
        case standardOutput
    }

    /// The child's pid, which is also the id of its process group.
    public let pid: pid_t
    /// When the child's time limit ends.
    public let deadline: ContinuousClock.Instant
    /// From SIGTERM to SIGKILL of the group, at the time limit.
    public let grace: Duration

    // Our ends of the child's pipes (-1: none, or closed), and the pipe
    // that wakes a thread collecting the output (`cancel`).
    let input: Atomic<Int32>
    let output: Atomic<Int32>
    let errors: Atomic<Int32>
    let wakeUp: (read: Int32, write: Int32)
    let cancelled = Atomic(false)
    /// Set just before the leader is reaped; signals are sent only while
    /// it is false, under this lock, so a reused pid is never signalled.
    let reaped = Mutex(false)

    /// Starts `executable` (a path) with `arguments` (without the program's
    /// own name, which is `executable`).
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments, without its own name.
    ///   - environment: `NAME=value` strings, the child's whole
    ///     environment; nil: this process's own.
    ///   - standardInput: where stdin comes from; a pipe by default (this
    ///     process's end is close-on-exec).
    ///   - standardOutput: where stdout goes; a pipe by default (this
    ///     process's end is close-on-exec and non-blocking).
    ///   - standardError: where stderr goes, as `standardOutput`.
    ///   - timeLimit: from now until the group gets SIGTERM from
    ///     ``collect(input:limits:)``, and SIGKILL `grace` later in any case.
    ///   - grace: from SIGTERM to SIGKILL.
    /// - Throws: ``ChildProcessError`` when a pipe or file cannot be opened
    ///   or the program cannot start.
    public init(
        executable: String, arguments: [String], environment: [String]? = nil, standardInput: Stream = .pipe,
        standardOutput: Stream = .pipe, standardError: Stream = .pipe, timeLimit: Duration, grace: Duration = .milliseconds(500)
    ) throws(ChildProcessError) {
        var ours: [Int32] = [-1, -1, -1]
        var theirs: [Int32] = [-1, -1, -1]
        var closeAfterStart: [Int32] = []
        var wake: [Int32] = [-1, -1]
        func fail(_ what: String) -> ChildProcessError {
            let error = ChildProcessError(code: errno, "\(what) (\(String(cString: strerror(errno))))")
            for fd in ours + closeAfterStart + wake where fd >= 0 { close(fd) }
            return error
        }
        for (index, stream) in [standardInput, standardOutput, standardError].enumerated() {
            switch stream {
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard _process_pipe(&ends) == 0 else { throw fail("no pipe for the child's standard descriptors") }
                (ours[index], theirs[index]) = index == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
                closeAfterStart.append(theirs[index])
                if index > 0 { _ = fcntl(ours[index], F_SETFL, fcntl(ours[index], F_GETFL) | O_NONBLOCK) }
            case .null:
                theirs[index] = -1
            case .inherited:
                theirs[index] = Int32(index)
            case .file(let path):
                let flags = index == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                let fd = retryingInterruptions { open(path, flags | O_CLOEXEC, 0o600) }
                guard fd >= 0 else { throw fail("\(path) cannot be opened for the child") }
                theirs[index] = fd
                closeAfterStart.append(fd)
            case .standardOutput:
                theirs[index] = theirs[1]
                ours[index] = -1
            }
        }
        guard _process_pipe(&wake) == 0 else { throw fail("no pipe to wake the child's collector") }
        for fd in wake { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        let deadline = ContinuousClock.now + timeLimit
        let started = Self.start(
            executable, arguments: [executable] + arguments, environment: environment, descriptors: theirs, killedAt: deadline + grace)
        for fd in closeAfterStart { close(fd) }
        guard started.failure == 0 else {
            errno = started.failure
            throw fail("\(executable) could not start")
        }
        pid = started.pid
        input = Atomic(ours[0])
        output = Atomic(ours[1])
        errors = Atomic(ours[2])
        wakeUp = (wake[0], wake[1])
        self.grace = grace
        self.deadline = deadline
    }

    deinit {
        for fd in [input.load(ordering: .relaxed), output.load(ordering: .relaxed), errors.load(ordering: .relaxed), wakeUp.read, wakeUp.write]
        where fd >= 0 {
            close(fd)
        }
    }

    /// Starts the program from the supervisor thread (whose life the
    /// child's parent-death signal follows), its group to be killed at
    /// `killedAt`: its pid, or an errno value.
    private static func start(
        _ path: String, arguments: [String], environment: [String]?, descriptors: [Int32], killedAt: ContinuousClock.Instant
    ) -> (pid: pid_t, failure: Int32) {
        let argv = CStrings(arguments)
        let envp = environment.map(CStrings.init)
        defer {
            argv.release()
            envp?.release()
        }
        return ChildSupervisor.start(until: killedAt) {
            var pid: pid_t = 0
            let failure = descriptors.withUnsafeBufferPointer { fds in
                _process_spawn(path, argv.pointers, envp?.pointers, fds.baseAddress, &pid)
            }
            return (pid, failure)
        }
    }

    /// Writes all of `bytes` to the child's standard input, waiting while
    /// the pipe is full; false once the child no longer reads it (or it is
    /// closed). A reader that is gone is EPIPE here, never a SIGPIPE.
    @discardableResult
    public func writeInput(_ bytes: [UInt8]) -> Bool {
        let fd = input.load(ordering: .acquiring)
        guard fd >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingInterruptions { _process_write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
            }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Closes the child's standard input (the child then reads its end).
    public func closeInput() {
        let fd = input.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { close(fd) }
    }

    /// What the child's standard output holds, waiting up to `timeout` for
    /// some: empty when nothing came in time, nil once the output has ended
    /// (or was handed to ``collect(input:limits:)``).
    public func readOutput(waitingAtMost timeout: Duration) -> [UInt8]? {
        let fd = output.load(ordering: .acquiring)
        guard fd >= 0 else { return nil }
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = retryingInterruptions { poll(&polled, 1, pollTimeout(until: .now + timeout)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { bytes in retryingInterruptions { read(fd, bytes.baseAddress, bytes.count) } }
        if count > 0 { return Array(buffer[0..<count]) }
        if count < 0 && errno == EAGAIN { return [] }
        if output.compareExchange(expected: fd, desired: -1, ordering: .acquiringAndReleasing).exchanged { close(fd) }
        return nil
    }

    /// Sends `signal` to the child alone; nothing once it is reaped.
    public func sendSignal(_ signal: Int32) {
        reaped.withLock { reaped in if !reaped { _ = kill(pid, signal) } }
    }

    /// Sends `signal` to the child's whole process group; nothing once the
    /// child is reaped.
    public func signalGroup(_ signal: Int32) {
        reaped.withLock { reaped in if !reaped { _ = kill(-pid, signal) } }
    }

    /// Sends SIGKILL to the group of every child this process started and
    /// has not reaped (a group already killed at its deadline, or after its
    /// leader exited, has left the list), without waiting, and starts no
    /// child afterwards
    /// (``init(executable:arguments:environment:standardInput:standardOutput:standardError:timeLimit:grace:)``
    /// then throws ECANCELED): for an exit that cannot wait, such as a
    /// second Ctrl-C. Cancelling the calls is the orderly way.
    ///
    /// A child whose start is under way when this is called is killed too:
    /// starting a child and listing it are one step.
    public static func killAllBeforeExit() {
        ChildSupervisor.children.killAll()
    }

    /// Stops the child: a thread in ``collect(input:limits:)`` (now or
    /// later) wakes at once, sends SIGTERM to the group, SIGKILL after the
    /// grace, and returns ``Outcome/Ending-swift.enum/cancelled``.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up.
        _ = write(wakeUp.write, &byte, 1)
    }
}

/// Why a child could not start.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    /// The errno value of the failure.
    public var code: Int32
    /// A sentence saying what failed and why.
    public var description: String

    init(code: Int32, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// NUL-terminated copies of strings and the NULL-terminated array of
/// pointers to them that exec takes; freed by `release()`.
private struct CStrings: @unchecked Sendable {
    // @unchecked: the strings are written once, here, and only read by the
    // supervisor thread while their owner waits for it.
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) { pointers = strings.map { strdup($0) } + [nil] }

    func release() { for pointer in pointers { free(pointer) } }
}

#endif
