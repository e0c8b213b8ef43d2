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
// whose caller hangs). The supervisor holds every live child's hard
// deadline and sends SIGKILL to its group then. It sleeps in poll(2) on a
// pipe until the nearest deadline; a request or an earlier deadline wakes
// it through the pipe. A deadline is dropped (`forget`) before its child is
// reaped, under the same lock as the kill, so a group id is never signalled
// after it could have been reused.

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
    private struct State {
        var requests: [@Sendable () -> Void] = []
        /// The hard deadline of every child not yet reaped, by group id.
        var deadlines: [pid_t: ContinuousClock.Instant] = [:]
    }

    private static let state = Mutex(State())

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
    static func onSupervisorThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value? {
        guard wake.write >= 0 else { return nil }
        let done = DispatchGroup()
        let result = Mutex<Value?>(nil)
        done.enter()
        state.withLock {
            $0.requests.append {
                let value = body()
                result.withLock { $0 = value }
                done.leave()
            }
        }
        wakeUp()
        done.wait()
        return result.withLock { $0 }
    }

    /// From `deadline` on, the group `group` gets SIGKILL unless it was
    /// forgotten first.
    static func watch(_ group: pid_t, until deadline: ContinuousClock.Instant) {
        state.withLock { $0.deadlines[group] = deadline }
        wakeUp()
    }

    /// Drops the deadline of `group`: call it before the leader is reaped.
    static func forget(_ group: pid_t) {
        _ = state.withLock { $0.deadlines.removeValue(forKey: group) }
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
            let (requests, nearest) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                let requests = state.requests
                state.requests = []
                let now = ContinuousClock.now
                for (group, deadline) in state.deadlines where deadline <= now {
                    kill(-group, SIGKILL)
                    state.deadlines[group] = nil
                }
                return (requests, state.deadlines.values.min())
            }
            for request in requests { request() }
            guard requests.isEmpty else { continue }
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
