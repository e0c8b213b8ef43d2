// The JSON string rules are written twice, on purpose: in C for the
// 16- and 32-byte windows (`_scan_json_string`, `_scan_json_string_run`,
// ByteRuns.c) and in Swift for the resumable parser (`_JSONStringReader`'s
// `slowRun`, `utf8Lead`, `escapedByte`, `hexDigit`). This holds the two to
// the same rules over every case, not samples:
// - every byte after a backslash, every `\u` code unit, and every byte at
//   each of the four hex places: C (each of its paths) reads the string
//   exactly as the Swift parser does, or declines what the parser rejects
//   (and surrogate escapes, whose pairs are the parser's by design);
// - every UTF-8 lead byte with every second byte, whole and cut at each
//   length, and for the three- and four-byte leads every third byte after
//   each edge of the second's range: C's run ends where Swift's does, for
//   the same reason (a quote, backslash or control byte; an ill-formed
//   character; one cut by the input's end).

import Testing
import _ScanAcceleration

@testable import IncrementalJSON

@Suite struct StringRulesAgreementTests {
    /// What the Swift parser makes of `"` + `contents` as a whole document.
    static func parsed(_ contents: [UInt8]) -> [UInt8]? {
        guard let text = (try? JSONValue.parse([0x22] + contents))?.stringValue else { return nil }
        return Array(text.utf8)
    }

    /// Every C path's outcome on `contents`, or a description of the first
    /// that differs from `expected`.
    static func mismatch(_ contents: [UInt8], expected: StringScanTests.Outcome) -> String? {
        for (name, scan, copies) in StringScanTests.paths {
            let outcome = StringScanTests().run(scan, contents, from: 0, capacity: contents.count + 8)
            if outcome != expected.copied(copies) { return "\(name): \(outcome) for \(contents), expected \(expected)" }
        }
        return nil
    }

    @Test func everyByteAfterABackslash() {
        var misses: [String] = []
        for byte in 0...255 {
            let contents: [UInt8] = [0x61, 0x5C, UInt8(byte), 0x62, 0x22]
            let swift = Self.parsed(contents)
            // The Swift rule: a one-character escape, or `u` (whose digits
            // are missing here): rejected.
            #expect((swift != nil) == (_JSONStringReader.escapedByte(UInt8(byte)) != nil), "\\\(byte)")
            let expected: StringScanTests.Outcome =
                swift.map { .read(end: contents.count, inPlace: false, bytes: $0) } ?? .declined
            if let miss = Self.mismatch(contents, expected: expected) { misses.append(miss) }
        }
        #expect(misses.count == 0, "\(misses.prefix(5))")
    }

