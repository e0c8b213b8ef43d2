// The order a task's cancels and its completion keep (CancelGate.swift):
// a completion waits for a cancel under way, and a cancel that begins after
// the completion does nothing. The cancel here is a closure standing in for
// `URLSessionTask.cancel()`, held open as long as a test needs.

import Foundation
import Synchronization
import Testing

@testable import ClaudeTransport

/// What happened, in order, across threads.
private final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// A cancel through `gate` that, once running, waits for `release` before
/// it returns, and records "cancel returned" then.
private struct HeldCancel {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let returned = DispatchSemaphore(value: 0)

    init(through gate: CancelGate, log: EventLog) {
        let (entered, release, returned) = (entered, release, returned)
        gate.cancel {
            entered.signal()
            release.wait()
            log.record("cancel returned")
            returned.signal()
        }
    }
}

@Suite struct CancelGateTests {
    @Test func theCompletionWaitsForACancelUnderWay() throws {
        let gate = CancelGate()
        let log = EventLog()
        let held = HeldCancel(through: gate, log: log)
        #expect(held.entered.wait(timeout: .now() + 10) == .success, "the cancel never ran")
        let completed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            gate.complete()
            log.record("complete returned")
            completed.signal()
        }
        // Held: the completion must still be waiting.
        #expect(completed.wait(timeout: .now() + 0.3) == .timedOut, "complete() returned while a cancel was under way")
        #expect(gate.isComplete)
        held.release.signal()
        #expect(completed.wait(timeout: .now() + 10) == .success, "complete() never returned")
        #expect(log.all == ["cancel returned", "complete returned"])
    }

    @Test func aCancelAfterTheCompletionDoesNothing() {
        let gate = CancelGate()
        let log = EventLog()
        gate.complete()
        gate.cancel { log.record("cancelled") }
        // A second completion waits for the cancel dispatched above to end.
        gate.complete()
        #expect(log.all.isEmpty)
    }

    @Test func aCancelBeforeTheCompletionRunsWithoutBlockingTheCaller() {
        let gate = CancelGate()
        let log = EventLog()
        // Returns at once although the cancel is held.
        let held = HeldCancel(through: gate, log: log)
        log.record("caller went on")
        held.release.signal()
        #expect(held.returned.wait(timeout: .now() + 10) == .success)
        #expect(log.all == ["caller went on", "cancel returned"])
        #expect(!gate.isComplete)
    }
}
