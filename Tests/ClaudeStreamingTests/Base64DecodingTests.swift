// The chunk payload's base64 decoder against Foundation, at every length
// around the two-groups-per-step loop's edges, and the position it reports
// for a character outside the alphabet wherever it is.

@testable import ClaudeStreaming
import Foundation
import FuzzProperties
import Testing

@Suite struct Base64DecodingTests {
    @Test func decodesLikeFoundationAtEveryLength() {
        var generator = SplitMix64(seed: 64)
        var out: [UInt8] = [0xEE]
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            let failure = text.withUnsafeBytes { _decodeBase64($0, into: &out) }
            #expect(failure == nil, "length \(length)")
            #expect(out == bytes, "length \(length)")
        }
    }

    @Test func reportsTheGroupOfAnInvalidCharacter() {
        let text = Array(Data((0..<60).map { UInt8($0) }).base64EncodedString().utf8)
        var out: [UInt8] = []
        for position in 0..<text.count {
            var broken = text
            broken[position] = UInt8(ascii: "*")
            let failure = broken.withUnsafeBytes { _decodeBase64($0, into: &out) }
            #expect(failure.map { $0 <= position && position - $0 < 4 } == true, "position \(position): \(String(describing: failure))")
        }
    }
}
