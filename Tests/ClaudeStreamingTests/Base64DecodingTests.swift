// The chunk payload's base64 decoder against Foundation, at every length
// around the edges of the 32-character AVX2 blocks and the scalar loop,
// and the position it reports for a byte outside the alphabet wherever it
// is and whatever its value.

import Foundation
import FuzzProperties
import Testing
import _Base64Acceleration

@testable import ClaudeStreaming

@Suite struct Base64DecodingTests {
    @Test func decodesLikeFoundationAtEveryLength() {
        var generator = SplitMix64(seed: 64)
        var out: [UInt8] = [0xEE]
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            let outcome = text.withUnsafeBytes { decodeBase64($0, into: &out) }
            #expect(outcome == .decoded(count: bytes.count), "length \(length)")
            #expect(Array(out.prefix(bytes.count)) == bytes, "length \(length)")
        }
    }

    /// The one-pass form, Bedrock's payload layout: the base64 up to its
    /// closing quote, with what follows it (the rest of the payload) long
    /// enough for the AVX2 blocks to run into it: Foundation's bytes at
    /// every length; and a decline for any byte outside the alphabet in the
    /// text.
    @Test func decodesAPayloadUpToItsQuoteAtEveryLength() {
        var generator = SplitMix64(seed: 65)
        var out: [UInt8] = []
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let head = Array(#"{"bytes":""#.utf8)
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            for tail in [#""}"#, #"","p":"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01234"}"#] {
                let payload = head + text + Array(tail.utf8)
                let count = payload.withUnsafeBytes { decodeBedrockLayout($0, into: &out) }
                #expect(count == bytes.count, "length \(length)")
                #expect(Array(out.prefix(bytes.count)) == bytes, "length \(length)")
                #expect(scalar(payload) == bytes, "length \(length), scalar")
            }
            guard !text.isEmpty else { continue }
            let place = Int(generator.next() % UInt64(text.count))
            for value in [0x00, 0x0A, 0x20, 0x2A, 0x2D, 0x5C, 0x5F, 0x7F, 0x80, 0xFF] where !alphabet.contains(UInt8(value)) {
                var broken = head + text + Array(#""}"#.utf8)
                guard broken[head.count + place] != UInt8(ascii: "=") else { continue }
                broken[head.count + place] = UInt8(value)
                #expect(broken.withUnsafeBytes { decodeBedrockLayout($0, into: &out) } == nil, "length \(length), \(value) at \(place)")
                #expect(scalar(broken) == nil, "length \(length), \(value) at \(place), scalar")
            }
        }
        // No quote at all, a cut head, and nothing at all.
        #expect(Array(#"{"bytes":"QUJD"#.utf8).withUnsafeBytes { decodeBedrockLayout($0, into: &out) } == nil)
        #expect(Array(#"{"bytes":"#.utf8).withUnsafeBytes { decodeBedrockLayout($0, into: &out) } == nil)
        #expect([UInt8]().withUnsafeBytes { decodeBedrockLayout($0, into: &out) } == nil)
    }

    /// With exactly the room the function asks for, (n - 10) / 4 * 3 bytes,
    /// the AVX2 blocks stop where a 32-byte store would pass it and the
    /// groups decode the rest: the same bytes, and nothing written past the
    /// allocation (its own, so the address sanitizer sees its end).
    @Test func decodesIntoExactlyTheRoomItAsksFor() {
        var generator = SplitMix64(seed: 66)
        let head = Array(#"{"bytes":""#.utf8)
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let payload = head + Array(Data(bytes).base64EncodedString().utf8) + Array(#""}"#.utf8)
            let capacity = (payload.count - head.count) / 4 * 3
            let room = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
            defer { room.deallocate() }
            for scalarOnly in [false, true] {
                var count = 0
                let status = payload.withUnsafeBytes { raw in
                    scalarOnly
                        ? _base64_decode_bedrock_payload_scalar(raw.baseAddress, raw.count, room, capacity, &count)
                        : _base64_decode_bedrock_payload(raw.baseAddress, raw.count, room, capacity, &count)
                }
                #expect(Int(status) == Int(_base64_decode_ok) && count == length, "length \(length), scalar \(scalarOnly)")
                #expect(Array(UnsafeBufferPointer(start: room, count: min(count, capacity))) == bytes, "length \(length), scalar \(scalarOnly)")
            }
            // One byte less is refused before anything is written.
            var count = 0
            let short = payload.withUnsafeBytes { _base64_decode_bedrock_payload($0.baseAddress, $0.count, room, capacity - 1, &count) }
            #expect(capacity == 0 || Int(short) == Int(_base64_decode_capacity), "length \(length)")
        }
    }

    /// The payload through the scalar path alone (no AVX2 run): the event,
    /// or nil when it declines.
    func scalar(_ payload: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: payload.count + 32)
        var count = 0
        let status = payload.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { _base64_decode_bedrock_payload_scalar(raw.baseAddress, raw.count, $0.baseAddress, $0.count, &count) }
        }
        return Int(status) == Int(_base64_decode_ok) ? Array(out.prefix(count)) : nil
    }

    @Test func reportsTheGroupOfAnInvalidCharacter() {
        let text = Array(Data((0..<60).map { UInt8($0) }).base64EncodedString().utf8)
        var out: [UInt8] = []
        for position in 0..<text.count {
            var broken = text
            broken[position] = UInt8(ascii: "*")
            let outcome = broken.withUnsafeBytes { decodeBase64($0, into: &out) }
            guard case .invalid(let at) = outcome else {
                Issue.record("position \(position): \(outcome)")
                continue
            }
            #expect(at <= position && position - at < 4, "position \(position): \(at)")
        }
    }

    /// Every byte value outside the alphabet, at every place of the first
    /// three 32-character blocks (so in the accelerated part, when this CPU
    /// has it) and near the end (the scalar part), is reported in its group.
    @Test func everyByteOutsideTheAlphabetIsFoundInItsGroup() {
        var generator = SplitMix64(seed: 7)
        let bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let text = Array(Data(bytes).base64EncodedString().utf8)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var misses: [String] = []
        for value in 0...255 where !alphabet.contains(UInt8(value)) {
            for position in Array(0..<96) + Array((text.count - 40)..<(text.count - 4)) {
                var broken = text
                broken[position] = UInt8(value)
                let outcome = broken.withUnsafeBytes { decodeBase64($0, into: &out) }
                if outcome != .invalid(at: position - position % 4) { misses.append("byte \(value) at \(position): \(outcome)") }
            }
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
    }

    /// The accelerated blocks alone: how much they take, and that it is
    /// exactly Foundation's decoding, at every length and output capacity.
    @Test(.enabled(if: _base64_blocks_available() != 0, "this CPU has no AVX2"))
    func acceleratedBlocksDecodeLikeFoundation() {
        var generator = SplitMix64(seed: 32)
        for length in stride(from: 0, through: 240, by: 3) {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            for capacity in [0, 31, 32, 55, 56, 80, 1000] {
                var out = [UInt8](repeating: 0, count: capacity)
                let consumed = text.withUnsafeBytes { source in
                    out.withUnsafeMutableBufferPointer { _base64_decode_blocks(source.baseAddress, text.count, $0.baseAddress, capacity) }
                }
                // Whole blocks of the alphabet only: stop at the first block
                // holding '=', or whose 32-byte store would not fit.
                var expected = 0
                while text.count - expected >= 32, capacity - expected / 4 * 3 >= 32,
                    !text[expected..<(expected + 32)].contains(UInt8(ascii: "="))
                { expected += 32 }
                #expect(consumed == expected, "length \(length) capacity \(capacity)")
                #expect(Array(out.prefix(consumed / 4 * 3)) == Array(bytes.prefix(consumed / 4 * 3)), "length \(length)")
            }
        }
    }
}
