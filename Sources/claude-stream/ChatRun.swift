// One prompt of `chat` answered by its ClaudeSession: the session's stream
// rendered round by round, the transcript saved after every complete round
// (the session's hook), and the way it ended turned into an exit status.
// The session is the conversation engine; nothing here builds requests or
// tool results.

import ClaudeSession
import ClaudeShellTools
import ClaudeStreaming
import ClaudeTransport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ChatRun: Sendable {
    let options: ChatOptions
    let session: ClaudeSession
    let saver: TranscriptSaver
    /// --timeout's end, counted from the start of the run.
    let deadline: ContinuousClock.Instant?

    /// `respond`, stopped at --timeout or by SIGINT/SIGTERM: its exit status,
    /// and whether it was stopped (an interactive chat then ends).
    func interruptible(_ prompt: String?) async -> (status: Int32, stopped: Bool) {
        let run = self
        let (status, reason) = await RunInterruption.run(deadline: deadline) { await run.respond(prompt) }
        switch reason {
        case .timeout?:
            CLIOutput.standardError("chat: --timeout \(options.timeout.map { "\($0)" } ?? "") s reached; the run was stopped")
        case .signal(let number)?:
            CLIOutput.standardError("chat: stopped by signal \(number); the transcript keeps the completed rounds")
        case nil:
            break
        }
        // A transcript that could not be written wins: the conversation is not saved.
        return (saver.status ?? reason?.exitStatus ?? status, reason != nil)
    }

    /// Sends `prompt` (nil: resume the conversation as it is) and renders every round.
    func respond(_ prompt: String?) async -> Int32 {
        let stream = prompt.map { session.streamResponse(to: $0) } ?? session.streamResume()
        var output = RoundOutput(finalJSON: options.finalJSON)
        var iterator = stream.makeAsyncIterator()
        do throws(SessionError) {
            while let snapshot = try await iterator.next() { output.show(snapshot) }
            guard let response = iterator.response else { return 3 }
            output.finish(response.message, round: nil, note: nil)
            if !response.pendingToolCalls.isEmpty, saver.status == nil {
                let names = response.pendingToolCalls.map(\.name).filter { options.toolCommand($0) == nil }
                CLIOutput.standardError("chat: stopped at a call of a tool without a command (\(Set(names).sorted().joined(separator: ", ")))")
            }
            return saver.status ?? 0
        } catch {
            if let partial = error.partial {
                output.finish(partial, round: error.round, note: "incomplete")
            } else {
                output.flush()
            }
            return saver.status ?? Self.status(error)
        }
    }

    /// The exit status of a session error, with its message on stderr.
    static func status(_ error: SessionError) -> Int32 {
        switch error.kind {
        case .transport(.cancelled), .cancelled:
            return 3
        case .transport(let transport):
            CLIOutput.standardError("chat: \(transport)")
            switch transport {
            case .stream(let stream): return stream.kind == .incomplete ? 3 : 1
            case .connectionLost, .idleTimeout, .overallTimeout, .cancelled: return 3
            case .missingCredential, .invalidRequest, .http, .network, .credentialProvider, .invalidResponse: return 2
            }
        case .invalidRequest(let request):
            CLIOutput.standardError("chat: the request was not sent: \(request)")
            return 64
        case .turnLimitReached(let turns, let pending):
            let what = pending.isEmpty ? "at pause_turn; the answer is unfinished" : "with \(pending.count) tool call(s) pending"
            CLIOutput.standardError("chat: stopped after \(turns) requests (--max-turns) \(what)")
            return 4
        case .pendingToolCalls(let pending):
            CLIOutput.standardError("chat: \(pending.count) tool call(s) have no result yet")
            return 4
        case .structuredOutput, .busy, .tokenCountingUnsupported:
            CLIOutput.standardError("chat: \(error)")
            return 1
        }
    }
}

/// What chat prints of the rounds: each round's message rendered as it
/// builds (or, with --final-json, its final form as one JSON line).
struct RoundOutput {
    let finalJSON: Bool
    private var renderer = SnapshotRenderer(isTerminal: isatty(1) == 1)
    private var current: ResponseSnapshot?

    init(finalJSON: Bool) { self.finalJSON = finalJSON }

    mutating func show(_ snapshot: ResponseSnapshot) {
        if snapshot.restart != nil {
            // The attempt broke and is sent again: what it drew is void, and
            // nothing of it is printed with --final-json (stderr says so).
            if !finalJSON { renderer.abandon(note: "the stream broke; the round is sent again") }
            renderer = SnapshotRenderer(isTerminal: isatty(1) == 1)
            current = nil
            return
        }
        // The last snapshot of a round comes before the next round's first: it is the round's message.
        if let current, current.round != snapshot.round { end(current.message, note: nil) }
        current = snapshot
        if !finalJSON { renderer.render(snapshot.message) }
    }

    /// Ends round `round` with `message` (nil round: the one shown); a
    /// different round still shown ends first, complete.
    mutating func finish(_ message: MessageSnapshot, round: Int?, note: String?) {
        if let current, let round, current.round != round { end(current.message, note: nil) }
        end(message, note: note)
    }

    /// Ends the round shown with its last snapshot, if there is one.
    mutating func flush() {
        if let current { end(current.message, note: nil) }
    }

    private mutating func end(_ message: MessageSnapshot, note: String?) {
        if finalJSON { CLIOutput.standardOutput(message.messageJSON().compactJSON) } else { renderer.finish(message, note: note) }
        renderer = SnapshotRenderer(isTerminal: isatty(1) == 1)
        current = nil
    }
}

/// Writes the transcript after each complete round (the session's
/// `onRoundCompleted`); the first failure stops further rounds and is the
/// run's exit status (73).
final class TranscriptSaver: Sendable {
    let path: String?
    private let failure = Mutex<Int32?>(nil)

    init(path: String?) { self.path = path }

    var status: Int32? { failure.withLock { $0 } }

    func save(_ transcript: SessionTranscript) {
        guard let path, status == nil else { return }
        do throws(TranscriptFileError) { try TranscriptFile(path: path).write(transcript) } catch {
            CLIOutput.standardError("chat: \(error)")
            failure.withLock { $0 = 73 }
        }
    }
}