    @Test func everyUnicodeEscape() {
        var misses: [String] = []
        let hex = Array("0123456789abcdef".utf8)
        let upperHex = Array("0123456789ABCDEF".utf8)
        for unit in 0...0xFFFF {
            let digits = unit % 7 == 0 ? upperHex : hex
            let contents: [UInt8] =
                [0x5C, 0x75] + [12, 8, 4, 0].map { digits[(unit >> $0) & 0xF] } + [0x22]
            let swift = Self.parsed(contents)
            let isSurrogate = (0xD800...0xDFFF).contains(unit)
            if isSurrogate {
                // Lone surrogates: the parser rejects them, and C leaves every
                // surrogate to it.
                if swift != nil { misses.append("the parser accepted a lone \\u\(String(unit, radix: 16))") }
                if let miss = Self.mismatch(contents, expected: .declined) { misses.append(miss) }
                continue
            }
            guard let swift, let scalar = Unicode.Scalar(unit), swift == Array(String(Character(scalar)).utf8) else {
                misses.append("the parser read \\u\(String(unit, radix: 16)) as \(String(describing: swift))")
                continue
            }
            if let miss = Self.mismatch(contents, expected: .read(end: contents.count, inPlace: false, bytes: swift)) {
                misses.append(miss)
            }
        }
        // A pair: the parser joins it, C declines it.
        let pair = Array(#"\ud83d\ude00""#.utf8)
        #expect(Self.parsed(pair) == Array("\u{1F600}".utf8))
        if let miss = Self.mismatch(pair, expected: .declined) { misses.append(miss) }
        #expect(misses.count == 0, "\(misses.prefix(5))")
    }

    @Test func everyByteInEachHexPlace() {
        var misses: [String] = []
        for place in 0..<4 {
            for byte in 0...255 {
                var digits = Array("00e9".utf8)
                digits[place] = UInt8(byte)
                let contents: [UInt8] = [0x5C, 0x75] + digits + [0x22]
                let swift = Self.parsed(contents)
                let valid = digits.allSatisfy { _JSONStringReader.hexDigit($0) != nil }
                if (swift != nil) != valid { misses.append("the parser on \(digits): \(String(describing: swift))") }
                let expected: StringScanTests.Outcome =
                    swift.map { .read(end: contents.count, inPlace: false, bytes: $0) } ?? .declined
                if let miss = Self.mismatch(contents, expected: expected) { misses.append(miss) }
            }
        }
        #expect(misses.count == 0, "\(misses.prefix(5))")
    }

    /// C's run and whole-string read against Swift's `slowRun` on
    /// `bytes[0..<n]` (no backslash in `bytes`: escapes are above).
    static func runMismatch(_ bytes: [UInt8], _ n: Int) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            guard let p = buffer.baseAddress else { return nil }
            let swift = _JSONStringReader.slowRun(p, from: 0, to: n)
            let c = _scan_json_string_run(p, 0, n)
            let agrees: Bool
            switch swift.stop {
            case .special, .endOfInput, .invalidUTF8: agrees = c == swift.end
            case .cutCharacter(let need, _, _):
                // C stops at the cut character's lead.
                let lead = c < n ? _JSONStringReader.utf8Lead(p[c]) : nil
                agrees = lead.map { n &- c == $0.0 &- need } ?? false
            }
            if !agrees { return "run over \(Array(bytes[0..<n])): C \(c), Swift \(swift.end) \(swift.stop)" }
            // The whole string: read iff the run reaches a closing quote.
            let contents = Array(bytes[0..<n]) + [0x22]
            var closing: Int?
            switch swift.stop {
            case .special: closing = p[swift.end] == 0x22 ? swift.end : nil
            case .endOfInput: closing = n
            case .invalidUTF8, .cutCharacter: closing = nil
            }
            let expected: StringScanTests.Outcome =
                closing.map { .read(end: $0 + 1, inPlace: true, bytes: Array(contents[0..<$0])) } ?? .declined
            return mismatch(contents, expected: expected)
        }
    }

    @Test func everyLeadWithEverySecondByte() {
        var misses: [String] = []
        for lead in 0...255 where lead != 0x5C {
            for second in 0...255 where second != 0x5C {
                let bytes: [UInt8] = [0x61, UInt8(lead), UInt8(second), 0x80, 0x80, 0x61]
                for n in 2...bytes.count {
                    if let miss = Self.runMismatch(bytes, n) { misses.append(miss) }
                }
            }
        }
        #expect(misses.count == 0, "\(misses.prefix(5))")
    }

    @Test func everyThirdByteAfterTheEdgesOfTheSecond() {
        var misses: [String] = []
        for lead in 0xE0...0xF4 {
            for second: UInt8 in [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                for third in 0...255 where third != 0x5C {
                    let bytes: [UInt8] = [UInt8(lead), second, UInt8(third), 0x80, 0x61]
                    for n in 1...bytes.count {
                        if let miss = Self.runMismatch(bytes, n) { misses.append(miss) }
                    }
                }
            }
        }
        #expect(misses.count == 0, "\(misses.prefix(5))")
    }
}
