#if os(Linux) || os(macOS)

// What stops a command-line run from outside: a deadline, and SIGINT or
// SIGTERM. The program owns its signals and its exit; the libraries only
// offer cancellation, and this maps the signals onto it: either cancels the
// task that runs the conversation, which reaches the request (the stream
// ends) and every shell tool (its group gets SIGTERM, then SIGKILL), and
// the run returns only when they are gone, so no process outlives it.
//
// The signals are taken from the process once: their dispositions become
// "ignore" and dispatch signal sources deliver them instead, so a signal
// that arrives between two runs, or while one starts, is never lost and
// never kills the process with work half done.

import ClaudeSession
import ClaudeShellTools
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a command's work until it ends, a deadline passes, or the process
/// gets SIGINT or SIGTERM; then cancels it, which stops its request and
/// kills its shell tools, and waits for it to return.
///
/// ```swift
/// let (response, stoppedBy) = await RunInterruption.run(deadline: .now + .seconds(60)) {
///     try? await session.streamResponse(to: prompt).collect()   // cancelled at the deadline or on Ctrl-C
/// }
/// ```
///
/// A deadline stops only its own run. A signal stops the process's work:
/// every run going on is cancelled, `signalReceived` is set, and a later
/// run is cancelled as it starts. A second SIGINT or SIGTERM does not
/// wait: every tool group still running gets SIGKILL
/// (`ChildProcess.killAllBeforeExit()`), unfinished temporary transcript files
/// are removed (`TranscriptFile.removeUnfinishedTemporaryFiles()`), and the
/// process exits at once with 128 + the signal's number.
///
/// The first run takes SIGINT and SIGTERM from the process for good: their
/// dispositions become "ignore" and dispatch signal sources deliver them,
/// so a signal between two runs is never lost.
enum RunInterruption {
    /// Why a run was stopped.
    enum Reason: Sendable, Hashable {
        /// The deadline passed.
        case timeout
        /// The process got this signal (SIGINT or SIGTERM).
        case signal(Int32)

        /// The exit status of a run stopped this way: 3 at the deadline (a
        /// response that ended early), 128 + N for signal N (the shell's rule).
        var exitStatus: Int32 {
            switch self {
            case .timeout: 3
            case .signal(let number): 128 + number
            }
        }
    }

    private struct State {
        /// How to cancel each run going on.
        var runs: [Int: @Sendable () -> Void] = [:]
        var nextRun = 0
        /// The runs whose deadline passed.
        var timedOut: Set<Int> = []
        var signal: Int32?
    }

    private static let state = Mutex(State())
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Runs `body` in a task of its own until it returns, `deadline`
    /// passes, or a signal arrives; returns what it returned and why it was
    /// stopped, if it was (it then returned after its cancellation).
    ///
    /// - Parameters:
    ///   - deadline: when the run is cancelled; nil for none.
    ///   - body: the work.
    static func run<Value: Sendable>(
        deadline: ContinuousClock.Instant?, _ body: @escaping @Sendable () async -> Value
    ) async -> (value: Value, stoppedBy: Reason?) {
        installHandlers()
        let task = Task { await body() }
        let (id, stopped) = state.withLock { state -> (Int, Bool) in
            state.nextRun += 1
            state.runs[state.nextRun] = { task.cancel() }
            return (state.nextRun, state.signal != nil)
        }
        if stopped { task.cancel() }
        let timer = deadline.map { deadline in
            Task {
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                state.withLock { _ = $0.timedOut.insert(id) }
                task.cancel()
            }
        }
        let value = await task.value
        timer?.cancel()
        let (signal, timedOut) = state.withLock { state -> (Int32?, Bool) in
            state.runs[id] = nil
            return (state.signal, state.timedOut.remove(id) != nil)
        }
        if let signal { return (value, .signal(signal)) }
        return (value, timedOut ? .timeout : nil)
    }

    /// The signal that stopped the process's work, once one arrived (an
    /// interactive command then starts no further exchange).
    static var signalReceived: Int32? { state.withLock { $0.signal } }

    /// The first signal cancels every run; a second one exits at once.
    private static func received(_ signal: Int32) {
        let cancels = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.signal == nil else { return nil }
            state.signal = signal
            return Array(state.runs.values)
        }
        guard let cancels else {
            ChildProcess.killAllBeforeExit()
            TranscriptFile.removeUnfinishedTemporaryFiles()
            _exit(128 + signal)
        }
        for cancel in cancels { cancel() }
    }

    private static func installHandlers() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { received(number) }
                source.resume()
                sources.append(source)
            }
        }
    }
}

#endif
