// Comparison with ../shared/corpus/partial-json, the hand-transcribed
// expectations of published partial-JSON parsers. jiter's `trailing-strings`
// mode is our `.visible` policy and its `on` mode our `.hidden` policy; every
// jiter case must agree. Other libraries use other policies (completing
// `tru` to `true`, showing `12.` as `12`, dropping open strings), listed in
// the corpus's SOURCE.md; for them only the invariants are checked: no
// trap, and never a value that contradicts the complete text.

import Foundation
import IncrementalJSON
import Testing

@Suite struct PartialJSONCorpusTests {
    static let available = Corpus.exists("partial-json/cases.jsonl")

    struct Case {
        var input: [UInt8]
        var expected: JSONValue?
        var expectsError: Bool
        var policy: String
        var mode: String?
    }

    static func cases() -> [Case] {
        let url = Corpus.directory("partial-json/cases.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let record = try? JSONValue.parse(String(line)) else { return nil }
            var input: [UInt8]
            if let string = record["input"]?.stringValue {
                input = Array(string.utf8)
            } else if let hex = record["input_hex"]?.stringValue {
                input = stride(from: 0, to: hex.utf8.count, by: 2).compactMap {
                    let start = hex.index(hex.startIndex, offsetBy: $0)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                }
            } else {
                return nil
            }
            return Case(
                input: input, expected: record["expected"], expectsError: record["expected_error"] != nil,
                policy: record["policy"]?.stringValue ?? "", mode: record["options"]?["partial_mode"]?.stringValue)
        }
    }

    /// The partial value of `input` (no end of input), or the error.
    static func partial(_ input: [UInt8], _ policy: PartialStringPolicy) -> Result<JSONValue?, JSONParseError> {
        var parser = IncrementalJSONParser(options: .init(partialStrings: policy))
        do throws(JSONParseError) {
            try parser.feed(input)
            return .success(parser.value)
        } catch {
            return .failure(error)
        }
    }

    @Test(.enabled(if: available)) func agreesWithEveryJiterCase() {
        var compared = 0
        for item in Self.cases() where item.policy.hasPrefix("jiter") {
            guard let mode = item.mode, mode.hasPrefix("trailing-strings") || mode == "on" else { continue }
            compared += 1
            let outcome = Self.partial(item.input, mode == "on" ? .hidden : .visible)
            let input = String(decoding: item.input, as: UTF8.self)
            if item.expectsError {
                if case .success(let value) = outcome { Issue.record("\(input.debugDescription): expected an error, got \(value?.compactJSON ?? "nothing")") }
                continue
            }
            guard case .success(let value) = outcome, let expected = item.expected else {
                Issue.record("\(input.debugDescription): \(outcome)")
                continue
            }
            #expect(value?.compactJSON == expected.compactJSON, "\(input.debugDescription)")
        }
        #expect(compared == 22)
    }

    /// For every other library's case: no trap, and the partial value never
    /// contradicts a completion of the input (checked where the input parses
    /// once closed by the library's own `expected_text`, when that text
    /// extends the input).
    @Test(.enabled(if: available)) func otherPoliciesNeverContradictTheText() {
        var checked = 0
        for item in Self.cases() where !item.policy.hasPrefix("jiter") {
            guard case .success(let value?) = Self.partial(item.input, .visible) else { continue }
            // Whatever we show must itself be valid JSON once closed.
            #expect((try? JSONValue.parse(value.compactJSON)) != nil)
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test(.enabled(if: available)) func jiterPrefixFixturesParseToTheirContainer() throws {
        for (file, isArray) in [("jiter-pass1.json", true), ("jiter-medium_response.json", false)] {
            let bytes = Corpus.bytes(Corpus.directory("partial-json/prefix-fixtures/" + file))
            try #require(!bytes.isEmpty)
            let (snapshots, error) = snapshotsPerByte(bytes)
            #expect(error == nil)
            // Every proper prefix from the first bracket on shows the container.
            for (length, snapshot) in snapshots.enumerated().dropLast() where length >= 0 {
                let kindMatches = isArray ? snapshot?.arrayValue != nil : snapshot?.objectValue != nil
                if !kindMatches {
                    Issue.record("\(file) prefix \(length + 1)")
                    break
                }
            }
            PrefixConsistencyTests.checkPrefixes(bytes, name: file)
        }
    }
}
