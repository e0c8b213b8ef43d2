// Prefix consistency: at every byte of every valid document, the partial
// value is extended by the next one and by the final value (complete nodes
// equal the final node at the same path, strings only grow, keys keep their
// order). Run over JSONTestSuite's y_ files and over every streamed tool
// input / structured output in the recorded Messages API streams.

import Foundation
import IncrementalJSON
import Testing

@Suite struct PrefixConsistencyTests {
    /// Checks every byte-prefix snapshot of `bytes` against the next and the final value.
    static func checkPrefixes(_ bytes: [UInt8], name: String, options: JSONParserOptions = .init()) {
        guard case .success(let final) = parseWhole(bytes, options: options) else {
            Issue.record("\(name) does not parse")
            return
        }
        let (snapshots, error) = snapshotsPerByte(bytes, options: options)
        #expect(error == nil, "\(name)")
        var previous: JSONValue? = nil
        for (length, snapshot) in snapshots.enumerated() {
            guard let snapshot else {
                #expect(previous == nil, "\(name): value vanished at prefix \(length + 1)")
                continue
            }
            if let previous, let problem = previous.divergence(toward: snapshot) {
                Issue.record("\(name) prefix \(length + 1): \(problem)")
                return
            }
            if let problem = snapshot.divergence(toward: final) {
                Issue.record("\(name) prefix \(length + 1) vs final: \(problem)")
                return
            }
            previous = snapshot
        }
    }

    @Test(.enabled(if: JSONTestSuiteTests.available)) func everyPrefixOfEveryYFile() {
        for url in JSONTestSuiteTests.files("y_") {
            Self.checkPrefixes(Corpus.bytes(url), name: url.lastPathComponent)
            Self.checkPrefixes(Corpus.bytes(url), name: url.lastPathComponent + " (hidden)", options: .init(partialStrings: .hidden))
        }
    }

    static let recordings = Corpus.files("anthropic-sse", suffix: ".sse")

    @Test(.enabled(if: !recordings.isEmpty)) func everyPrefixOfEveryRecordedToolInput() {
        var blocks = 0
        var valid = 0
        for url in Self.recordings {
            for block in streamedJSON(in: url) where block.kind == "tool_input" {
                blocks += 1
                let bytes = Array(block.joined.utf8)
                // The API's own tool input may be empty (no arguments) or, with
                // eager streaming, even invalid; those only get the split checks.
                switch parseWhole(bytes) {
                case .success:
                    valid += 1
                    Self.checkPrefixes(bytes, name: "\(block.file)#\(block.index)")
                case .failure(let error):
                    // Only an empty input (a tool called without arguments), a
                    // recording cut short, or vercel's "empty first delta" case
                    // (its deltas leave out the opening brace on purpose) may fail.
                    let known = error.reason == .unexpectedEnd || block.file.contains("empty-first-delta")
                    #expect(known, "\(block.file)#\(block.index): \(error)")
                }
                Self.checkDeltas(block)
            }
        }
        #expect(blocks >= 100)
        #expect(valid >= 93)
    }

    /// Feeding the recorded deltas as chunks gives the unsplit result, and
    /// the snapshot after each delta extends the previous one.
    static func checkDeltas(_ block: StreamedJSON) {
        var parser = IncrementalJSONParser()
        var previous: JSONValue? = nil
        for delta in block.deltas {
            do throws(JSONParseError) { try parser.feed(delta) } catch { break }
            if let snapshot = parser.value {
                if let previous, let problem = previous.divergence(toward: snapshot) {
                    Issue.record("\(block.file)#\(block.index): \(problem)")
                }
                previous = snapshot
            }
        }
        let chunked = Result { () throws(JSONParseError) in try parser.finish() }
        #expect("\(chunked)" == "\(parseWhole(Array(block.joined.utf8)))", "\(block.file)#\(block.index)")
    }

    @Test(.enabled(if: !recordings.isEmpty)) func everyPrefixOfEveryRecordedStructuredOutput() {
        var checked = 0
        for url in Self.recordings
        where url.lastPathComponent.contains("json") || url.lastPathComponent.contains("schema") || url.lastPathComponent.contains("object") {
            for block in streamedJSON(in: url, includeText: true) where block.kind == "text" {
                let bytes = Array(block.joined.utf8)
                guard case .success(let value) = parseWhole(bytes), value.objectValue != nil else { continue }
                checked += 1
                Self.checkPrefixes(bytes, name: "\(block.file)#\(block.index)")
            }
        }
        #expect(checked >= 3)
    }
}
