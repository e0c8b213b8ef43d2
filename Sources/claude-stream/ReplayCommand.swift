// `claude-stream replay [FILE | -]`: a recorded stream, rendered as it builds up.
//
// Without FILE it plays the bundled DemoRecording; `-` reads stdin, drawn as
// the bytes arrive (`curl -N … | claude-stream replay -`). `--final-json`
// prints one line per message instead, the final message as API JSON, each
// as soon as its `message_stop` arrived. Exit codes: see ``ExitCodes``; a
// tool input that is not JSON is named on stderr and exits 1.

import ClaudeStreaming
import CommandLineDisplay
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ReplayCommand {
    static let usage = """
        usage: claude-stream replay [FILE | -] [options]
          Renders a recorded stream as it builds up: the bundled recording without FILE, stdin with -.
          --final-json           print only each final message as API JSON, one line per message
          --chunk N              feed the bytes in N-byte chunks
          --chunks A,B,…         feed chunks of those sizes, then the rest as it is read
          --random-chunks SEED   feed chunks of random sizes 1...64 (SplitMix64, SEED 0...2^64-1)
          --speed X              pace a stored recording at X times 40 events a second (0: no pauses;
                                 X from 0.01; default 1 on a terminal for a file, 0 otherwise)
          --framing F            sse, aws-eventstream (Amazon Bedrock) or auto (the default: judged
                                 from the first 12 bytes; a shorter input is sse)
          --sequential           allow several messages in one stream (the default)
          --single               a second message_start after message_stop is an error
          -h, --help             this text
        """ + "\n" + ExitCodes.text

    struct Options {
        var path: String?
        var readsStandardInput = false
        var finalJSON = false
        var plan = ChunkPlan.whole
        var speed: Double?
        var allowsSequential = true
        /// Nil: detected from the first bytes.
        var framing: EventFraming?
    }

    static func run(_ arguments: [String]) -> Int32 {
        let started = CommandStart.prepare("replay", usage: usage, arguments, parse: parse) { (options) throws(InputError) in
            options.path == nil && !options.readsStandardInput
                ? StreamInput.bundled(DemoRecording.bytes, name: "bundled recording") : try StreamInput.open(options.path)
        }
        guard case .success(let (options, opened)) = started else { return started.exitStatus }
        var input = opened
        var display =
            options.finalJSON
            ? ReplayDisplay(printer: FinalJSONPrinter()) : ReplayDisplay(live: LiveReplay(options, input: input))
        var accumulator = MessageAccumulator()
        var failure: MessageStreamError?
        do throws(InputError) {
            failure = try input.feedChunks(
                plan: options.plan, framing: options.framing,
                start: { framing in
                    accumulator = MessageAccumulator(
                        options: MessageAccumulatorOptions(
                            allowsSequentialMessages: options.allowsSequential, framing: framing))
                },
                to: { (chunk) throws(MessageStreamError) in
                    // --final-json needs only finished messages: a snapshot per
                    // event would cost it retains, releases and exclusivity
                    // checks, a real share of its work on short deltas.
                    if options.finalJSON {
                        try accumulator.feed(chunk)
                        display.showCompleted(accumulator.completedMessages)
                    } else {
                        try accumulator.feed(chunk) { display.show($0) }
                    }
                }, afterPiece: { display.flush() })
        } catch {
            display.showCompleted(accumulator.completedMessages)
            display.flush()
            CLIOutput.standardError("replay: \(error.message)")
            return error.exitCode
        }
        if failure == nil {
            do throws(MessageStreamError) { _ = try accumulator.finish() } catch { failure = error }
        }
        // Messages that finished in the chunk a failure stopped.
        display.showCompleted(accumulator.completedMessages)
        guard let failure else { return display.end(note: nil, last: accumulator.snapshot) }
        if case .incomplete = failure.kind {
            if accumulator.eventCount == 0 {
                let problem =
                    input.problemWithoutEvents()
                    ?? InputError(
                        kind: .notEventStream, message: "\(input.name): not an event stream: no events in \(input.byteCount) bytes")
                CLIOutput.standardError("replay: \(problem.message)")
                return problem.exitCode
            }
            if let last = failure.snapshot { display.show(last, forced: true) }
            let status = display.end(note: "stream ended before message_stop", last: failure.snapshot)
            CLIOutput.standardError(failure.description)
            return status == ExitCodes.success ? ExitCodes.incomplete : status
        }
        _ = display.end(note: "stopped: \(failure.reason)", last: failure.snapshot)
        CLIOutput.standardError(failure.description)
        return ExitCodes.streamError
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var list = ArgumentList(arguments)
        while let flag = try list.nextFlag() {
            if let plan = try ChunkPlan.parse(flag, from: &list) {
                options.plan = plan
                continue
            }
            switch flag {
            case "--final-json": options.finalJSON = true
            case "--sequential": options.allowsSequential = true
            case "--single": options.allowsSequential = false
            case "--framing": options.framing = try FramingChoice.parse(try list.value(of: flag))
            case "--speed": options.speed = try parseSpeed(try list.value(of: flag))
            default: throw list.unknown(flag)
            }
        }
        // Without FILE replay plays the bundled recording, so stdin is asked for by name.
        options.readsStandardInput = list.input == "-"
        options.path = list.input == "-" ? nil : list.input
        return options
    }

    /// 0, or a finite number from 0.01 on: a slower pace would pause
    /// seconds per event, which is a stuck program rather than a replay.
    static func parseSpeed(_ text: String) throws(UsageError) -> Double {
        guard let speed = Double(text), speed.isFinite, speed == 0 || speed >= 0.01 else {
            throw UsageError("--speed takes 0 (no pauses) or a finite number from 0.01 on, not '\(text)'")
        }
        return speed
    }
}

/// Where replayed snapshots go: drawn live, or printed as final JSON. (A
/// struct of optionals, not an enum, so each is changed in place and its
/// output buffer is never copied.)
struct ReplayDisplay {
    var live: LiveReplay?
    var printer: FinalJSONPrinter?

    mutating func show(_ snapshot: MessageSnapshot, forced: Bool = false) {
        live?.show(snapshot)
        printer?.show(snapshot, forced: forced)
    }

    /// Prints the finished messages not printed yet (`--final-json`; the
    /// live view draws them from its snapshots).
    mutating func showCompleted(_ messages: [MessageSnapshot]) {
        printer?.showCompleted(messages)
    }

    mutating func flush() {
        live?.renderer.out.flush()
        printer?.out.flush()
    }

    /// Ends the output (`last`: the accumulator's last snapshot); returns 1
    /// when a tool input was not JSON, else 0.
    mutating func end(note: String?, last: MessageSnapshot?) -> Int32 {
        live?.end(note: note, last: last) ?? printer?.end() ?? ExitCodes.success
    }
}
