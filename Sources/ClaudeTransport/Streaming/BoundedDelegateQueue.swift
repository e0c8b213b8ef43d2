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
// queue (`URLSessionTask.cancel()` does: callers cancel from another
// queue), and an operation added from the queue itself never waits.

/// A serial `OperationQueue` whose `addOperation` waits while `capacity`
/// operations are queued or running.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: the only state added is the semaphore, which is thread-safe.
    private let slots: DispatchSemaphore

    /// Pieces of at most 16 KiB: 64 bound the queue to 1 MiB.
    init(capacity: Int = 64) {
        slots = DispatchSemaphore(value: max(1, capacity))
        super.init()
        maxConcurrentOperationCount = 1
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

extension URLSessionTask {
    /// Cancels the task without waiting: on Linux `cancel()` waits for
    /// libcurl's queue, which may itself be waiting for room in the
    /// ``BoundedDelegateQueue`` (or be busy for seconds inflating a refused
    /// gzip body). Every cancel from a delegate callback, or from code a
    /// callback runs, goes through here.
    func cancelWithoutWaiting() {
        let task = self
        DispatchQueue.global().async { task.cancel() }
    }
}
