import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why the cancels of a task wait for nothing, and its completion waits for them.
//
// FoundationNetworking (Linux) cancels a task in two steps: `cancel()`
// marks it cancelling on the task's work queue and queues a work item
// there, X, that reports the cancellation through the session's task
// registry. The task's completion runs on the delegate queue: the
// delegate's `didCompleteWithError`, then the task is marked completed,
// then an item R, queued on the same work queue, removes it from the
// registry. Nothing orders X before R. When a cancel's first step runs
// just before the completion marks the task completed, and R is queued
// before X, X finds no task in the registry and the process traps
// ("Trying to access a behaviour for a task that in not in the registry",
// seen in test runs while a refused gzip body was still being inflated).
//
// The gate orders them. Every cancel of the task goes through `cancel`,
// which counts itself in before it is dispatched and out once `cancel()`
// has returned, X queued. The delegate's `didCompleteWithError` calls
// `complete()` first: from then on a cancel that has not begun does
// nothing, and `complete()` waits for any cancel already in `cancel()`.
// R is queued only after the delegate returns, so after X, and the work
// queue runs them in that order. Worked example, the refused bomb:
//
//   delegate queue            cancel queue               work queue
//   didReceive response
//     gate.cancel  ──enter──▶ (waits: libcurl is
//                              inflating the body)       body… DidFinishLoading
//   didCompleteWithError                                 (queues the completion)
//     gate.complete()  waits  task.cancel(): X queued ─▶ X
//                      ◀──leave──
//   task marked completed;
//   R queued ───────────────────────────────────────────▶ R
//
// `complete()` waits at most `completionWait`: a cancel waits for the work
// queue, which is never held for the delegate queue by then (the task's
// last operation, its completion, is running), so the bound only guards
// against a FoundationNetworking that behaves otherwise.
//
// A cancel never waits itself: on Linux `cancel()` waits for libcurl's
// queue, which may be waiting for room in the ``BoundedDelegateQueue`` (or
// busy for seconds inflating a refused gzip body), so it runs on a queue of
// its own, which holds a thread of its own while it waits (not one of the
// global pool that runs the delegate queue's operations). A session with a
// cache would reopen the race (its protocol is made after a cache lookup on
// another queue, and X after that), which is why every session here is
// `URLSessionConfiguration.uncached()` (UncachedConfiguration.swift).

/// The cancels of one task, ordered before its completion (file comment).
final class CancelGate: Sendable {
    private let completed = Atomic<Bool>(false)
    /// The cancels dispatched and not yet returned.
    private let inFlight = DispatchGroup()
    /// The longest `complete()` waits for a cancel in flight.
    static let completionWait: DispatchTimeInterval = .seconds(30)

    /// Whether ``complete()`` was called.
    var isComplete: Bool { completed.load(ordering: .acquiring) }

    /// Calls `cancel` on a queue of its own, unless ``complete()`` has been
    /// called by the time it would run. Returns at once.
    func cancel(_ cancel: @escaping @Sendable () -> Void) {
        // After the completion there is nothing to cancel, nor a queue to
        // start (a stream that ended normally ends its channel so).
        guard !isComplete else { return }
        inFlight.enter()
        DispatchQueue(label: "ClaudeTransport.cancel").async { [self] in
            defer { inFlight.leave() }
            if !isComplete { cancel() }
        }
    }

    /// Cancels `task` through the gate (see ``cancel(_:)``).
    func cancel(_ task: URLSessionTask) {
        cancel { task.cancel() }
    }

    /// Marks the task complete and waits (at most ``completionWait``) for
    /// the cancels already under way. Called first in the delegate's
    /// `didCompleteWithError`.
    func complete() {
        completed.store(true, ordering: .releasing)
        _ = inFlight.wait(timeout: .now() + Self.completionWait)
    }
}
