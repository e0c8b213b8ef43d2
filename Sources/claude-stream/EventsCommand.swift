// `claude-stream events [FILE]`: one JSON line per dispatched server-sent
// event, `{"event":…,"data":…,"id":…,"retry":…}`, so the framing can be
// checked from outside under any chunking.
//
// `event` is null when the block had no (or an empty) event field, `id` is
// the last event ID at dispatch ("" when none), `retry` the block's last
// valid retry or null. Strings are escaped here, on bytes; invalid UTF-8 in
// a value becomes U+FFFD (as the event-stream spec decodes it).
// Exit codes: 0 ok, 1 a limit was hit (`offset N: reason` on stderr, events
// before it printed), the input codes of ``ExitCodes`` otherwise.

import ServerSentEvents

enum EventsCommand {
    static let usage = """
        usage: claude-stream events [FILE | -] [options]
          One JSON line per dispatched server-sent event, read from FILE or stdin as it arrives.
          --chunk N              feed the bytes in N-byte chunks
          --chunks A,B,…         feed chunks of those sizes, then the rest as it is read
          --random-chunks SEED   feed chunks of random sizes 1...64 (SplitMix64, SEED 0...2^64-1)
          --count                print only `EVENTS events BYTES bytes`
          --max-line BYTES       longest line (default 16 MiB)
          --max-event BYTES      largest event (default 64 MiB)
          -h, --help             this text
        """ + "\n" + ExitCodes.text

    struct Options {
        var path: String?
        var plan = ChunkPlan.whole
        var countOnly = false
        var limits = SSELimits()
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do throws(UsageError) {
            options = try parse(arguments)
        } catch {
            CLIOutput.standardError("events: \(error.message)\n" + usage)
            return ExitCodes.usage
        }
        var input: StreamInput
        do throws(InputError) { input = try StreamInput.open(options.path) } catch {
            CLIOutput.standardError("events: \(error.message)")
            return error.exitCode
        }
        var parser = SSEParser(limits: options.limits)
        var splitter = ChunkSplitter(options.plan)
        var writer = OutputWriter(fileDescriptor: 1)
        var line: [UInt8] = []
        var events = 0
        var failure: SSEError?
        do throws(InputError) {
            try input.readPieces { piece in
                do throws(SSEError) {
                    try splitter.split(piece) { (chunk) throws(SSEError) in
                        try parser.feed(chunk) { event in
                            events += 1
                            guard !options.countOnly else { return }
                            line.removeAll(keepingCapacity: true)
                            appendJSONLine(event, to: &line)
                            writer.write(bytes: line)
                        }
                    }
                } catch {
                    failure = error
                    return false
                }
                // A live pipe sees each event as soon as its bytes arrived.
                writer.flush()
                return true
            }
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
        _ = parser.finish()
        if events == 0, let problem = input.problemWithoutEvents() {
            CLIOutput.standardError("events: \(problem.message)")
            return problem.exitCode
        }
        if options.countOnly { writer.write("\(events) events \(parser.bytesConsumed) bytes\n") }
        writer.flush()
        return 0
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var index = 0
        var named = false
        while index < arguments.count {
            let argument = arguments[index]
            if let plan = try ChunkPlan.parse(arguments, at: &index) {
                options.plan = plan
            } else {
                switch argument {
                case "--count": options.countOnly = true
                case "--max-line", "--max-event":
                    index += 1
                    guard index < arguments.count, let value = Int(arguments[index]), value >= 0 else {
                        let given = index < arguments.count ? "'\(arguments[index])'" : "nothing"
                        throw UsageError("\(argument) takes a byte count from 0 to \(Int.max), not \(given)")
                    }
                    if argument == "--max-line" { options.limits.maxLineBytes = value } else { options.limits.maxEventBytes = value }
                default:
                    guard !argument.hasPrefix("-") || argument == "-", !named else {
                        throw UsageError("unexpected argument '\(argument)'")
                    }
                    named = true
                    options.path = argument == "-" ? nil : argument
                }
            }
            index += 1
        }
        return options
    }

    /// `{"event":…,"data":…,"id":…,"retry":…}` and a newline.
    static func appendJSONLine(_ event: borrowing SSEEventView, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"event":"#.utf8)
        if let type = event.eventType { JSONStringBytes.append(type, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","data":"#.utf8)
        JSONStringBytes.append(event.data, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        JSONStringBytes.append(event.lastEventID, to: &out)
        out.append(contentsOf: #","retry":"#.utf8)
        if let retry = event.retry { out.append(contentsOf: String(retry).utf8) } else { out.append(contentsOf: "null".utf8) }
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
