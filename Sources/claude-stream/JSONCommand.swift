// `claude-stream json [FILE] [--prefixes]`: validate and print one JSON text.
//
// Without --prefixes: exit 0 and the compact value, or exit 1 and
// `offset N: reason` on stderr.
// With --prefixes: line k (k = 1...n) is the partial value after the first k
// bytes, as compact JSON with open nodes closed, or an empty line while
// nothing is visible yet (e.g. a number still growing). The last line is the
// value after end of input (so a top-level number shows there). The first
// invalid prefix stops the output with exit 1 and the error on stderr.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import IncrementalJSON

enum JSONCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var prefixes = false
        var path: String? = nil
        for argument in arguments {
            switch argument {
            case "--prefixes": prefixes = true
            case "-h", "--help":
                CLIOutput.standardOutput("usage: claude-stream json [FILE] [--prefixes]")
                return 0
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    CLIOutput.standardError("claude-stream json: unknown option '\(argument)'")
                    return 64
                }
                path = argument == "-" ? nil : argument
            }
        }
        let input: [UInt8]
        do {
            if let path {
                input = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            } else {
                input = Array(FileHandle.standardInput.readDataToEndOfFile())
            }
        } catch {
            CLIOutput.standardError("claude-stream json: cannot read \(path ?? "stdin"): \(error.localizedDescription)")
            return 66
        }
        return prefixes ? printPrefixes(input) : printValue(input)
    }

    private static func printValue(_ input: [UInt8]) -> Int32 {
        do {
            let value = try JSONValue.parse(input)
            var out: [UInt8] = []
            value.encodeCompact(into: &out)
            out.append(0x0A)
            var writer = OutputWriter(fileDescriptor: 1)
            writer.write(bytes: out)
            writer.flush()
            return 0
        } catch {
            CLIOutput.standardError(error.description)
            return 1
        }
    }

    private static func printPrefixes(_ input: [UInt8]) -> Int32 {
        var writer = OutputWriter(fileDescriptor: 1)
        defer { writer.flush() }
        var parser = IncrementalJSONParser()
        var line: [UInt8] = []
        for index in input.indices {
            do {
                try parser.feed(input[index..<index + 1].withUnsafeBytes { Array($0) })
                line.removeAll(keepingCapacity: true)
                let shown: JSONValue?
                if index == input.count - 1 {
                    shown = try parser.finish()
                } else {
                    shown = parser.value
                }
                shown?.encodeCompact(into: &line)
                line.append(0x0A)
                writer.write(bytes: line)
            } catch {
                writer.flush()
                CLIOutput.standardError(error.description)
                return 1
            }
        }
        if input.isEmpty {
            CLIOutput.standardError(JSONParseError(offset: 0, reason: .unexpectedEnd).description)
            return 1
        }
        return 0
    }
}
