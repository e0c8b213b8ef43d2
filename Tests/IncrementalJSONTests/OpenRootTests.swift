// `IncrementalJSONParser.openRoot`, the partial value that a message
// snapshot keeps for a streaming tool input, must be the parser's `value`
// whenever that value is an open top-level array or object, and nil
// otherwise (the holder then reads `value` itself). Checked at every byte
// of documents of every shape, with partial strings shown and hidden.

import Foundation
import Testing

@testable import IncrementalJSON

@Suite struct OpenRootTests {
    static let documents = [
        #"{"records": [{"id": 7, "score": 4.5, "name": "the stream é ☔", "tags": ["a", "b"], "ok": true}]}"#,
        #"[1, "two", [3, {"four": null}], false, -0.5e3]"#,
        #"{"a": {"b": {"c": "deep \"quoted\" \u00e9 \ud83d\ude00"}}, "d": []}"#,
        #""a top-level string""#,
        "12345",
        "true",
        " { } ",
        "[]",
    ]

    /// Feeds `bytes` one at a time and checks the open root after each.
    static func check(_ bytes: [UInt8], partialStrings: PartialStringPolicy) {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        var parser = IncrementalJSONParser(options: JSONParserOptions(partialStrings: partialStrings))
        var openRoots = 0
        for (offset, byte) in bytes.enumerated() {
            do {
                try parser.feed([byte])
            } catch {
                Issue.record("\(text) does not parse at \(offset): \(error)")
                return
            }
            let value = parser.value
            let isOpenContainer = value.map { !$0.isComplete && ($0.arrayValue != nil || $0.objectValue != nil) } ?? false
            guard let root = parser.openRoot else {
                #expect(!isOpenContainer, "\(text) prefix \(offset + 1): no open root, but the value is an open container")
                continue
            }
            openRoots += 1
            #expect(isOpenContainer, "\(text) prefix \(offset + 1): an open root, but the value is not an open container")
            #expect(root.value == value, "\(text) prefix \(offset + 1): the open root differs from the value")
            #expect(root.value.isComplete == false)
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let opensContainer = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        #expect((openRoots > 0) == opensContainer, "\(text): \(openRoots) open roots")
        #expect(parser.openRoot == nil || !parser.isComplete)
    }

    @Test(arguments: [PartialStringPolicy.visible, .hidden])
    func openRootIsTheOpenValue(partialStrings: PartialStringPolicy) {
        for document in Self.documents { Self.check(Array(document.utf8), partialStrings: partialStrings) }
    }

    /// One root refreshed after every byte, as a holder that keeps only the
    /// latest does: its path is written over in place, both while the
    /// document's storages stay and when a growth replaced them, and it
    /// always reads as the parser's value.
    @Test func aRewrittenPathIsTheOpenValue() {
        var text = #"{"records": ["#
        for n in 0..<40 { text += (n == 0 ? "" : ", ") + #"{"id": \#(n), "name": "record number \#(n)", "tags": ["a", "b"]}"# }
        text += "]}"
        var parser = IncrementalJSONParser()
        var (root, spare): (OpenRoot?, OpenRoot?) = (nil, nil)
        // Told apart by identity without address reuse fooling it: a weak
        // reference to the last path is nil once that path was freed, and
        // every storages object seen is kept.
        var (rewrites, storages) = (0, [DocumentStorages]())
        for (offset, byte) in text.utf8.enumerated() {
            do {
                try parser.feed([byte])
            } catch {
                Issue.record("does not parse at \(offset): \(error)")
                return
            }
            weak let previous = root?.elementPath
            guard parser.refreshOpenRoot(&root, spare: &spare, streamedCount: offset + 1), let current = root else { continue }
            if let previous, previous === current.elementPath { rewrites += 1 }
            if let seen = current.elementPath.reader.storages, storages.last !== seen { storages.append(seen) }
            if current.value != parser.value {
                Issue.record("prefix \(offset + 1): the rewritten root differs from the value")
                return
            }
        }
        #expect(rewrites > text.utf8.count / 2, "paths are written over in place")
        #expect(storages.count > 3, "the storages were replaced as the document grew")
    }

    @Test(.enabled(if: JSONTestSuiteTests.available)) func openRootOnEveryYFile() {
        for url in JSONTestSuiteTests.files("y_") {
            Self.check(Corpus.bytes(url), partialStrings: .visible)
        }
    }
}
