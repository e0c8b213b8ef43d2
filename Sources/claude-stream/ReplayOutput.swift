// The two ways `replay` shows a stream: drawn live by the renderer, or one
// API JSON line per final message. Both print a message the moment it is
// done, and both refuse to pass off a tool input that is not JSON as a
// finished call: the block is named on stderr and the command exits 1.

import ClaudeStreaming
import CommandLineDisplay
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--final-json`: each message as API JSON when its `message_stop` arrives.
struct FinalJSONPrinter {
    var out = OutputWriter(fileDescriptor: 1)
    private var printedIndex = -1
    /// How many of the accumulator's finished messages were looked at.
    private var completedSeen = 0
    private var inputFailures: [String] = []

    /// Prints `snapshot` if it is a complete message not printed yet (or,
    /// `forced`, the unfinished last one).
    mutating func show(_ snapshot: MessageSnapshot, forced: Bool) {
        guard snapshot.isComplete || forced, snapshot.messageIndex > printedIndex else { return }
        printedIndex = snapshot.messageIndex
        out.writeJSONLine(snapshot.messageJSON())
        inputFailures += ToolInputCheck.failures(in: snapshot)
    }

    /// Prints each message of `completed` (the accumulator's finished
    /// messages, in order) that was not printed yet.
    ///
    /// - Complexity: O(1) when none is new.
    mutating func showCompleted(_ completed: [MessageSnapshot]) {
        guard completed.count > completedSeen else { return }
        for snapshot in completed[completedSeen...] { show(snapshot, forced: false) }
        completedSeen = completed.count
    }

    mutating func end() -> Int32 {
        out.flush()
        return ToolInputCheck.report(inputFailures)
    }
}

/// The live view: a header per message, the renderer, optional pacing.
struct LiveReplay {
    var renderer: SnapshotRenderer
    /// Pause after each snapshot, in microseconds (0: none).
    private let pause: UInt32
    private var headerIndex = -1
    private var finishedIndex = -1
    /// The message index drawn last (the snapshot itself is not kept: holding
    /// it would make the accumulator copy its open blocks on every event).
    private var lastIndex = -1
    private var inputFailures: [String] = []

    init(_ options: ReplayCommand.Options, input: StreamInput) {
        let terminal = isatty(1) == 1
        renderer = SnapshotRenderer(isTerminal: terminal)
        // Pacing makes a stored recording watchable; a live pipe has its own pace.
        let speed = options.speed ?? (terminal && input.isStored ? 1 : 0)
        // parseSpeed keeps speed at 0 or >= 0.01, so this is at most 2.5 s.
        pause = speed > 0 ? UInt32(min(2_500_000, (25_000 / speed).rounded())) : 0
    }

    mutating func show(_ snapshot: MessageSnapshot) {
        if snapshot.messageIndex != headerIndex {
            if headerIndex >= 0 { renderer.out.write("\n") }
            headerIndex = snapshot.messageIndex
            renderer.out.write("[" + TerminalText.sanitized("\(snapshot.id) · \(snapshot.requestedModel)") + "]\n")
        }
        renderer.render(snapshot)
        lastIndex = snapshot.messageIndex
        if pause > 0 { usleep(pause) }
        if snapshot.isComplete && snapshot.messageIndex > finishedIndex {
            finishedIndex = snapshot.messageIndex
            renderer.finish(snapshot)
            inputFailures += ToolInputCheck.failures(in: snapshot)
        }
    }

    /// Closes the last message (`last`, as the accumulator or its error
    /// holds it) with `note`, why it stopped, if it did not finish.
    mutating func end(note: String?, last: MessageSnapshot?) -> Int32 {
        if let last, last.messageIndex == lastIndex, last.messageIndex > finishedIndex {
            finishedIndex = last.messageIndex
            renderer.finish(last, note: note)
            inputFailures += ToolInputCheck.failures(in: last)
        }
        renderer.out.flush()
        return ToolInputCheck.report(inputFailures)
    }
}

/// Tool calls whose input turned out not to be JSON.
enum ToolInputCheck {
    /// One line per such block: which message and block, the tool, and why.
    ///
    /// - Complexity: O(blocks of the message).
    static func failures(in snapshot: MessageSnapshot) -> [String] {
        snapshot.content.enumerated().compactMap { index, block in
            guard case .toolUse(let call) = block, let error = call.inputError else { return nil }
            return "replay: message \(snapshot.messageIndex), block \(index) (\(call.kind.rawValue) \(call.name), id \(call.id)): "
                + "input is not valid JSON: \(error); the message's JSON holds only the part before the error"
        }
    }

    /// Writes the lines to stderr; 1 when there are any, else 0.
    static func report(_ failures: [String]) -> Int32 {
        for line in failures { CLIOutput.standardError(line) }
        return failures.isEmpty ? ExitCodes.success : ExitCodes.streamError
    }
}
