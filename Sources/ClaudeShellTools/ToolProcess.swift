#if os(Linux) || os(macOS)

// One shell command run as a tool: `/bin/sh -c COMMAND` as a ChildProcess
// (its own process group, a clean signal state, its time limit), its input
// JSON on stdin, stdout and stderr collected by a thread of its own.
//
// Cancelling the calling task cancels the child: the collecting thread is
// woken through the child's wake-up pipe at once, and the call returns
// once the group is gone.

import Foundation
import Synchronization
import _ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes this process a child subreaper (Linux): a tool's orphans, killed
/// with its group, are then reparented to this process and reaped by it,
/// instead of going to an init that may never reap them (a container's),
/// where they would stay zombies of the group.
///
/// macOS has no subreaper: a killed group's orphans go to launchd, which
/// reaps them. A tool call there returns once its leader is reaped and
/// SIGKILL was sent to the rest of its group, without waiting for launchd
/// to reap them.
public enum ToolReaper {
    /// Sets PR_SET_CHILD_SUBREAPER on Linux; does nothing on macOS. Call it
    /// once, before the first tool runs.
    public static func becomeSubreaper() {
        _ = _process_become_subreaper()
    }
}

/// A tool process's end, or why it never started.
enum ToolProcessOutcome: Sendable {
    case ran(ChildProcess.Outcome)
    case couldNotStart(String)
    case cancelledBeforeStart
}

enum ToolProcess {
    /// Runs `/bin/sh -c command` with `input` on stdin and `environment`
    /// (`NAME=value` strings) as its whole environment.
    static func run(_ command: String, input: [UInt8], environment: [String], limits: ShellToolLimits) async -> ToolProcessOutcome {
        let run = ToolProcessRun()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: run.drive(command, input: input, environment: environment, limits: limits))
                }
                thread.name = "ClaudeShellTools.tool"
                thread.start()
            }
        } onCancel: {
            run.cancel()
        }
    }
}

/// One run: the child once started, and whether the call was cancelled
/// (before or after the start).
private final class ToolProcessRun: Sendable {
    private struct State {
        var child: ChildProcess?
        var cancelled = false
    }

    private let state = Mutex(State())

    func cancel() {
        let child = state.withLock { state -> ChildProcess? in
            state.cancelled = true
            return state.child
        }
        child?.cancel()
    }

    func drive(_ command: String, input: [UInt8], environment: [String], limits: ShellToolLimits) -> ToolProcessOutcome {
        if state.withLock({ $0.cancelled }) { return .cancelledBeforeStart }
        let child: ChildProcess
        do throws(ChildProcessError) {
            child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", command], environment: environment, timeLimit: limits.timeout, grace: limits.grace)
        } catch {
            return .couldNotStart(error.description)
        }
        let cancelled = state.withLock { state -> Bool in
            state.child = child
            return state.cancelled
        }
        if cancelled { child.cancel() }
        let outputLimits = ChildProcess.OutputLimits(
            keptOutputBytes: limits.maxResultBytes, maxOutputBytes: limits.maxOutputBytes, keptErrorBytes: limits.stderrTailBytes)
        return .ran(child.collect(input: input, limits: outputLimits))
    }
}

#endif
