// The one-pass reader of whole documents against the resumable parser: what
// it accepts, it reads to the resumable parser's value; what the resumable
// parser rejects, it never accepts; and every valid document with an object
// or array at the top it reads itself, so these comparisons run its code.
// Generated documents cover what its branches turn on: short and long
// strings and keys (the 32-byte windows and the scan), escapes and
// surrogate pairs (the scan declines those), numbers past a node's seven
// bytes, nesting, whitespace; then every prefix of some, and single-byte
// changes, for the rejections. The limits are checked at their edges.

import FuzzProperties
import Testing
import _ScanAcceleration

@testable import IncrementalJSON

@Suite struct WholeDocumentParserTests {
    /// The resumable parser's outcome, fed whole.
    static func resumable(_ bytes: [UInt8], options: JSONParserOptions = .init()) -> Result<JSONValue, JSONParseError> {
        var parser = IncrementalJSONParser(options: options)
        return Result { () throws(JSONParseError) in
            try parser.feed(bytes)
            return try parser.finish()
        }
    }

    static func whole(_ bytes: [UInt8], options: JSONParserOptions = .init()) -> JSONValue? {
        bytes.withUnsafeBytes { WholeDocumentParser.parse($0, options: options) }
    }

    /// Fails unless the two parsers agree on `bytes` (file comment); returns
    /// whether the one-pass reader read it.
    @discardableResult
    static func agree(_ bytes: [UInt8], options: JSONParserOptions = .init(), sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = whole(bytes, options: options)
        switch resumable(bytes, options: options) {
        case .success(let value):
            if let fast {
                #expect(fast == value, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
                #expect(fast.compactJSON == value.compactJSON, sourceLocation: sourceLocation)
            }
        case .failure(let error):
            #expect(
                fast == nil, "accepted what the resumable parser rejects (\(error)): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        }
        return fast != nil
    }

    // MARK: Generated documents

    static let pieces: [String] = [
        "", "a", "type", "title", "page_age", "encrypted_content", "https://example.com/a/long/path/past/thirty-two/bytes",
        "caf\u{E9}", "\u{2614} rain", "\u{1F600}", "tab\there", "quote\"d", "back\\slash", "line\nbreak", "\u{1}",
        String(repeating: "x", count: 31), String(repeating: "y", count: 32), String(repeating: "z", count: 33),
    ]

    /// A JSON string literal of `text`, its characters escaped in one of
    /// the ways JSON allows (plain, short escapes, `\u` escapes, surrogate
    /// pairs).
    static func literal(_ text: String, _ rng: inout SplitMix64) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let style = rng.next() % 4
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += style == 0 ? "\\u000a" : "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + hex(scalar.value)
            case _ where style == 0 && scalar.value >= 0x10000:
                let v = scalar.value - 0x10000
                out += "\\u" + hex(0xD800 + (v >> 10)) + "\\u" + hex(0xDC00 + (v & 0x3FF))
            case _ where style == 0 && scalar.value < 0x10000: out += "\\u" + hex(scalar.value)
            case "/" where style == 1: out += "\\/"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: value % 2 == 0)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static let numbers = ["0", "-0", "7", "1234567", "12345678", "-1.5", "3.25e10", "1E-7", "-12345678901234567890.125e+300"]

    static func space(_ rng: inout SplitMix64) -> String { ["", "", " ", "\n\t", "\r\n  "][Int(rng.next() % 5)] }

    static func value(_ rng: inout SplitMix64, depth: Int) -> String {
        let pick = rng.next() % (depth > 4 ? 5 : 8)
        switch pick {
        case 0, 1: return literal(pieces[Int(rng.next() % UInt64(pieces.count))], &rng)
        case 2: return numbers[Int(rng.next() % UInt64(numbers.count))]
        case 3: return ["true", "false", "null"][Int(rng.next() % 3)]
        case 4: return rng.next() % 2 == 0 ? "[]" : "{}"
        case 5: return container(&rng, depth: depth + 1, isObject: false)
        default: return container(&rng, depth: depth + 1, isObject: true)
        }
    }

    static func container(_ rng: inout SplitMix64, depth: Int, isObject: Bool) -> String {
        let count = Int(rng.next() % 6)
        var members: [String] = []
        for _ in 0..<count {
            let element = value(&rng, depth: depth)
            if isObject {
                let key = literal(pieces[Int(rng.next() % UInt64(pieces.count))], &rng)
                members.append(space(&rng) + key + space(&rng) + ":" + space(&rng) + element + space(&rng))
            } else {
                members.append(space(&rng) + element + space(&rng))
            }
        }
        let body = members.isEmpty ? space(&rng) : members.joined(separator: ",")
        return (isObject ? "{" : "[") + body + (isObject ? "}" : "]")
    }

