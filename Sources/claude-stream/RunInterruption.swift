// What stops a `chat` run from outside: `--timeout` and SIGINT/SIGTERM.
// Either cancels the task that runs the conversation; cancellation reaches
// the request (the stream ends) and every tool process (its group gets
// SIGTERM, then SIGKILL), and the run returns only when they are gone, so
// no process outlives chat. The transcript keeps the rounds completed so
// far (it is saved after each).
//
// A second SIGINT or SIGTERM does not wait: every tool group still running
// gets SIGKILL, a half-written temporary transcript is removed, and chat
// exits at once with 128 + the signal.

import ClaudeSession
import ClaudeShellTools
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum RunInterruption {
    enum Reason: Sendable, Equatable {
        case timeout
        case signal(Int32)

        /// The exit status of a run stopped this way: 3 at --timeout (a
        /// response that ended early), 128 + N for signal N (the shell's rule).
        var status: Int32 {
            switch self {
            case .timeout: 3
            case .signal(let number): 128 + number
            }
        }
    }

    private struct State {
        var cancel: (@Sendable () -> Void)?
        var reason: Reason?
    }

    private static let state = Mutex(State())
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Runs `body` until it ends, `deadline` passes or a signal arrives; the
    /// reason it was stopped, if it was.
    static func run<Value: Sendable>(
        deadline: ContinuousClock.Instant?, _ body: @escaping @Sendable () async -> Value
    ) async -> (value: Value, stoppedBy: Reason?) {
        installHandlers()
        let task = Task { await body() }
        let stopped = state.withLock { state -> Bool in
            state.cancel = { task.cancel() }
            return state.reason != nil
        }
        if stopped { task.cancel() }
        var timer: Task<Void, Never>?
        if let deadline {
            timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { stop(.timeout) }
            }
        }
        let value = await task.value
        timer?.cancel()
        let reason = state.withLock { state -> Reason? in
            state.cancel = nil
            return state.reason
        }
        return (value, reason)
    }

    /// Whether the run was stopped (the next exchange of an interactive chat must not start).
    static var isStopped: Bool { state.withLock { $0.reason != nil } }

    static func stop(_ reason: Reason) {
        let (cancel, first) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
            let first = state.reason == nil
            if first { state.reason = reason }
            return (state.cancel, first)
        }
        guard first else {
            guard case .signal(let number) = reason else { return }
            LiveToolGroups.killAll()
            TranscriptFile.removeUnfinishedTemporaryFiles()
            _exit(128 + number)
        }
        cancel?()
    }

    private static func installHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { stop(.signal(number)) }
                source.resume()
                sources.append(source)
            }
        }
    }
}
