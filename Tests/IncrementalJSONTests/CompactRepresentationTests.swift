// Inline forms: short text and number text live in the value itself, and
// must behave exactly like the shared/String forms at and across the limits.

import Testing

@testable import IncrementalJSON

@Suite struct CompactRepresentationTests {
    /// Text grows inline up to 15 bytes, then moves to shared storage once;
    /// every prefix snapshot keeps its own content either way.
    @Test func textCrossesTheInlineLimit() {
        var text = AppendOnlyText()
        var snapshots: [AppendOnlyText] = [text]
        for index in 0..<40 {
            text.append(String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26))))
            snapshots.append(text)
        }
        for (count, snapshot) in snapshots.enumerated() {
            #expect(snapshot.utf8Count == count)
            #expect(Array(snapshot.utf8) == Array(text.string.utf8.prefix(count)))
            if case .inline = snapshot._storage { #expect(count <= 15) } else { #expect(count > 15) }
        }
        #expect(snapshots[15] != snapshots[16])
        #expect(AppendOnlyText("abc") == AppendOnlyText(stringLiteral: "abc"))
    }

    /// Equal texts are equal and hash alike whatever their form.
    @Test func inlineAndSharedTextCompareByBytes() {
        var shared = AppendOnlyText(String(repeating: "x", count: 20) + "\u{0}")
        let long = AppendOnlyText(String(repeating: "x", count: 20) + "\u{0}")
        #expect(shared == long)
        #expect(shared.hashValue == long.hashValue)
        shared.append("y")
        #expect(shared != long)
        // NUL bytes and a character cut at the inline boundary.
        var cut = AppendOnlyText("\u{0}\u{0}abcdefghijkl")  // 14 bytes
        cut.append(utf8: [0xE6])
        #expect(cut.utf8Count == 15 && cut.endsInsideCharacter && cut.string == "\u{0}\u{0}abcdefghijkl")
        cut.append(utf8: [0x97, 0xA5])
        #expect(!cut.endsInsideCharacter && cut.string == "\u{0}\u{0}abcdefghijkl\u{65E5}")
    }

    /// Number text of 16 bytes is inline, 17 is a String; both round-trip.
    @Test func numberTextAtTheInlineLimit() throws {
        for text in ["0", "-1", "1234567890123456", "-123456789012345", "12345678901234567", "1.5e-300000000000000"] {
            let number = try #require(JSONNumber(text: text))
            #expect(number.text == text)
            if case .inline = number.storage { #expect(text.utf8.count <= 16) } else { #expect(text.utf8.count > 16) }
            let parsed = try JSONValue.parse(text)
            #expect(parsed.numberValue == number)
            #expect(parsed.numberValue?.hashValue == number.hashValue)
            #expect(parsed.compactJSON == text)
        }
        #expect(JSONNumber(text: "1") != JSONNumber(text: "10"))
        #expect(try JSONNumber(text: "9007199254740993")?.int64() == 9_007_199_254_740_993)
    }

    /// Sibling containers share their depth's column; each, shorter or
    /// longer than the one before, must still hold exactly its own children.
    @Test func siblingsHoldExactlyTheirOwnChildren() throws {
        let value = try JSONValue.parse(#"[[1,2,3],[4],[],[5,6,7,8,9],{"a":1,"b":2},{"c":3},{}]"#)
        #expect(value.compactJSON == #"[[1,2,3],[4],[],[5,6,7,8,9],{"a":1,"b":2},{"c":3},{}]"#)
        #expect(value[2]?.arrayValue?.count == 0)
        #expect(value[5]?.objectValue?.keys == ["c"])
    }

    /// Text that is not valid UTF-8 still encodes to valid JSON (U+FFFD),
    /// and control bytes and quotes are escaped.
    @Test func compactEncodingOfInvalidTextIsStillValidJSON() throws {
        var text = AppendOnlyText("a")
        text.append(utf8: [0xFF, 0x22, 0x0A, 0x01])
        let value = JSONValue(.string(text))
        #expect(value.compactJSON == "\"a\u{FFFD}\\\"\\n\\u0001\"")
        #expect(try JSONValue.parse(value.compactJSON).stringValue == "a\u{FFFD}\"\n\u{1}")
    }

    /// Written in pieces of any size, a string with multi-byte characters
    /// across every piece boundary, escapes and ill-formed bytes encodes to
    /// the same JSON as written whole, and to what a scalar-by-scalar
    /// escaper writes (ill-formed bytes as U+FFFD).
    @Test func stringsWrittenInPiecesEqualTheWholeAndTheReference() throws {
        var bytes: [UInt8] = []
        for round in 0..<12 {
            bytes += Array("plain ascii ".utf8) + Array("é—☔😀".utf8) + [0x22, 0x5C, 0x0A, 0x01]
            if round % 3 == 0 { bytes += [0xC3] }  // a lead byte without its continuation
            if round % 4 == 1 { bytes += [0xED, 0xA0, 0x80] }  // a surrogate, ill-formed in UTF-8
            bytes += Array(String(repeating: "x", count: round).utf8)
        }
        var text = AppendOnlyText()
        text.append(utf8: bytes)
        let value = JSONValue(.string(text))
        let whole = value.compactJSON
        var reference = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": reference += "\\\""
            case "\\": reference += "\\\\"
            case "\n": reference += "\\n"
            case "\u{1}": reference += "\\u0001"
            default: reference.unicodeScalars.append(scalar)
            }
        }
        reference += "\""
        #expect(whole == reference)
        for limit in 16...40 {
            var out: [UInt8] = []
            var written: [UInt8] = []
            value.encodeCompact(into: &out, drainingAt: limit) { piece in
                written += piece
                piece.removeAll(keepingCapacity: true)
            }
            written += out
            #expect(String(decoding: written, as: UTF8.self) == whole, "limit \(limit)")
        }
    }
}
