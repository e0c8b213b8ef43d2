#if os(Linux) || os(macOS)

// The one thread that starts every child of this package and kills each at
// its deadline when nothing else did.
//
// Why one thread: on Linux a child asks for SIGKILL when its parent dies
// (PR_SET_PDEATHSIG), and "parent" there means the thread that started it,
// not the process. A child started from a task of the cooperative pool, or
// from a thread of a dispatch queue, would be killed when that thread is
// retired, long before the child's work is done. This thread never ends,
// so a child gets its SIGKILL exactly when this process ends, however it
// ends (even by SIGKILL).
//
// Why here: a deadline that only a collecting thread enforces does not
// hold for a child nobody collects (a server a test left running, a child
// whose caller hangs). The supervisor sends SIGKILL to each group on the
// ChildList at its deadline. It sleeps in poll(2) on a pipe until the
// nearest deadline; a request or an earlier deadline wakes it through the
// pipe.

import Dispatch
import Foundation
import Synchronization
import _ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ChildSupervisor {
    /// Work for the thread: starts of children.
    private static let requests = Mutex<[@Sendable () -> Void]>([])

    /// Every child of this process not yet reaped.
    static let children = ChildList()

    /// The read and write ends of the pipe that wakes the thread; the
    /// thread starts with the first use.
    private static let wake: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard _process_pipe(&ends) == 0 else { return (-1, -1) }
        for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let readEnd = ends[0]
        let thread = Thread { supervise(reading: readEnd) }
        thread.name = "ClaudeShellTools.children"
        thread.start()
        return (ends[0], ends[1])
    }()

    /// Runs `body` on the supervisor thread and returns its result; nil
    /// when the thread could not be started (no pipe).
    private static func onSupervisorThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value? {
        guard wake.write >= 0 else { return nil }
        let done = DispatchGroup()
        let result = Mutex<Value?>(nil)
        done.enter()
        requests.withLock {
            $0.append {
                let value = body()
                result.withLock { $0 = value }
                done.leave()
            }
        }
        wakeUp()
        done.wait()
        return result.withLock { $0 }
    }

    /// Starts a child with `spawn` (its pid, or an errno value) on this
    /// thread and lists it on ``children``, to be killed at `deadline`
    /// unless it is forgotten first; ECANCELED once the list was killed.
    static func start(
        until deadline: ContinuousClock.Instant, _ spawn: @escaping @Sendable () -> (pid: pid_t, failure: Int32)
    ) -> (pid: pid_t, failure: Int32) {
        // The spawn runs inside `children.start`, never before it: the
        // list's lock around both is what a kill before exit relies on.
        let started = onSupervisorThread { children.start(until: deadline, spawn) }
        guard let started else { return (0, EAGAIN) }
        // The thread's next wait is computed after this request, so it
        // already counts the new deadline.
        return started
    }

    private static func wakeUp() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: EAGAIN is fine.
        _ = write(wake.write, &byte, 1)
    }

    private static func supervise(reading wakeUpEnd: Int32) {
        // Signals for the process go to other threads: this one only waits.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        while true {
            let work = requests.withLock { requests in
                defer { requests = [] }
                return requests
            }
            let nearest = children.killExpired(now: .now)
            for request in work { request() }
            guard work.isEmpty else { continue }
            var polled = pollfd(fd: wakeUpEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&polled, 1, nearest.map { pollTimeout(until: $0) } ?? -1)
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeUpEnd, &buffer, buffer.count) > 0 {}
        }
    }
}

/// poll(2)'s timeout in milliseconds until `instant`, rounded up (so a
/// wake-up is never early), at least 0.
func pollTimeout(until instant: ContinuousClock.Instant) -> Int32 {
    let left = instant - .now
    guard left > .zero else { return 0 }
    let milliseconds = left.components.seconds * 1000 + (left.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
}

#endif
