// The windowed UTF-8 check (ByteRuns.c) against the byte loop, on inputs
// long enough for the windows: characters well formed and ill formed,
// whole and cut, at every offset of a 16- and a 32-byte window, after bytes
// that are not the string's (a lead just before the start must not finish
// or open a character of the string), and with the input ending inside a
// character. StringRulesAgreementTests holds the byte loop to the Swift
// parser's rules over every short case; this holds the windows to the
// byte loop, so the three agree.

import FuzzProperties
import Testing
import _ScanAcceleration

@testable import IncrementalJSON

@Suite struct StringWindowUTF8Tests {
    /// Characters and pieces the generator draws from: mostly plain and
    /// well formed, so that runs cross many windows before they stop.
    static let valid: [[UInt8]] = [
        Array("a".utf8), Array("plain text ".utf8), [0xC3, 0xA9], [0xDF, 0xBF], [0xE0, 0xA0, 0x80],
        [0xE2, 0x98, 0x94], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF3, 0xBF, 0xBF, 0xBF],
    ]
    static let invalid: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x9F, 0x80], [0xE2, 0x98],
        [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3, 0xA9, 0xA9], [0xE2, 0x98, 0x94, 0x94],
    ]
    static let specials: [[UInt8]] = [[0x22], [0x5C, 0x6E], [0x01], [0x1F]]

    /// The shared test generator, with the two draws used here.
    struct Generator {
        var rng: SplitMix64
        init(seed: UInt64) { rng = SplitMix64(seed: seed) }
        mutating func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &rng) }
        mutating func pick(_ from: [[UInt8]]) -> [UInt8] { from[next(from.count)] }
    }

    /// A prefix of bytes before the string (some of them leads), then
    /// pieces, rarely an ill-formed one or a special byte.
    static func input(_ g: inout Generator) -> (bytes: [UInt8], start: Int) {
        let prefixes: [[UInt8]] = [[], [0x22], [0xC3], [0xE2, 0x98], [0xF0, 0x9F, 0x98], [0x61, 0x62, 0xF0]]
        let prefix = Array(repeating: UInt8(ascii: "p"), count: g.next(40)) + g.pick(prefixes)
        var body: [UInt8] = []
        for _ in 0..<g.next(40) {
            switch g.next(40) {
            case 0: body += g.pick(invalid)
            case 1: body += g.pick(specials)
            default: body += g.pick(valid)
            }
        }
        return (prefix + body, prefix.count)
    }

    @Test func runScansAgreeWithTheByteLoop() {
        var g = Generator(seed: 0x0DDB_A11)
        var stops = (special: 0, bad: 0, end: 0)
        for _ in 0..<4000 {
            let (bytes, start) = Self.input(&g)
            // The string from `start`, the input ending at every length
            // past it (so cuts fall inside characters and at every window
            // edge), as the parser calls the scan on a chunk.
            bytes.withUnsafeBufferPointer { buffer in
                guard let p = buffer.baseAddress else { return }
                for n in stride(from: start + 1, through: bytes.count, by: 1 + g.next(3)) {
                    let oracle = _scan_json_string_run_bytes(p, start, n)
                    let swift = _JSONStringReader.slowRun(p, from: start, to: n)
                    let windows32 = _scan_json_string_run(p, start, n)
                    let windows16 = _scan_json_string_run_16(p, start, n)
                    #expect(windows32 == oracle, "this CPU's windows, \(Array(bytes[0..<n])) from \(start)")
                    #expect(windows16 == oracle, "16-byte windows, \(Array(bytes[0..<n])) from \(start)")
                    switch swift.stop {
                    case .special, .endOfInput, .invalidUTF8: #expect(swift.end == oracle, "Swift's run, \(Array(bytes[0..<n]))")
                    case .cutCharacter: break  // C stops at the cut lead (StringRulesAgreementTests)
                    }
                    if oracle == n {
                        stops.end += 1
                    } else if p[oracle] < 0x80 {
                        stops.special += 1
                    } else {
                        stops.bad += 1
                    }
                }
            }
        }
        // Each way a run ends was reached many times.
        #expect(stops.special > 1000 && stops.bad > 1000 && stops.end > 1000, "\(stops)")
    }

    @Test func wholeStringScansAgreeWithTheByteLoop() {
        var g = Generator(seed: 0xC0FF_EE)
        var outcomes = (read: 0, declined: 0)
        for _ in 0..<4000 {
            var (bytes, start) = Self.input(&g)
            bytes += Array(#"" and after"#.utf8).prefix(g.next(12))
            let oracle = StringScanTests().run(StringScanTests.paths[3].scan, bytes, from: start, capacity: bytes.count)
            if case .read = oracle { outcomes.read += 1 } else { outcomes.declined += 1 }
            for (name, scan, copies) in StringScanTests.paths where name != StringScanTests.paths[3].name {
                let outcome = StringScanTests().run(scan, bytes, from: start, capacity: bytes.count)
                #expect(outcome == oracle.copied(copies), "\(name): \(bytes) from \(start)")
            }
        }
        #expect(outcomes.read > 1000 && outcomes.declined > 1000, "\(outcomes)")
    }
}
