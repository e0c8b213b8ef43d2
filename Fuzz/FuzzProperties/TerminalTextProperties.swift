// Fuzz property for the terminal sanitizer (`TerminalText`, ClaudeStreaming).
//
// Input layout: byte 0 bit 1 picks JSON lines (`sanitized(jsonLines:)`),
// else bit 0 the layout (0: `.singleLine`, 1: `.lines`); the rest is the
// text, any bytes (not necessarily UTF-8).
//
// Checked for every input:
// - the output is valid UTF-8;
// - no output scalar is a C0 control (but line feed and tab in `.lines`),
//   DEL or a C1 control: nothing in it can start a terminal sequence;
// - sanitizing the output again changes nothing (an escape is printable);
// - valid UTF-8 without controls comes back byte for byte (nothing else is
//   touched), and the bytes API and the String API agree on valid UTF-8;
// - JSON lines: no control but line feed; a text that is one JSON value
//   gives one that parses to the same value.

import IncrementalJSON

// The root package has the command line's CommandLineDisplay module; the
// fuzz package compiles this file and those sources into one module
// (Fuzz/terminal-text), where there is nothing to import.
#if canImport(CommandLineDisplay)
import CommandLineDisplay
#endif

public enum TerminalTextFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        guard let selector = input.first else { return nil }
        if selector & 2 == 2 { return checkJSONLines(Array(input.dropFirst())) }
        let layout: TerminalText.Layout = selector & 1 == 0 ? .singleLine : .lines
        let text = Array(input.dropFirst())
        let output = text.withUnsafeBufferPointer { TerminalText.sanitized(utf8: $0, layout: layout) } ?? text
        if let problem = unsafeScalar(in: output, layout: layout) { return "output \(problem)" }
        let again = output.withUnsafeBufferPointer { TerminalText.sanitized(utf8: $0, layout: layout) }
        if let again, again != output { return "sanitizing twice changed the output" }
        let decoded = String(decoding: text, as: UTF8.self)
        let isValidUTF8 = Array(decoded.utf8) == text
        if isValidUTF8 {
            let viaString = Array(TerminalText.sanitized(decoded, layout: layout).utf8)
            if viaString != output { return "the String and bytes APIs disagree" }
            let hasControl = decoded.unicodeScalars.contains {
                TerminalText.isControl($0) && !(layout == .lines && ($0 == "\n" || $0 == "\t"))
            }
            if !hasControl && output != text { return "a safe text was changed" }
        }
        return nil
    }

    static func checkJSONLines(_ text: [UInt8]) -> String? {
        let output = text.withUnsafeBufferPointer { TerminalText.sanitized(jsonLines: $0) } ?? text
        if let problem = unsafeScalar(in: output, layout: .lines) { return "JSON output \(problem)" }
        if output.contains(0x09) { return "JSON output holds a tab" }
        let again = output.withUnsafeBufferPointer { TerminalText.sanitized(jsonLines: $0) }
        if let again, again != output { return "sanitizing JSON twice changed it" }
        if let value = try? JSONValue.parse(text) {
            guard let escaped = try? JSONValue.parse(output) else { return "valid JSON became invalid" }
            if escaped.compactJSON != value.compactJSON { return "the JSON value changed" }
        }
        return nil
    }

    /// Why `bytes` could reach a terminal as a control: not UTF-8, or the
    /// first control scalar it holds; nil when it is safe.
    package static func unsafeScalar(in bytes: [UInt8], layout: TerminalText.Layout) -> String? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let kept = layout == .lines && (scalar == "\n" || scalar == "\t")
                if TerminalText.isControl(scalar) && !kept {
                    return "holds control U+\(String(scalar.value, radix: 16, uppercase: true))"
                }
            case .emptyInput:
                return nil
            case .error:
                return "is not UTF-8"
            }
        }
    }
}
