// The terminal sanitizer: what each control becomes, what is left alone,
// and the terminal-text fuzz target's seeds and regressions replayed
// through its property (Fuzz/FuzzProperties/TerminalTextProperties.swift).

import CommandLineDisplay
import Foundation
import FuzzProperties
import IncrementalJSON
import Testing

@Suite struct TerminalTextTests {
    @Test func everyControlBecomesAVisibleEscape() {
        #expect(TerminalText.sanitized("\u{1B}[2J") == "\\u{1B}[2J")
        #expect(TerminalText.sanitized("\u{1B}]52;c;eA==\u{07}") == "\\u{1B}]52;c;eA==\\u{7}")
        #expect(TerminalText.sanitized("\u{9B}31m\u{9D}8;;x\u{9C}") == "\\u{9B}31m\\u{9D}8;;x\\u{9C}")
        #expect(TerminalText.sanitized("a\u{7F}b\u{0}c\rd") == "a\\u{7F}b\\u{0}c\\u{D}d")
    }

    @Test func lineFeedAndTabAreKeptOnlyInRunningText() {
        #expect(TerminalText.sanitized("a\nb\tc") == "a\\u{A}b\\u{9}c")
        #expect(TerminalText.sanitized("a\nb\tc", layout: .lines) == "a\nb\tc")
        #expect(TerminalText.sanitized("a\r\nb", layout: .lines) == "a\\u{D}\nb")
    }

    @Test func safeTextIsUntouched() {
        for text in ["", "plain ASCII", "héllo 日本語 👍🏽 e\u{301}", "\u{A0}\u{A1}\u{2028}", "\\u{1B} literally"] {
            #expect(TerminalText.sanitized(text) == text)
            let bytes = Array(text.utf8)
            let changed = bytes.withUnsafeBufferPointer { TerminalText.sanitized(utf8: $0, layout: .lines) }
            #expect(changed == nil || changed == bytes, "\(text)")
        }
    }

    @Test func bytesThatAreNotUTF8BecomeReplacementCharacters() {
        let bytes: [UInt8] = [0x61, 0x9B, 0x32, 0x4A, 0xC2]
        let output = bytes.withUnsafeBufferPointer { TerminalText.sanitized(utf8: $0, layout: .lines) }
        #expect(output.map { String(decoding: $0, as: UTF8.self) } == "a\u{FFFD}2J\u{FFFD}")
    }

    @Test func jsonLinesKeepTheirValue() throws {
        let json = Array(#"{"a":"\#u{9B}2J","b":"x\#u{7F}","c":"\u001b"}"#.utf8) + [0x0A]
        let escaped = try #require(json.withUnsafeBufferPointer { TerminalText.sanitized(jsonLines: $0) })
        #expect(String(decoding: escaped, as: UTF8.self) == #"{"a":"\u009b2J","b":"x\u007f","c":"\u001b"}"# + "\n")
        #expect(try JSONValue.parse(escaped).compactJSON == (try JSONValue.parse(json)).compactJSON)
        let plain = Array(#"{"a":"héllo"}"#.utf8)
        let unchanged = plain.withUnsafeBufferPointer { TerminalText.sanitized(jsonLines: $0) }
        #expect(unchanged == nil || unchanged == plain, "text without controls is kept")
    }

}

/// The terminal-text fuzz target's seeds and regressions (the name is what
/// `swift test --filter FuzzRegression` finds).
@Suite struct TerminalTextFuzzRegressionTests {
    @Test func fuzzCorpusIsPresent() {
        #expect(FuzzCorpus.seeds("terminal-text").count >= 10)
    }

    @Test(arguments: FuzzCorpus.inputs("terminal-text"))
    func fuzzPropertyHolds(input: String) throws {
        let failure = try FuzzCorpus.failure("terminal-text", input, of: TerminalTextFuzzProperty.check)
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    /// Every single byte and every two-byte sequence in the text layouts;
    /// for JSON lines every byte after each byte that starts a token or a
    /// control: the exhaustive part of what the fuzzer explores at random.
    @Test func propertyHoldsForEveryInputOfUpToTwoBytes() {
        var failures: [String] = []
        func check(_ bytes: [UInt8]) {
            if let failure = bytes.withUnsafeBytes(TerminalTextFuzzProperty.check) { failures.append("\(bytes): \(failure)") }
        }
        for selector: UInt8 in [0, 1] {
            for first in 0...255 {
                check([selector, UInt8(first)])
                for second in 0...255 { check([selector, UInt8(first), UInt8(second)]) }
            }
        }
        let starts: [UInt8] = [0x09, 0x0A, 0x0D, 0x1B, 0x20, 0x22, 0x30, 0x5B, 0x5C, 0x7B, 0x7F, 0x9B, 0xC2]
        for first in 0...255 {
            check([2, UInt8(first)])
            if starts.contains(UInt8(first)) {
                for second in 0...255 { check([2, UInt8(first), UInt8(second)]) }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
