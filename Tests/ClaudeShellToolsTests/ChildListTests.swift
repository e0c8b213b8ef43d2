// ChildList, the list of children an exit that cannot wait kills: a kill
// that comes while a child is starting waits for the start and kills that
// child too, nothing starts after the kill, and a deadline kills its group
// alone. Each test has a list of its own, so the process-wide list (and
// the children of tests running beside these) is left alone; the children
// themselves are started as usual, and the test lists their groups.

#if os(Linux) || os(macOS)

@testable import ClaudeShellTools
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child that runs until it is killed, or its 5 s time limit.
private func longChild() throws -> ChildProcess {
    try ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30"], timeLimit: .seconds(5))
}

/// Whether `child` has exited (without reaping it).
private func hasExited(_ child: ChildProcess) -> Bool {
    var info = siginfo_t()
    return waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
}

/// What the killing thread has done so far.
private final class KillProgress: Sendable {
    let calling = Atomic(false)
    let returned = Atomic(false)
}

@Suite struct ChildListTests {
    /// The Ctrl-C race: `killAll` is called from another thread while the
    /// spawn runs, and must wait for it, then kill the child it started.
    @Test func aKillDuringAStartKillsTheChildItStarted() throws {
        let child = try longChild()
        let list = ChildList()
        let kill = KillProgress()
        let started = list.start(until: .now + .seconds(60)) {
            Thread.detachNewThread {
                kill.calling.store(true, ordering: .releasing)
                list.killAll()
                kill.returned.store(true, ordering: .releasing)
            }
            while !kill.calling.load(ordering: .acquiring) { usleep(1000) }
            // The kill has had 100 ms to run; it is waiting for this start.
            usleep(100_000)
            let returnedEarly = kill.returned.load(ordering: .acquiring)
            #expect(!returnedEarly, "the kill ran while a start was under way")
            return (child.pid, 0)
        }
        #expect(started.failure == 0)
        let outcome = child.collect(input: [])
        #expect(outcome.ending == .signalled(SIGKILL), "\(outcome.ending)")
        var waited = 0
        while !kill.returned.load(ordering: .acquiring) && waited < 5000 {
            usleep(1000)
            waited += 1
        }
        #expect(waited < 5000, "the kill never returned")
    }

    @Test func nothingStartsAfterTheKill() {
        let list = ChildList()
        list.killAll()
        let started = list.start(until: .now + .seconds(60)) {
            Issue.record("spawned after the kill")
            return (0, 0)
        }
        #expect(started.failure == ECANCELED)
    }

    @Test func aFailedStartIsNotListed() {
        let list = ChildList()
        let started = list.start(until: .now + .seconds(60)) { (4242, ENOENT) }
        #expect(started.failure == ENOENT)
        #expect(!list.contains(4242))
    }

    /// A passed deadline kills its group and drops it; the nearest deadline
    /// left is returned, and a forgotten group is never signalled.
    @Test func aDeadlineKillsItsGroupAlone() throws {
        let (expired, waiting, forgotten) = (try longChild(), try longChild(), try longChild())
        let list = ChildList()
        let now = ContinuousClock.now
        _ = list.start(until: now - .seconds(1)) { (expired.pid, 0) }
        _ = list.start(until: now + .seconds(60)) { (waiting.pid, 0) }
        _ = list.start(until: now - .seconds(1)) { (forgotten.pid, 0) }
        list.forget(forgotten.pid)

        #expect(list.killExpired(now: now) == now + .seconds(60))
        #expect(!list.contains(expired.pid))
        #expect(list.contains(waiting.pid))
        #expect(expired.collect(input: []).ending == .signalled(SIGKILL))
        // The expired group is dead by now; the other two must still run.
        #expect(!hasExited(waiting))
        #expect(!hasExited(forgotten), "a forgotten group was signalled")
        for child in [waiting, forgotten] { child.cancel() }
        #expect(waiting.collect(input: []).ending == .cancelled)
        #expect(forgotten.collect(input: []).ending == .cancelled)
    }
}

#endif
