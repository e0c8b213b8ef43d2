// `claude-stream events [FILE]`: one JSON line per dispatched server-sent
// event, `{"event":…,"data":…,"id":…,"retry":…}`, so the framing can be
// checked from outside under any chunking. Bedrock's AWS event stream
// (`--framing aws-eventstream`, or detected) prints the same lines for the
// events its chunks carry (EventsCommand+EventStream.swift).
//
// `event` is null when the block had no (or an empty) event field, `id` is
// the last event ID at dispatch ("" when none), `retry` the block's last
// valid retry or null. Strings are escaped here, on bytes; invalid UTF-8 in
// a value becomes U+FFFD (as the event-stream spec decodes it).
// Exit codes: 0 ok, 1 a limit was hit or a frame is corrupt (`offset N:
// reason` on stderr, events before it printed), the input codes of
// ``ExitCodes`` otherwise.

import AWSEventStream
import ClaudeStreaming
import ServerSentEvents

enum EventsCommand {
    static let usage = """
        usage: claude-stream events [FILE | -] [options]
          One JSON line per dispatched server-sent event, read from FILE or stdin as it arrives.
          Amazon Bedrock's AWS event stream: each chunk's event as the same line as over SSE
          ({"event":TYPE,"data":"<event JSON>","id":"","retry":null}); any other message as
          {"headers":{":message-type":…,…},"payload":"<text>"}.
          --framing F            sse, aws-eventstream or auto (the default: judged from the first
                                 12 bytes; a shorter input is sse)
          --chunk N              feed the bytes in N-byte chunks
          --chunks A,B,…         feed chunks of those sizes, then the rest as it is read
          --random-chunks SEED   feed chunks of random sizes 1...64 (SplitMix64, SEED 0...2^64-1)
          --count                print only `EVENTS events BYTES bytes`
          --max-line BYTES       longest line (default 16 MiB; sse)
          --max-event BYTES      largest event (default 64 MiB; sse)
          -h, --help             this text
        """ + "\n" + ExitCodes.text

    struct Options {
        var path: String?
        var plan = ChunkPlan.whole
        var countOnly = false
        var limits = SSELimits()
        /// Nil: detected from the first bytes.
        var framing: EventFraming?
    }

    static func run(_ arguments: [String]) -> Int32 {
        let started = CommandStart.prepare("events", usage: usage, arguments, parse: parse) { (options) throws(InputError) in
            try StreamInput.open(options.path)
        }
        guard case .success(let (options, opened)) = started else { return started.exitStatus }
        var input = opened
        var parser = SSEParser(limits: options.limits)
        // Set when the framing turns out to be Bedrock's.
        var eventStream: (parser: AWSEventStreamParser, lines: EventStreamLines)?
        var writer = OutputWriter(fileDescriptor: 1, jsonLinesForTerminal: true)
        var line: [UInt8] = []
        var events = 0
        var failure: EventsFailure?
        do throws(InputError) {
            failure = try input.feedChunks(
                plan: options.plan, framing: options.framing,
                start: { framing in
                    if framing == .awsEventStream { eventStream = (AWSEventStreamParser(), EventStreamLines()) }
                },
                to: { (chunk) throws(EventsFailure) in
                    if eventStream != nil {
                        try feedEventStream(chunk, into: &eventStream, events: &events, countOnly: options.countOnly) { line in
                            writer.write(bytes: line)
                        }
                        return
                    }
                    do throws(SSEError) {
                        try parser.feed(chunk) { event in
                            events += 1
                            guard !options.countOnly else { return }
                            line.removeAll(keepingCapacity: true)
                            appendJSONLine(event, to: &line)
                            writer.write(bytes: line)
                        }
                    } catch {
                        throw EventsFailure(description: error.description)
                    }
                }, afterPiece: { writer.flush() })  // a live pipe sees each event as soon as its bytes arrived
        } catch {
            writer.flush()
            CLIOutput.standardError("events: \(error.message)")
            return error.exitCode
        }
        writer.flush()
        if let failure {
            CLIOutput.standardError(failure.description)
            return ExitCodes.streamError
        }
        if let truncated = eventStream?.parser.finish() {
            CLIOutput.standardError(truncated.description)
            return ExitCodes.streamError
        }
        _ = parser.finish()
        if events == 0, let problem = input.problemWithoutEvents() {
            CLIOutput.standardError("events: \(problem.message)")
            return problem.exitCode
        }
        let bytes = eventStream?.parser.bytesConsumed ?? parser.bytesConsumed
        if options.countOnly { writer.write("\(events) events \(bytes) bytes\n") }
        writer.flush()
        return 0
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
            case "--count": options.countOnly = true
            case "--max-line": options.limits.maxLineBytes = try list.count(of: flag)
            case "--max-event": options.limits.maxEventBytes = try list.count(of: flag)
            case "--framing": options.framing = try FramingChoice.parse(try list.value(of: flag))
            default: throw list.unknown(flag)
            }
        }
        options.path = list.input == "-" ? nil : list.input
        return options
    }

    /// One event-stream chunk: each message's line (or just its count).
    private static func feedEventStream(
        _ chunk: UnsafeRawBufferPointer, into state: inout (parser: AWSEventStreamParser, lines: EventStreamLines)?,
        events: inout Int, countOnly: Bool, write: ([UInt8]) -> Void
    ) throws(EventsFailure) {
        guard var (parser, lines) = state else { return }
        defer { state = (parser, lines) }
        var line: [UInt8] = []
        var failure: EventsFailure?
        do throws(AWSEventStreamError) {
            try parser.feed(chunk) { message in
                guard failure == nil else { return }
                line.removeAll(keepingCapacity: true)
                do throws(EventsFailure) { try lines.append(message, to: &line) } catch {
                    failure = error
                    return
                }
                events += 1
                if !countOnly { write(line) }
            }
        } catch {
            throw EventsFailure(description: error.description)
        }
        if let failure { throw failure }
    }

    /// `{"event":…,"data":…,"id":…,"retry":…}` and a newline.
    static func appendJSONLine(_ event: borrowing SSEEventView, to out: inout [UInt8]) {
        appendJSONLine(type: event.eventType, data: event.data, id: event.lastEventID, retry: event.retry, to: &out)
    }

    /// The same line from its parts (an event from either framing).
    static func appendJSONLine(
        type: UnsafeRawBufferPointer?, data: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer, retry: Int?, to out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"event":"#.utf8)
        if let type { JSONStringBytes.append(type, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","data":"#.utf8)
        JSONStringBytes.append(data, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        JSONStringBytes.append(id, to: &out)
        out.append(contentsOf: #","retry":"#.utf8)
        if let retry { out.append(contentsOf: String(retry).utf8) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: "}\n".utf8)
    }
}

// MARK: - JSON string escaping

// A JSON string literal written straight from bytes: quotes, backslash and
// control characters escaped, valid UTF-8 copied as is, each maximal invalid
// subsequence replaced by U+FFFD (the same repair `String(decoding:)` does,
// so the output matches `ServerSentEvent.dataString`).

enum JSONStringBytes {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `bytes` as a quoted JSON string.
    /// - Complexity: O(bytes.count).
    static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if bytes.allSatisfy({ $0 < 0x80 }) {
            for byte in bytes { appendASCII(byte, to: &out) }
        } else {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if scalar.isASCII {
                        appendASCII(UInt8(scalar.value), to: &out)
                    } else {
                        out.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar([0xEF, 0xBF, 0xBD]))
                    }
                case .error:
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                case .emptyInput:
                    break decoding
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func appendASCII(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0..<0x20:
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        default:
            out.append(byte)
        }
    }
}
