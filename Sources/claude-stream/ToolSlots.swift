// At most N tool processes of `chat` at once: a response may hold 2,000
// calls, and each waits here for a slot instead of spawning at once. A
// waiter that is cancelled (Ctrl-C, --timeout) leaves at once without a
// slot, so a queue of calls never outlasts the run.

import Synchronization

final class ToolSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(free: max(1, count))) }

    /// Waits for a slot: true when it has one, false when the task was cancelled.
    func acquire() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiting?.resume(returning: false)
        }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
