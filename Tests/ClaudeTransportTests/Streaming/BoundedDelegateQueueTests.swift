// The delegate queue's back-pressure: a producer (libcurl's thread, on
// Linux) that adds operations faster than they run waits once `capacity`
// are queued or running, so no more than that many pieces are ever held.

import Foundation
import Synchronization
import Testing

@testable import ClaudeTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private final class Counter<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

private struct Counts: Sendable {
    var added = 0
    var finished = 0
    var mostInFlight = 0
}

@Suite struct BoundedDelegateQueueTests {
    @Test func aFastProducerNeverQueuesMoreThanTheCapacity() async throws {
        let queue = BoundedDelegateQueue(capacity: 8)
        let counts = Counter(Counts())
        let producer = Thread {
            for _ in 0..<400 {
                counts.withLock { $0.added += 1 }
                queue.addOperation {
                    usleep(200)
                    counts.withLock { counts in
                        counts.mostInFlight = max(counts.mostInFlight, counts.added - counts.finished)
                        counts.finished += 1
                    }
                }
            }
        }
        producer.start()
        var waited = 0
        while counts.withLock({ $0.finished }) < 400 && waited < 3000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        let final = counts.withLock { $0 }
        #expect(final.finished == 400)
        // The one being added when the count is read can be one over.
        #expect(final.mostInFlight <= 9, "\(final.mostInFlight) operations were queued at once")
    }

    @Test func anOperationAddedFromTheQueueItselfDoesNotWait() async throws {
        let queue = BoundedDelegateQueue(capacity: 1)
        let ran = Counter(0)
        queue.addOperation {
            // The queue is full (this operation holds its one slot).
            queue.addOperation { ran.withLock { $0 += 1 } }
            ran.withLock { $0 += 1 }
        }
        var waited = 0
        while ran.withLock({ $0 }) < 2 && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(ran.withLock { $0 } == 2)
    }
}
