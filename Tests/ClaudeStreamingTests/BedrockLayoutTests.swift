// The one-pass path for Bedrock's own chunk layout, {"bytes":"…"} and
// {"bytes":"…","p":"…"}: it must answer exactly those two forms (every
// padding length, every base64 length around the 32-character blocks) and
// leave every near miss to the general scanner: a quote or backslash
// anywhere in the padding (a smuggled second "bytes" member), an extra
// member, a truncated tail, bad base64 right before the quote, misplaced
// '=' padding.

import Foundation
import FuzzProperties
import Testing
import _Base64Acceleration

@testable import ClaudeStreaming

@Suite struct BedrockLayoutTests {
    /// `payload` through the fast path alone: the event, or nil when it declines.
    func fast(_ payload: [UInt8]) -> [UInt8]? {
        var event: [UInt8] = []
        let count = payload.withUnsafeBytes { decodeBedrockLayout($0, into: &event) }
        return count.map { Array(event.prefix($0)) }
    }

    /// `payload` through `unwrapChunk` (fast path, then the general scanner).
    func unwrapped(_ payload: [UInt8]) -> Result<[UInt8], ChunkProblem> {
        var event: [UInt8] = [0xEE]
        switch payload.withUnsafeBytes({ unwrapChunk($0, into: &event, options: .init(), readsLayout: true) }) {
        case .event(let count): return .success(Array(event.prefix(count)))
        case .invalid(let what): return .failure(ChunkProblem(what: what))
        }
    }

    struct ChunkProblem: Error, Equatable { var what: String }

