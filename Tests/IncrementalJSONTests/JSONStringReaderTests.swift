// The one JSON string reader that the parser and the hot delta scanner
// share: where each run stops and why, the escape table, and the scalar
// encoder, checked against the standard library's own UTF-8.

import Testing

@testable import IncrementalJSON

@Suite struct JSONStringReaderTests {
    func run(_ bytes: [UInt8], from start: Int = 0) -> _JSONStringRun {
        bytes.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return _JSONStringRun(end: 0, stop: .endOfInput) }
            return _JSONStringReader.run(base, from: start, to: p.count)
        }
    }

    func describe(_ run: _JSONStringRun) -> String {
        switch run.stop {
        case .special: "special@\(run.end)"
        case .endOfInput: "end@\(run.end)"
        case .invalidUTF8(let at): "invalid@\(run.end),\(at)"
        case .cutCharacter(let need, let low, let high): "cut@\(run.end),\(need),\(low),\(high)"
        }
    }

    @Test func runsStopAtQuotesBackslashesAndControlBytes() {
        // Long enough that the eight-byte loop runs before each stop.
        let text = Array("0123456789abcdef".utf8)
        #expect(describe(run(text + [0x22])) == "special@16")
        #expect(describe(run(text + [0x5C, 0x6E])) == "special@16")
        #expect(describe(run(text + [0x1F])) == "special@16")
        #expect(describe(run(text)) == "end@16")
        #expect(describe(run(text + [0x22], from: 3)) == "special@16")
    }

    @Test func wellFormedCharactersStayInTheRun() {
        let text = Array("ab\u{E9}cdefghij\u{2614}klmnopq\u{1F600}r".utf8)
        #expect(describe(run(text + [0x22])) == "special@\(text.count)")
    }

    /// The first byte that makes a character ill-formed, with the run
    /// ending at the character's lead.
    @Test(
        arguments: [
            ([0xC0, 0x80], "invalid@2,2"),  // C0 never leads
            ([0xE0, 0x80, 0x80], "invalid@2,3"),  // overlong: E0 wants A0...BF
            ([0xED, 0xA0, 0x80], "invalid@2,3"),  // an encoded surrogate
            ([0xF4, 0x90, 0x80, 0x80], "invalid@2,3"),  // above U+10FFFF
            ([0xE2, 0x98, 0x41], "invalid@2,4"),  // a third byte that is not a continuation
            ([0x80], "invalid@2,2"),  // a lone continuation
        ] as [([UInt8], String)])
    func illFormedUTF8IsReportedAtItsFirstBadByte(_ bad: [UInt8], _ expected: String) {
        #expect(describe(run(Array("ab".utf8) + bad + [0x22])) == expected)
    }

    /// A character cut by the input's end: what it still needs, and the
    /// range of the next byte (narrow only right after the lead).
    @Test func aCutCharacterSaysWhatItNeeds() {
        #expect(describe(run([0x61, 0xE0])) == "cut@2,2,160,191")
        #expect(describe(run([0x61, 0xE0, 0xA0])) == "cut@3,1,128,191")
        #expect(describe(run([0x61, 0xF0, 0x90, 0x80])) == "cut@4,1,128,191")
        #expect(describe(run([0x61, 0xE0, 0x80])) == "invalid@1,2")
    }

    /// The sixteen-byte scan (C) against the one-character-at-a-time reader
    /// (Swift), which share no code: every start in inputs of every length
    /// from 0 to 70 (the byte loop under 16, whole steps, the overlapping
    /// last step), mixing plain bytes, specials and characters that are
    /// well-formed, ill-formed or cut by the end.
    @Test func theVectorScanAgreesWithTheCharacterLoop() {
        let pieces: [[UInt8]] = [
            [0x61], [0x20], [0x7E], [0x22], [0x5C], [0x00], [0x1F], [0x7F],
            [0xC3, 0xA9], [0xE2, 0x98, 0x94], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xFF],
            [0xE2, 0x98], [0xF0, 0x9F],
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(truncatingIfNeeded: seed >> 1)
        }
        var checked = 0
        for length in 0...70 {
            for _ in 0..<40 {
                var bytes: [UInt8] = []
                // Mostly plain ASCII, as text is, so long runs occur.
                while bytes.count < length {
                    bytes += next() % 4 == 0 ? pieces[next() % pieces.count] : [UInt8(0x20 + next() % 0x5F)]
                }
                bytes = Array(bytes.prefix(length))
                bytes.withUnsafeBufferPointer { p in
                    guard let base = p.baseAddress else { return }
                    for start in 0...p.count {
                        let fast = describe(_JSONStringReader.run(base, from: start, to: p.count))
                        let slow = describe(_JSONStringReader.slowRun(base, from: start, to: p.count))
                        #expect(fast == slow, "\(bytes) from \(start)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100_000)
    }

    @Test func escapeTable() {
        let table: [(Character, UInt8?)] = [
            ("\"", 0x22), ("\\", 0x5C), ("/", 0x2F), ("b", 0x08), ("f", 0x0C),
            ("n", 0x0A), ("r", 0x0D), ("t", 0x09), ("u", nil), ("x", nil), ("0", nil),
        ]
        for (escape, byte) in table {
            #expect(_JSONStringReader.escapedByte(escape.asciiValue ?? 0) == byte, "\\\(escape)")
        }
        #expect(_JSONStringReader.hexDigit(UInt8(ascii: "f")) == 15 && _JSONStringReader.hexDigit(UInt8(ascii: "C")) == 12)
        #expect(_JSONStringReader.hexDigit(UInt8(ascii: "g")) == nil)
    }

    @Test func scalarsEncodeAsTheStandardLibraryDoes() {
        for value: UInt32 in [0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF] {
            let ours = _JSONStringReader.withUTF8(of: value) { Array($0) }
            let standard = Unicode.Scalar(value).map { Array(String($0).utf8) }
            #expect(ours == standard, "U+\(String(value, radix: 16))")
        }
    }
}
