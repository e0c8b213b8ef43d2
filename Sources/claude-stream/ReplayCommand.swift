// `claude-stream replay [FILE]`: a recorded stream, rendered as it builds up.
//
// Without FILE it plays the bundled DemoRecording. `--final-json` prints one
// line per message instead: the final message as API JSON. Exit codes:
// 0 every message completed, 3 the stream ended before `message_stop` (its
// snapshot is still printed), 1 a protocol or format error (`event N,
// offset M: reason` on stderr; messages completed before it are printed).

import ClaudeStreaming
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ReplayCommand {
    static let usage = """
        usage: claude-stream replay [FILE] [--final-json] [--chunk N | --chunks A,B,… | --random-chunks SEED]
                                    [--speed X] [--sequential | --single]
        """

    struct Options {
        var path: String?
        var finalJSON = false
        var plan = ChunkPlan.whole
        var speed: Double?
        var allowsSequential = true
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do throws(UsageError) {
            options = try parse(arguments)
        } catch {
            CLIOutput.standardError("replay: \(error.message)\n" + usage)
            return 64
        }
        let bytes: [UInt8]
        if let path = options.path {
            do throws(InputError) { bytes = try InputFile.read(path) } catch {
                CLIOutput.standardError("replay: \(error.message)")
                return 66
            }
        } else {
            bytes = DemoRecording.bytes
        }
        return options.finalJSON ? printFinalJSON(bytes, options) : renderLive(bytes, options)
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if let plan = try ChunkPlan.parse(arguments, at: &index) {
                options.plan = plan
            } else {
                switch argument {
                case "--final-json": options.finalJSON = true
                case "--sequential": options.allowsSequential = true
                case "--single": options.allowsSequential = false
                case "--speed":
                    index += 1
                    guard index < arguments.count, let speed = Double(arguments[index]), speed >= 0 else {
                        throw UsageError("--speed takes a non-negative number (0: no pauses)")
                    }
                    options.speed = speed
                default:
                    guard !argument.hasPrefix("-") || argument == "-", options.path == nil else {
                        throw UsageError("unexpected argument '\(argument)'")
                    }
                    // Without FILE replay plays the bundled recording, so
                    // standard input is asked for by name.
                    options.path = argument == "-" ? "/dev/stdin" : argument
                }
            }
            index += 1
        }
        return options
    }

    /// Feeds the bytes through an accumulator, calling `onSnapshot` after
    /// each change; returns the messages and the error that stopped it.
    static func accumulate(
        _ bytes: [UInt8], _ options: Options, onSnapshot: (MessageSnapshot) -> Void
    ) -> (completed: [MessageSnapshot], last: MessageSnapshot?, error: MessageStreamError?) {
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(
            allowsSequentialMessages: options.allowsSequential))
        do throws(MessageStreamError) {
            let failure: MessageStreamError? = bytes.withUnsafeBytes { raw in
                do throws(MessageStreamError) {
                    try options.plan.forEachChunk(of: raw) { (chunk) throws(MessageStreamError) in
                        try accumulator.feed(chunk, onSnapshot: onSnapshot)
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            let last = try accumulator.finish()
            return (accumulator.completedMessages, last, nil)
        } catch {
            return (error.completedMessages, error.snapshot, error)
        }
    }

    static func printFinalJSON(_ bytes: [UInt8], _ options: Options) -> Int32 {
        let result = accumulate(bytes, options) { _ in }
        var out = OutputWriter(fileDescriptor: 1)
        for message in result.completed {
            out.write(message.messageJSON().compactJSON + "\n")
        }
        var status: Int32 = 0
        if let error = result.error {
            if case .incomplete = error.kind {
                if let last = result.last { out.write(last.messageJSON().compactJSON + "\n") }
                status = 3
            } else {
                status = 1
            }
            out.flush()
            CLIOutput.standardError(error.description)
        }
        out.flush()
        return status
    }

    static func renderLive(_ bytes: [UInt8], _ options: Options) -> Int32 {
        let terminal = isatty(1) == 1
        let speed = options.speed ?? (terminal ? 1 : 0)
        var renderer = SnapshotRenderer(isTerminal: terminal)
        var rendered = -1
        let result = accumulate(bytes, options) { snapshot in
            if snapshot.messageIndex != rendered {
                if rendered >= 0 { renderer.out.write("\n") }
                rendered = snapshot.messageIndex
                renderer.out.write("[\(snapshot.id) · \(snapshot.requestedModel)]\n")
            }
            renderer.render(snapshot)
            if speed > 0 { usleep(UInt32(25_000 / speed)) }
            if snapshot.isComplete { renderer.finish(snapshot) }
        }
        guard let error = result.error else { return 0 }
        if case .incomplete = error.kind {
            if let last = result.last { renderer.finish(last, note: "stream ended before message_stop") }
            return 3
        }
        CLIOutput.standardError(error.description)
        return 1
    }
}
