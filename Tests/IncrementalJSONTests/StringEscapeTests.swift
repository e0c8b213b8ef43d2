// The window-at-a-time string writer (`_json_escape_windows`, C) against
// the character-at-a-time one: on random text of every kind (plain runs,
// escapes, multi-byte characters, ill-formed bytes, at every offset from
// the window edges) the encoder writes the same JSON either way, and each
// window pass stops only between characters, after escaping exactly what
// it read.

import Testing
import _ScanAcceleration

@testable import IncrementalJSON

@Suite struct StringEscapeTests {
    static let pieces: [[UInt8]] = [
        Array("plain words and more of them ".utf8), Array("x".utf8), [0x22], [0x5C], [0x0A], [0x0D], [0x09], [0x08],
        [0x0C], [0x01], [0x1F], [0x7F], Array("é".utf8), Array("—".utf8), Array("😀".utf8), [0xC3], [0xED, 0xA0, 0x80],
        [0xFF], [0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x98],
    ]

    struct Generator {
        var seed: UInt64
        mutating func next(_ bound: Int) -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(truncatingIfNeeded: seed >> 1) % bound
        }
    }

    func encoded(_ bytes: [UInt8], windows: Bool, limit: Int = .max) -> [UInt8] {
        var text = AppendOnlyText()
        text.append(utf8: bytes)
        var out: [UInt8] = []
        var drained: [UInt8] = []
        encodeString(text, into: &out, limit: limit, windows: windows) { buffer in
            drained += buffer
            buffer.removeAll(keepingCapacity: true)
        }
        return drained + out
    }

    @Test func windowsWriteWhatCharactersWrite() {
        var g = Generator(seed: 0xE5CA_9E11)
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            // Mostly well-formed, so long stretches go through the windows.
            let clean = round % 3 != 0
            for _ in 0..<g.next(60) {
                let piece = Self.pieces[clean ? g.next(15) : g.next(Self.pieces.count)]
                bytes += piece
            }
            let limit = [Int.max, 16, 100][g.next(3)]
            let characters = encoded(bytes, windows: false, limit: limit)
            #expect(encoded(bytes, windows: true, limit: limit) == characters, "\(bytes)")
        }
    }

    /// Each pass, both window widths: it stops between characters, reads
    /// only well-formed UTF-8, and writes exactly the escaped text of what
    /// it read; on long well-formed text it leaves less than two windows.
    @Test func eachPassEscapesExactlyWhatItRead() throws {
        var g = Generator(seed: 0x0E5C_A9E5)
        // On the general path the chosen pass writes nothing (the encoder
        // goes a character at a time); the 16-byte one always runs.
        let general = _scan_general_path() != 0
        let widths: [(String, (UnsafePointer<UInt8>, UnsafeMutablePointer<Int>, Int, UnsafeMutablePointer<UInt8>, Int) -> Int, Bool)] = [
            ("this CPU's", { _json_escape_windows($0, $1, $2, $3, $4) }, !general),
            ("16-byte windows", { _json_escape_windows_16($0, $1, $2, $3, $4) }, true),
        ]
        for round in 0..<2000 {
            // Five bytes the pass may start in (not inside a character).
            var bytes = Array("abcde".utf8)
            let clean = round % 2 == 0
            for _ in 0..<g.next(40) { bytes += Self.pieces[clean ? g.next(15) : g.next(Self.pieces.count)] }
            let start = g.next(6)
            guard bytes.count > start else { continue }
            for (name, pass, runs) in widths {
                let capacity = g.next(2) == 0 ? bytes.count * 6 + 64 : g.next(80)
                var out = [UInt8](repeating: 0, count: Swift.max(capacity, 1))
                var at = start
                let written = bytes.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer { o in
                        pass(p.baseAddress!, &at, p.count, o.baseAddress!, capacity)
                    }
                }
                #expect(at >= start && at <= bytes.count, "\(name)")
                let read = Array(bytes[start..<at])
                // Well-formed text only, so it stopped between characters
                // (a character cut by the stop would leave it ill-formed).
                let valid = String(validating: read, as: UTF8.self)
                #expect(valid != nil, "\(name): read \(read)")
                #expect(Array(out[0..<written]) == encoded(read, windows: false).dropFirst().dropLast(), "\(name): \(read)")
                if !runs {
                    #expect(at == start && written == 0, "\(name): the general path wrote")
                } else if clean && capacity >= bytes.count * 6 + 64 {
                    #expect(bytes.count - at < 64, "\(name): stopped early at \(at) of \(bytes.count)")
                }
            }
        }
    }
}
