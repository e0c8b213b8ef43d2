// `claude-stream json [FILE] [--prefixes]`: validate and print one JSON text.
//
// The input is parsed as it is read, so an endless or huge input stops at
// the parser's limits (`--max-bytes`, `--max-depth`, and the library's 1 GiB
// document cap) with `offset N: reason`, never by exhausting memory first.
//
// Without --prefixes: exit 0 and the compact value, or exit 1 and
// `offset N: reason` on stderr.
// With --prefixes: line k (k = 1...n) is the partial value after the first k
// bytes, as compact JSON with open nodes closed, or an empty line while
// nothing is visible yet (e.g. a number still growing). The last line is the
// value after end of input (so a top-level number shows there). The first
// invalid prefix stops the output with exit 1 and the error on stderr.

import IncrementalJSON

enum JSONCommand {
    static let usage = """
        usage: claude-stream json [FILE | -] [--prefixes] [--max-bytes BYTES] [--max-depth N]
          Validates one JSON text read from FILE or stdin as it arrives and prints it compact.
          --prefixes             one line per byte prefix: the partial value (empty line: nothing visible yet)
          --max-bytes BYTES      refuse input longer than BYTES (default: the parser's 1 GiB document cap)
          --max-depth N          deepest nesting (default 512)
          -h, --help             this text
        """ + "\n" + ExitCodes.text

    struct Options {
        var path: String?
        var prefixes = false
        var parser = JSONParserOptions()
    }

    static func run(_ arguments: [String]) -> Int32 {
        let started = CommandStart.prepare("json", usage: usage, arguments, parse: parse) { (options) throws(InputError) in
            try StreamInput.open(options.path)
        }
        guard case .success(let (options, opened)) = started else { return started.exitStatus }
        var input = opened
        var parser = IncrementalJSONParser(options: options.parser)
        var writer = OutputWriter(fileDescriptor: 1, jsonLinesForTerminal: true)
        var failure: JSONParseError?
        // --prefixes: the line of the latest prefix waits until the next
        // byte shows it was not the last one (the last line is `finish()`'s).
        var pending: [UInt8]?
        do throws(InputError) {
            try input.readPieces { piece in
                do throws(JSONParseError) {
                    if options.prefixes {
                        for offset in piece.indices {
                            if let line = pending { writer.write(bytes: line) }
                            try parser.feed(UnsafeRawBufferPointer(rebasing: piece[offset..<(offset + 1)]))
                            var line: [UInt8] = []
                            parser.value?.encodeCompact(into: &line)
                            line.append(0x0A)
                            pending = line
                        }
                        writer.flush()
                    } else {
                        try parser.feed(piece)
                    }
                } catch {
                    failure = error
                    return false
                }
                return true
            }
        } catch {
            writer.flush()
            CLIOutput.standardError("json: \(error.message)")
            return error.exitCode
        }
        if let failure {
            writer.flush()
            CLIOutput.standardError(failure.description)
            return ExitCodes.streamError
        }
        if input.byteCount == 0 {
            CLIOutput.standardError("json: \(input.name): empty input")
            return ExitCodes.emptyInput
        }
        do throws(JSONParseError) {
            let value = try parser.finish()
            var line: [UInt8] = []
            value.encodeCompact(into: &line)
            line.append(0x0A)
            writer.write(bytes: line)
            writer.flush()
            return 0
        } catch {
            writer.flush()
            CLIOutput.standardError(error.description)
            return ExitCodes.streamError
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var list = ArgumentList(arguments)
        while let flag = try list.nextFlag() {
            switch flag {
            case "--prefixes": options.prefixes = true
            case "--max-bytes": options.parser.maxBytes = try list.count(of: flag)
            case "--max-depth": options.parser.maxDepth = try list.count(of: flag)
            default: throw list.unknown(flag)
            }
        }
        options.path = list.input == "-" ? nil : list.input
        return options
    }
}
