// The hot delta scanner reads what the full parser reads, or declines: each
// delta kind from the one table, escapes, non-ASCII text, and the inputs it
// must leave to the parser (surrogate escapes, ill-formed or cut UTF-8,
// control bytes, unknown kinds, extra keys).

import IncrementalJSON
import ServerSentEvents
import Testing

@_spi(FuzzTesting) @testable import ClaudeStreaming

@Suite struct HotDeltaScannerTests {
    func scan(_ bytes: [UInt8]) -> (delta: HotDelta, payload: [UInt8])? {
        var scanner = HotDeltaScanner()
        return bytes.withUnsafeBytes { raw in
            guard let delta = scanner.scanCanonical(raw) else { return nil }
            let payload = delta.place == .data ? Array(raw[delta.payloadRange]) : scanner.unescaped
            return (delta, payload)
        }
    }

    func agreement(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { MessageAccumulator._checkHotPathAgreement($0) }
    }

    func canonical(_ kind: HotDeltaKind, index: Int = 2, payload: String) -> [UInt8] {
        Array(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"\#(kind.wireName)","\#(kind.payloadField)":"\#(payload)"}}"#.utf8)
    }

    /// Every kind in the table is read from the canonical layout, in place.
    @Test(arguments: HotDeltaKind.allCases)
    func everyKindIsReadFromTheCanonicalLayout(kind: HotDeltaKind) throws {
        let read = try #require(scan(canonical(kind, payload: "caf\u{E9} \u{2614} ok")))
        #expect(read.delta.kind == kind && read.delta.index == 2)
        #expect(read.delta.place == .data)
        #expect(read.payload == Array("caf\u{E9} \u{2614} ok".utf8))
        #expect(agreement(canonical(kind, payload: "caf\u{E9} \u{2614} ok")) == nil)
    }

    /// The unescape buffer is reused and only grows: a short escaped
    /// payload after a long one is exactly its own bytes.
    @Test func escapedPayloadAfterALongerOneIsExactlyItsOwn() throws {
        var scanner = HotDeltaScanner()
        let payloads = [#"a long \"escaped\" payload \u00e9, long enough to leave bytes behind\n"#, #"a\nb"#, #"\t"#]
        let expected = ["a long \"escaped\" payload \u{E9}, long enough to leave bytes behind\n", "a\nb", "\t"]
        for (payload, text) in zip(payloads, expected) {
            let event = canonical(.text, payload: payload)
            let read = try #require(event.withUnsafeBytes { scanner.scanCanonical($0) })
            #expect(read.place == .scratch)
            #expect(scanner.unescaped == Array(text.utf8))
            #expect(Array(scanner.unescapedBuffer[read.payloadRange]) == Array(text.utf8))
        }
    }

    /// Keys in another order, or whitespace between them, are the full
    /// parser's: no recorded stream has them, so no reader is kept for them.
    @Test func keysInAnotherOrderAreLeftToTheParser() throws {
        let event = Array(#"{ "index" : 7 , "delta" : { "text" : "hi" , "type" : "text_delta" } , "type" : "content_block_delta" }"#.utf8)
        #expect(scan(event) == nil)
        #expect(agreement(event) == nil)
        let spaced = Array(#"{"type": "content_block_delta", "index": 7, "delta": {"type": "text_delta", "text": "hi"}}"#.utf8)
        #expect(scan(spaced) == nil)
    }

    /// Escapes are decoded into the scanner's buffer, as the parser decodes them.
    @Test func escapesAreDecodedLikeTheParser() throws {
        let payload = #"a\"b\\c\/d\b\f\n\r\t\u00e9\u2614\u0041 \u00"#
        let event = canonical(.text, payload: payload + "41")
        let read = try #require(scan(event))
        #expect(read.delta.place == .scratch)
        #expect(read.payload == Array("a\"b\\c/d\u{8}\u{C}\n\r\t\u{E9}\u{2614}A A".utf8))
        #expect(agreement(event) == nil)
    }

    /// What the scanner must leave to the full parser, each declined.
    @Test(arguments: [
        ("surrogate pair escape", Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud83d\ude00"}}"#.utf8)),
        ("bad escape", Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\x"}}"#.utf8)),
        ("unknown kind", Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","text":"x"}}"#.utf8)),
        ("payload key of another kind", Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","thinking":"x"}}"#.utf8)),
        ("extra key", Array(#"{"type":"content_block_delta","index":0,"extra":1,"delta":{"type":"text_delta","text":"x"}}"#.utf8)),
        ("unterminated", Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"#.utf8)),
    ])
    func declinesWhatIsNotPlain(_ label: String, _ event: [UInt8]) {
        #expect(scan(event) == nil, "\(label)")
    }

    /// Ill-formed UTF-8 (overlong, encoded surrogate, bad lead, a character
    /// cut by the closing quote) and control bytes are declined, wherever
    /// in the string they sit.
    @Test(arguments: [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x98], [0x80], [0x01]] as [[UInt8]])
    func declinesIllFormedBytes(_ bad: [UInt8]) {
        let head = Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""#.utf8)
        let tail = Array(#""}}"#.utf8)
        for prefix in ["", "abcdefghij", "\u{E9}", #"\n"#] {
            let event = head + Array(prefix.utf8) + bad + Array("xyz".utf8) + tail
            #expect(scan(event) == nil, "\(bad) after \(prefix.debugDescription)")
            #expect(agreement(event) == nil)
        }
    }

    /// The literal compare sees every byte at every length (its tail loads
    /// overlap): equal bytes match, one changed byte anywhere does not, and
    /// a byte just past `n` does not change the answer.
    @Test func literalCompareSeesEveryByte() {
        func equal(_ x: [UInt8], _ y: [UInt8], _ n: Int) -> Bool? {
            x.withUnsafeBytes { xs in
                y.withUnsafeBytes { ys in
                    guard let xp = xs.baseAddress, let yp = ys.baseAddress else { return nil }
                    return bytesEqual(xp, yp, n)
                }
            }
        }
        let a: [UInt8] = (0..<41).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for n in 0...40 {
            var past = a
            past[n] ^= 0xFF
            #expect(equal(a, past, n) == true, "n = \(n)")
            for changed in 0..<n {
                var b = a
                b[changed] ^= 0x01
                #expect(equal(a, b, n) == false, "n = \(n), byte \(changed)")
            }
        }
    }
}