    @Test(arguments: [
        (#"{"bytes":"QUJD"}"#, "ABC"),
        (#"{"bytes":"QUJD","p":"abcdef"}"#, "ABC"),
        (#"{"bytes":"","p":""}"#, ""),
        (#"{"bytes":""}"#, ""),
        (#"{"bytes":"QUI=","p":"x"}"#, "AB"),
        (#"{"bytes":"QQ==","p":"x"}"#, "A"),
        (#"{"bytes":"QUJDQQ=="}"#, "ABCA"),
    ])
    func bedrocksFormsTakeTheFastPath(_ form: String, _ decoded: String) {
        let payload = Array(form.utf8)
        #expect(fast(payload) == Array(decoded.utf8), "\(form)")
        #expect(unwrapped(payload) == .success(Array(decoded.utf8)), "\(form)")
    }

    /// Near misses: the fast path declines, and the general scanner gives
    /// the event (or the error) it always gave.
    @Test(arguments: [
        (#"{"bytes":"QUJD","p":"a\"b"}"#, "ABC"),
        (#"{"bytes":"QUJD","p":"a\\"}"#, "ABC"),
        (#"{"bytes":"QUJD","p":"a","bytes":"QkNE"}"#, "BCD"),
        (#"{"bytes":"QUJD","p":"abc"} "#, "ABC"),
        (#"{"bytes":"QUJD","p":"abc","q":1}"#, "ABC"),
        (#"{"bytes":"QUJD","P":"abc"}"#, "ABC"),
        (#"{"bytes":"QUJD","p" :"abc"}"#, "ABC"),
        (#"{"p":"abc","bytes":"QUJD"}"#, "ABC"),
        (#"{"bytes":"QUJD" }"#, "ABC"),
        (#"{"bytes":"Pz8\/"}"#, "???"),
        (#"{ "bytes":"QUJD"}"#, "ABC"),
    ])
    func nearMissesGoToTheGeneralScanner(_ form: String, _ decoded: String) {
        let payload = Array(form.utf8)
        #expect(fast(payload) == nil, "\(form)")
        #expect(unwrapped(payload) == .success(Array(decoded.utf8)), "\(form)")
    }

    @Test(arguments: [
        (#"{"bytes":"QUJD""#, "not a JSON object"),
        (#"{"bytes":"QUJD","p":"abc"#, "not a JSON object"),
        (#"{"bytes":"QUJD","p":"abc""#, "not a JSON object"),
        (#"{"bytes":"QUJD"}}"#, "not a JSON object"),
        (#"{"bytes":"QUJ*"}"#, "not base64"),
        (#"{"bytes":"QUJD*","p":"x"}"#, "not base64"),
        (#"{"bytes":"QUJDQ"}"#, "not base64"),
        (#"{"bytes":"QQ=","p":"x"}"#, "not base64"),
        (#"{"bytes":"Q===","p":"x"}"#, "not base64"),
        (#"{"bytes":"QQ==QUJD"}"#, "not base64"),
        ("{\"bytes\":\"QU\nJD\"}", "not base64"),
        (#"{"bytes":"QUJD\n"}"#, "an escape other than"),
    ])
    func brokenFormsAreStillTheirErrors(_ form: String, _ expected: String) {
        let payload = Array(form.utf8)
        #expect(fast(payload) == nil, "\(form)")
        guard case .failure(let problem) = unwrapped(payload) else {
            Issue.record("\(form) decoded")
            return
        }
        #expect(problem.what.contains(expected), "\(form): \(problem.what)")
    }

    /// Every base64 length around the AVX2 blocks, every padding length up
    /// to 40 (Bedrock's are 0…~60 letters), and a `"` or `\` at every place
    /// of the padding: the fast path answers for plain padding only, and
    /// always with Foundation's bytes.
    @Test func everyPaddingLengthAndEveryPlaceOfAQuoteOrBackslash() {
        var generator = SplitMix64(seed: 0x1A7)
        var misses: [String] = []
        for eventLength in [0, 1, 2, 3, 22, 23, 24, 25, 47, 48, 49, 200, 301] {
            let bytes = (0..<eventLength).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let base64 = Array(Data(bytes).base64EncodedString().utf8)
            for paddingLength in 0...40 {
                let padding = (0..<paddingLength).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                let plain = Array(#"{"bytes":""#.utf8) + base64 + Array(#"","p":""#.utf8) + padding + Array(#""}"#.utf8)
                if fast(plain) != bytes { misses.append("event \(eventLength), padding \(paddingLength): declined or wrong") }
                for place in 0..<paddingLength {
                    for intruder in [UInt8(ascii: "\""), UInt8(ascii: "\\")] {
                        var broken = plain
                        broken[plain.count - 2 - paddingLength + place] = intruder
                        if fast(broken) != nil { misses.append("event \(eventLength), padding \(paddingLength): \(intruder) at \(place) taken") }
                    }
                }
            }
            let bare = Array(#"{"bytes":""#.utf8) + base64 + Array(#""}"#.utf8)
            if fast(bare) != bytes { misses.append("event \(eventLength) without padding: declined or wrong") }
        }
        #expect(misses.isEmpty, "\(misses.count): \(misses.prefix(5))")
    }

    /// The padding scan: paddings of 0...48 bytes (the
    /// 16-byte steps, the last step overlapping the one before, the one step
    /// reaching back over `,"p":"`, whose quotes must not count), filled with
    /// every byte value but the two, with a quote or backslash at every
    /// place or none, after base64 of several lengths (so at several
    /// alignments).
    @Test func paddingScanSeesOnlyThePadding() {
        var misses: [String] = []
        let others = (0...255).map(UInt8.init).filter { $0 != 0x22 && $0 != 0x5C }
        for event in [[], [0x41], [0x41, 0x42], Array("a whole 32-character block here!".utf8)] {
            let base64 = Array(Data(event).base64EncodedString().utf8)
            for length in 0...48 {
                for place in Array(0..<length) + [-1] {
                    for intruder in [UInt8(ascii: "\""), UInt8(ascii: "\\")] {
                        var padding = (0..<length).map { others[($0 * 37 + place + 300) % others.count] }
                        if place >= 0 { padding[place] = intruder }
                        let payload = Array(#"{"bytes":""#.utf8) + base64 + Array(#"","p":""#.utf8) + padding + Array(#""}"#.utf8)
                        let taken = fast(payload)
                        if place >= 0 ? taken != nil : taken != event {
                            misses.append("event \(event.count), padding \(length), \(intruder) at \(place): \(String(describing: taken))")
                        }
                    }
                }
            }
        }
        #expect(misses.isEmpty, "\(misses.count): \(misses.prefix(5))")
    }
}
