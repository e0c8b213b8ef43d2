import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The serial queue a session calls its delegate on, with back-pressure.
//
// On Linux, FoundationNetworking hands every piece libcurl writes (at most
// 16 KiB, `CURL_MAX_WRITE_SIZE`) to the delegate queue as an operation and
// goes straight on reading: nothing waits for the delegate. A server faster
// than the consumer, or a gzip body (libcurl inflates whatever it is sent,
// whatever `accept-encoding` asked, up to 100 socket reads per wake-up),
// then piles decoded pieces up in this queue: a 1 MB bomb was 1 GiB of
// queued operations before the delegate saw the first one.
//
// So adding an operation waits while `capacity` of them are queued or
// running: the thread that adds them (libcurl's) stops, stops reading the
// socket, and TCP flow control slows the sender. The queue holds at most
// `capacity` pieces, whatever the server does.
//
// It cannot deadlock as long as no delegate callback waits for libcurl's
// queue while libcurl may still add operations (`URLSessionTask.cancel()`
// waits for that queue: callers cancel through a `CancelGate`, on a queue of
// their own, so waiting cancels never take the threads the delegate's
// operations run on; the one callback that waits for a cancel is the
// task's completion, the last operation libcurl adds for it), and an
// operation added from the queue itself never waits.

/// A serial `OperationQueue` whose `addOperation` waits while `capacity`
/// operations are queued or running.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: the only state added is a semaphore and a queue, both thread-safe.
    private let slots: DispatchSemaphore
    /// Held here: `underlyingQueue` does not keep its queue alive.
    private let serial = DispatchQueue(label: "ClaudeTransport.delegate")

    /// Pieces of at most 16 KiB: 256 bound the queue to 4 MiB, enough that
    /// a consumer that keeps up never makes libcurl wait.
    init(capacity: Int = 256) {
        slots = DispatchSemaphore(value: max(1, capacity))
        super.init()
        maxConcurrentOperationCount = 1
        // Operations run on a serial queue of their own, which has a thread
        // of its own: on the global pool (two threads on two cores) other
        // work could hold the delegate back for seconds while libcurl
        // waits for it, and libcurl's idle timer counts that wait.
        underlyingQueue = serial
    }

    override func addOperation(_ operation: Operation) {
        // A callback that schedules more work on its own queue must not wait
        // for itself.
        if OperationQueue.current !== self { slots.wait() } else { return super.addOperation(operation) }
        let release = slots
        let previous = operation.completionBlock
        operation.completionBlock = {
            previous?()
            release.signal()
        }
        super.addOperation(operation)
    }
}