    static func documents(count: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Array((space(&rng) + container(&rng, depth: 0, isObject: rng.next() % 3 != 0) + space(&rng)).utf8) }
    }

    @Test func readsEveryGeneratedDocumentAsTheResumableParserDoes() {
        for bytes in Self.documents(count: 3000, seed: 37) {
            #expect(Self.agree(bytes), "left to the resumable parser: \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func neverAcceptsAPrefixOrAChangedByteTheResumableParserRejects() {
        var rng = SplitMix64(seed: 5)
        for bytes in Self.documents(count: 100, seed: 11) {
            for end in 0..<bytes.count { Self.agree(Array(bytes[..<end])) }
            for _ in 0..<30 {
                var changed = bytes
                let at = Int(rng.next() % UInt64(bytes.count))
                changed[at] = [0x22, 0x5C, 0x7D, 0x5D, 0x2C, 0x3A, 0x00, 0x1F, 0x80, 0xC0, 0xED, 0xFF, 0x30, 0x75][Int(rng.next() % 14)]
                Self.agree(changed)
            }
        }
    }

    @Test func readsAnEventLikeTheAPIs() throws {
        let results = (0..<5).map { n in
            #"{"type":"web_search_result","title":"Result \#(n)","url":"https://example.com/\#(n)","encrypted_content":"RW5jcnlwdGVkQ29udGVudA==","page_age":null}"#
        }
        let event = #"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[\#(results.joined(separator: ","))]}"#
        #expect(Self.agree(Array(event.utf8)))
        let value = try #require(Self.whole(Array(event.utf8)))
        #expect(value["content"]?[4]?["url"]?.stringValue == "https://example.com/4")
        #expect(value["content"]?[2]?["page_age"]?.isNull == true)
    }

    // MARK: What it leaves to the resumable parser

    @Test func leavesTopLevelScalarsAndEmptyInputToTheResumableParser() throws {
        for text in ["", " ", "1", "\"a\"", "true", "null"] {
            #expect(Self.whole(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(try JSONValue.parse("  12 ") == JSONValue.parse(" 12"))
    }

    @Test func rejectsWhatTheResumableParserRejects() {
        let bad = [
            "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "[01]", "[-]", "[1.]", "[1e]", "[tru]", "[nul]",
            "[\"\\x\"]", "[\"\\u12\"]", "[\"\\uD800\"]", "[\"\\uDC00\"]", "[\"\\uD800\\u0041\"]", "[\"a\u{1}\"]", "{\"a\":1}}", "[1] x",
            "[\"abc", "{\"abc\":", "[\"\\", "{", "[", "[1", "{\"a\":1",
        ]
        for text in bad {
            let bytes = Array(text.utf8)
            #expect(Self.whole(bytes) == nil, "\(text)")
            #expect((try? JSONValue.parse(bytes)) == nil, "\(text)")
        }
        for bytes: [UInt8] in [[0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xFF, 0x22, 0x5D]] {
            #expect(Self.whole(bytes) == nil)
            #expect((try? JSONValue.parse(bytes)) == nil)
        }
    }

    @Test func reportsErrorsWithTheResumableParsersPlaces() {
        for text in ["{\"a\": [1, 2,, 3]}", "{\"a\": \"b\u{7}\"}", "[1] [2]"] {
            let bytes = Array(text.utf8)
            #expect("\(parseWhole(bytes))" == "\(Self.resumable(bytes))", "\(text)")
        }
    }

    // MARK: Limits

    @Test func holdsTheLimitsAtTheirEdges() {
        let deep = String(repeating: "[", count: 6) + String(repeating: "]", count: 6)
        #expect(Self.agree(Array(deep.utf8), options: JSONParserOptions(maxDepth: 6)))
        #expect(Self.whole(Array(deep.utf8), options: JSONParserOptions(maxDepth: 5)) == nil)
        #expect(Self.whole(Array("[]".utf8), options: JSONParserOptions(maxDepth: 0)) == nil)

        // Decoded bytes count: `\u00e9` is two, `\n` one.
        for (text, limit, accepted) in [
            (#"["abcd"]"#, 4, true), (#"["abcde"]"#, 4, false), (#"{"abcd":1}"#, 4, true), (#"{"abcde":1}"#, 4, false),
            (#"["\u00e9\n"]"#, 3, true), (#"["\u00e9\n"]"#, 2, false), (#"[1234567890]"#, 2, true),
            (#"{"a_long_key_x":"\ud83d\ude00"}"#, 12, true), (#"{"a_long_key_x":"\ud83d\ude00"}"#, 11, false),
            (#"{"k":"\ud83d\ude00"}"#, 4, true), (#"{"k":"\ud83d\ude00"}"#, 3, false),
        ] {
            let options = JSONParserOptions(maxStringBytes: limit)
            #expect((Self.whole(Array(text.utf8), options: options) != nil) == accepted, "\(text) at \(limit)")
            Self.agree(Array(text.utf8), options: options)
        }

        let document = Array(#"{"a":[1,2,3]}"#.utf8)
        #expect(Self.agree(document, options: JSONParserOptions(maxBytes: document.count)))
        #expect(Self.whole(document, options: JSONParserOptions(maxBytes: document.count - 1)) == nil)
    }

    // MARK: The short-string window

    /// `_scan_json_short_string` against its definition: the closing
    /// quote's index when it is in the first 32 bytes and nothing before
    /// it needs attention; `n` when the input ends first, fewer than 32
    /// bytes on, with nothing that needs attention; else `n + 1`; at every
    /// place near the input's end.
    @Test func shortStringWindowEndsWhereItsDefinitionSays() {
        var rng = SplitMix64(seed: 3)
        let alphabet: [UInt8] = [0x61, 0x20, 0x7E, 0x22, 0x5C, 0x1F, 0x00, 0x80, 0xC3, 0xFF, 0x7F]
        for _ in 0..<4000 {
            let length = Int(rng.next() % 48)
            var bytes = (0..<length).map { _ in rng.next() % 5 == 0 ? alphabet[Int(rng.next() % UInt64(alphabet.count))] : 0x61 }
            if length > 0, rng.next() % 2 == 0 { bytes[Int(rng.next() % UInt64(length))] = 0x22 }
            let start = length == 0 ? 0 : Int(rng.next() % UInt64(length + 1))
            var expected = length - start < 32 ? length : length + 1
            for j in start..<min(length, start + 32) {
                let b = bytes[j]
                if b == 0x22 {
                    expected = j
                    break
                }
                if b == 0x5C || b < 0x20 || b >= 0x80 {
                    expected = length + 1
                    break
                }
            }
            let found = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { _scan_json_short_string($0, start, length) } ?? length
            }
            #expect(found == expected, "\(bytes) from \(start)")
        }
    }
}
