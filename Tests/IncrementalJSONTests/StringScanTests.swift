// The whole-string scan in C (`_scan_json_string`, which the hot delta
// scanner reads payloads with) against an oracle built from the pieces of
// each input: every piece says what it decodes to, or that the scan must
// leave the string to the general reader. All three paths are held to it:
// the one this CPU takes, 16-byte windows and one byte at a time, at
// every start offset and with buffers too small, so escapes, characters
// and closing quotes fall on every window boundary.

import Testing
import _ScanAcceleration

@Suite struct StringScanTests {
    /// A piece of string contents: its bytes, and what they decode to (nil:
    /// the scan declines; `escape`: the string is unescaped into the buffer).
    struct Piece {
        var raw: [UInt8]
        var decoded: [UInt8]?
        var escape: Bool
    }

    static let pieces: [Piece] = [
        Piece(raw: Array("a".utf8), decoded: Array("a".utf8), escape: false),
        Piece(raw: Array(" ".utf8), decoded: Array(" ".utf8), escape: false),
        Piece(raw: Array("0123456789abcdefghijklmnopqrstu".utf8), decoded: Array("0123456789abcdefghijklmnopqrstu".utf8), escape: false),
        Piece(raw: Array(#"\""#.utf8), decoded: Array("\"".utf8), escape: true),
        Piece(raw: Array(#"\\"#.utf8), decoded: Array("\\".utf8), escape: true),
        Piece(raw: Array(#"\/"#.utf8), decoded: Array("/".utf8), escape: true),
        Piece(raw: Array(#"\n"#.utf8), decoded: [0x0A], escape: true),
        Piece(raw: Array(#"\t"#.utf8), decoded: [0x09], escape: true),
        Piece(raw: Array(#"\b\f\r"#.utf8), decoded: [0x08, 0x0C, 0x0D], escape: true),
        Piece(raw: Array(#"\u0041"#.utf8), decoded: Array("A".utf8), escape: true),
        Piece(raw: Array(#"\u00e9"#.utf8), decoded: [0xC3, 0xA9], escape: true),
        Piece(raw: Array(#"\u2614"#.utf8), decoded: [0xE2, 0x98, 0x94], escape: true),
        Piece(raw: [0xC3, 0xA9], decoded: [0xC3, 0xA9], escape: false),
        Piece(raw: [0xE2, 0x98, 0x94], decoded: [0xE2, 0x98, 0x94], escape: false),
        Piece(raw: [0xF0, 0x9F, 0x98, 0x80], decoded: [0xF0, 0x9F, 0x98, 0x80], escape: false),
        Piece(raw: [0xF4, 0x8F, 0xBF, 0xBF], decoded: [0xF4, 0x8F, 0xBF, 0xBF], escape: false),
        Piece(raw: [0xED, 0x9F, 0xBF], decoded: [0xED, 0x9F, 0xBF], escape: false),
        // Left to the general reader.
        Piece(raw: [0xC0, 0x80], decoded: nil, escape: false),
        Piece(raw: [0xE0, 0x80, 0x80], decoded: nil, escape: false),
        Piece(raw: [0xED, 0xA0, 0x80], decoded: nil, escape: false),
        Piece(raw: [0xF4, 0x90, 0x80, 0x80], decoded: nil, escape: false),
        // (A space first: a lone continuation must not finish a cut character before it.)
        Piece(raw: [0x20, 0x80], decoded: nil, escape: false),
        Piece(raw: [0xFF], decoded: nil, escape: false),
        Piece(raw: [0xE2, 0x98], decoded: nil, escape: false),
        Piece(raw: [0x01], decoded: nil, escape: false),
        Piece(raw: [0x0A], decoded: nil, escape: false),
        Piece(raw: Array(#"\x"#.utf8), decoded: nil, escape: true),
        Piece(raw: Array(#"\u12g4"#.utf8), decoded: nil, escape: true),
        Piece(raw: Array(#"\ud83d"#.utf8), decoded: nil, escape: true),
    ]

    /// `_scan_json_string`'s shape: bytes, start, end, destination,
    /// room, then the two results (end of read, bytes written).
    typealias Scan = @Sendable (Bytes, Int, Int, Destination, Int, Result, Result) -> Int32
    typealias Bytes = UnsafePointer<UInt8>
    typealias Destination = UnsafeMutablePointer<UInt8>?
    typealias Result = UnsafeMutablePointer<Int>

    /// Each path, and whether it copies a string without escapes too (the
    /// `copying` scans, whose reads are never in place).
    static let paths: [(name: String, scan: Scan, copies: Bool)] = [
        ("this CPU's", { _scan_json_string($0, $1, $2, $3, $4, $5, $6) }, false),
        ("this CPU's, called directly", { _scan_json_string_direct($0, $1, $2, $3, $4, $5, $6) }, false),
        ("16-byte windows", { _scan_json_string_16($0, $1, $2, $3, $4, $5, $6) }, false),
        ("one byte at a time", { _scan_json_string_bytes($0, $1, $2, $3, $4, $5, $6) }, false),
        ("this CPU's, copying", { _scan_json_string_copying_direct($0, $1, $2, $3, $4, $5, $6) }, true),
        ("16-byte windows, copying", { _scan_json_string_copying_16($0, $1, $2, $3, $4, $5, $6) }, true),
        ("one byte at a time, copying", { _scan_json_string_copying_bytes($0, $1, $2, $3, $4, $5, $6) }, true),
    ]

    enum Outcome: Equatable {
        case read(end: Int, inPlace: Bool, bytes: [UInt8])
        case declined
        case needsRoom

        /// The outcome a path that copies (`copies`) gives where this one
        /// is expected: the same, but a read is never in place.
        func copied(_ copies: Bool) -> Outcome {
            guard copies, case .read(let end, _, let bytes) = self else { return self }
            return .read(end: end, inPlace: false, bytes: bytes)
        }
    }

    func run(_ scan: Scan, _ input: [UInt8], from start: Int, capacity: Int) -> Outcome {
        var out = [UInt8](repeating: 0xAA, count: Swift.max(capacity, 1))
        var end = 0
        var written = 0
        let result = input.withUnsafeBufferPointer { p -> Int32 in
            guard let base = p.baseAddress else { return Int32(_scan_string_declined) }
            return out.withUnsafeMutableBufferPointer { o in scan(base, start, p.count, o.baseAddress, capacity, &end, &written) }
        }
        switch result {
        case Int32(_scan_string_read):
            if written < 0 { return .read(end: end, inPlace: true, bytes: Array(input[start..<(end - 1)])) }
            return .read(end: end, inPlace: false, bytes: Array(out[0..<written]))
        case Int32(_scan_string_needs_room): return .needsRoom
        default: return .declined
        }
    }

    @Test func everyPathMeetsTheOracle() {
        var seed: UInt64 = 0x5EED_5CA7
        func next(_ bound: Int) -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(truncatingIfNeeded: seed >> 1) % bound
        }
        var reads = 0
        var declines = 0
        for _ in 0..<3000 {
            // Up to 40 bytes before the string, its pieces, maybe its
            // closing quote, and bytes after it (another quote among them).
            let prefix = [UInt8](repeating: UInt8(ascii: "p"), count: next(41))
            var body: [UInt8] = []
            var decoded: [UInt8]? = []
            var escaped = false
            for _ in 0..<next(24) {
                // Mostly plain and valid pieces, so long strings occur.
                let piece = next(3) == 0 ? Self.pieces[next(Self.pieces.count)] : Self.pieces[next(17)]
                body += piece.raw
                escaped = escaped || piece.escape
                if let d = piece.decoded, decoded != nil { decoded? += d } else { decoded = nil }
            }
            let closed = next(5) != 0
            // After an unclosed string, no quote may follow (it would close it).
            let after = Array((closed ? #"}}x"y"# : "}}xy").utf8.prefix(next(6)))
            let input = prefix + body + (closed ? [UInt8(ascii: "\"")] : []) + after
            let expected: Outcome
            if closed, let decoded {
                expected = .read(end: prefix.count + body.count + 1, inPlace: !escaped, bytes: decoded)
            } else {
                expected = .declined
            }
            guard input.count > prefix.count else { continue }
            if case .read = expected { reads += 1 } else { declines += 1 }
            // Also with input to spare after it (no quote: an unclosed
            // string stays unclosed), where the copying scans store whole
            // windows as they go: 70 bytes, room for 32-byte windows, and
            // 140, for 64-byte steps too.
            let spares = [0, 70, 140].map { input + [UInt8](repeating: UInt8(ascii: "z"), count: $0) }
            for input in spares {
                for (name, scan, copies) in Self.paths {
                    let expected = expected.copied(copies)
                    let outcome = run(scan, input, from: prefix.count, capacity: input.count)
                    #expect(outcome == expected, "\(name): \(input) from \(prefix.count)")
                    // Too small a buffer: asked for room, or the same outcome
                    // when what is written fits (or nothing is).
                    let small = run(scan, input, from: prefix.count, capacity: next(8) + (next(2) == 0 ? 0 : body.count))
                    if small != .needsRoom { #expect(small == expected, "\(name), small buffer: \(input)") }
                }
            }
        }
        #expect(reads > 500 && declines > 500)
    }

    /// An escape that begins in one window and ends the input leaves no
    /// window to scan: the string is unclosed. The bytes past the end are
    /// quotes, so a scan that reads there reports a string the input does
    /// not hold.
    @Test func anEscapeThatEndsTheInputEndsTheScan() {
        for escape in [#"\u0041"#, #"\n"#, #"\u00e9"#] {
            for plain in 0..<70 {
                let body = [UInt8](repeating: UInt8(ascii: "a"), count: plain) + Array(escape.utf8)
                let buffer = body + [UInt8](repeating: UInt8(ascii: "\""), count: 64)
                for (name, scan, _) in Self.paths {
                    var out = [UInt8](repeating: 0, count: buffer.count)
                    var end = 0
                    var written = 0
                    let result = buffer.withUnsafeBufferPointer { p -> Int32 in
                        guard let base = p.baseAddress else { return -1 }
                        return out.withUnsafeMutableBufferPointer { o in
                            scan(base, 0, body.count, o.baseAddress, o.count, &end, &written)
                        }
                    }
                    #expect(result == Int32(_scan_string_declined), "\(name): \(plain) bytes, then \(escape)")
                }
            }
        }
    }

    /// Two escapes at every pair of places of a step, of every kind (and
    /// a letter that is no escape, a control byte, a character), with the
    /// closing quote inside the step and past it: where an escape shifts
    /// the rest of a step, and where a second one shifts it again. Each
    /// path meets the byte loop's outcome.
    @Test func twoEscapesAtEveryPairOfPlaces() {
        let oracle = Self.paths.first { $0.name == "one byte at a time" }
        guard let oracle else { return #expect(Bool(false), "no byte path") }
        let escapes = [#"\""#, #"\/"#, #"\n"#, #"\t"#, #"\\"#, #"\u0041"#, #"\x"#, "\u{01}", "\u{E9}"].map { Array($0.utf8) }
        var shortReads = 0
        for first in escapes {
            for second in escapes {
                for place in 0..<66 {
                    for gap in [0, 1, 7, 8, 30] {
                        for tail in [0, 1, 40] {
                            let string =
                                [UInt8](repeating: UInt8(ascii: "a"), count: place) + first
                                + [UInt8](repeating: UInt8(ascii: "b"), count: gap) + second
                                + [UInt8](repeating: UInt8(ascii: "c"), count: tail)
                            let input = [UInt8(ascii: "p")] + string + Array(#""}}"#.utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 150)
                            let expected = run(oracle.scan, input, from: 1, capacity: input.count)
                            if case .read = expected, string.count < 64 { shortReads += 1 }
                            for (name, scan, copies) in Self.paths {
                                let outcome = run(scan, input, from: 1, capacity: input.count)
                                #expect(outcome == expected.copied(copies), "\(name): \(string)")
                            }
                        }
                    }
                }
            }
        }
        #expect(shortReads > 10_000)
    }

    /// A character or an escape at every place of the first 100 bytes of a
    /// string with input to spare: so at every place of a 64-byte step, a
    /// 32-byte window and a 16-byte one, across each edge between them
    /// (where a character's lead in one window is checked by the next), and
    /// after an escape that shifted what follows. Each path meets the byte
    /// loop's outcome.
    @Test func everyPlaceOfAStep() {
        let oracle = Self.paths.first { $0.name == "one byte at a time" }
        guard let oracle else { return #expect(Bool(false), "no byte path") }
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xE2, 0x98, 0x94], [0xF0, 0x9F, 0x98, 0x80],
            [0xE2, 0x98], [0xF0, 0x9F, 0x98], [0xC3], [0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
            Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), [0x22], [0x01],
        ]
        for shifted in [false, true] {
            let head: [UInt8] = shifted ? Array(#"\t"#.utf8) : []
            for sequence in sequences {
                for place in 0..<100 {
                    let plain = [UInt8](repeating: UInt8(ascii: "a"), count: place)
                    let rest = [UInt8](repeating: UInt8(ascii: "b"), count: 100 - place)
                    let string = head + plain + sequence + rest
                    // Input to spare for every step, or ending soon after the
                    // string (the storing scan hands over part way).
                    for spare in [150, 3] {
                        let input = [UInt8(ascii: "p")] + string + Array(#""}}"#.utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: spare)
                        let expected = run(oracle.scan, input, from: 1, capacity: input.count)
                        for (name, scan, copies) in Self.paths {
                            let outcome = run(scan, input, from: 1, capacity: input.count)
                            #expect(outcome == expected.copied(copies), "\(name): \(sequence) at \(place), \(spare) to spare\(shifted ? ", shifted" : "")")
                        }
                    }
                }
            }
        }
    }
}
