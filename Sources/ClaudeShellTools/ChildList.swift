#if os(Linux) || os(macOS)

// The children of this process not yet reaped, each with the instant its
// group gets SIGKILL: the one list that the supervisor's deadlines and an
// exit that cannot wait (`killAll`) both read.
//
// Why starting is one step with listing: a second Ctrl-C kills what is on
// the list and the process exits. A child that was running but not yet
// listed would be missed; its own children (a shell tool's `sleep`) would
// then outlive this process, since the parent-death signal reaches only
// the child itself. So `start` runs the spawn under the list's lock, and
// `killAll`, which takes the same lock, sees either no child or a listed
// one. For example, with a tool starting while Ctrl-C is pressed twice:
//
//     supervisor thread            signal handler
//     start: lock, spawn 4242      killAll: waits for the lock
//            list 4242, unlock     lock, stopped, kill(-4242) ✓
//
// When the list was filled by the caller after the spawn returned, the
// handler could run between the two and exit with 4242's children alive.
//
// A group is dropped (`forget`) before its leader is reaped, under the
// lock that the list's kills take, so the list never signals a group id
// that could have been reused. (The other kills of a group are the
// collecting thread's: before the reap under the child's own `reaped`
// lock, and after it only while a member still waiting to be reaped keeps
// the id in use.) A group leaves the list with SIGKILL already sent: at its
// deadline by `killExpired`, or, before `forget`, by its collector once
// the leader exited.

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class ChildList: Sendable {
    private struct State {
        /// When each listed group gets SIGKILL, by group id.
        var deadlines: [pid_t: ContinuousClock.Instant] = [:]
        /// Set by `killAll`: nothing starts afterwards.
        var stopped = false
    }

    private let state = Mutex(State())

    init() {}

    /// Runs `spawn` (a pid, or an errno value) and lists the child it
    /// started, to be killed at `deadline`, in one step; after `killAll`
    /// it starts nothing and returns ECANCELED.
    ///
    /// - Complexity: `spawn`, with the lock held: keep it to the spawn.
    func start(
        until deadline: ContinuousClock.Instant, _ spawn: () -> (pid: pid_t, failure: Int32)
    ) -> (pid: pid_t, failure: Int32) {
        state.withLock { state in
            guard !state.stopped else { return (0, ECANCELED) }
            let started = spawn()
            if started.failure == 0 { state.deadlines[started.pid] = deadline }
            return started
        }
    }

    /// Drops `group` from the list: call it before its leader is reaped.
    func forget(_ group: pid_t) {
        _ = state.withLock { $0.deadlines.removeValue(forKey: group) }
    }

    /// Sends SIGKILL to every group whose deadline has passed and drops it;
    /// returns the nearest deadline left.
    func killExpired(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        state.withLock { state in
            for (group, deadline) in state.deadlines where deadline <= now {
                kill(-group, SIGKILL)
                state.deadlines[group] = nil
            }
            return state.deadlines.values.min()
        }
    }

    /// Sends SIGKILL to every listed group, without waiting, and starts
    /// nothing afterwards. A start under way finishes first, and its
    /// child is killed with the rest.
    func killAll() {
        state.withLock { state in
            state.stopped = true
            for group in state.deadlines.keys { kill(-group, SIGKILL) }
        }
    }

    /// Whether `group` is listed.
    func contains(_ group: pid_t) -> Bool {
        state.withLock { $0.deadlines[group] != nil }
    }
}

#endif
