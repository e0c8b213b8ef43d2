// The parser reads a short plain key that ends in its chunk, and the colon
// and value start after it, in one step (`beginKey`) instead of one trip
// through its state loop each. Fed one byte at a time it never takes that
// lane (no key's closing quote is in the chunk of its opening one), so the
// byte-by-byte parse is the oracle: every split of each document must give
// the same value or error, and the same partial value at the split.

import Testing

@testable import IncrementalJSON

@Suite struct KeyLaneTests {
    static let documents = [
        #"{"": 1, "a": "x", "abcdefg": [true, null], "abcdefgh": {"k" : false}, "a\"b": 2, "é": 3}"#,
        #"{"id": 12345, "score": 12.5, "name": "word word word ", "tags": ["a", "b"], "ok": true}"#,
        #"{"k":1 , "x"   :   "y","n":-0.5e3,"f":false}"#,
        #"[{"a":{"b":{"c":{"d":[]}}}}, {"a" : {}}]"#,
        #"{"a" 1}"#,
        #"{"a": 1,}"#,
        #"{"ab": 1, "cd": }"#,
        #"{"abc": 1, "abcd": 2}"#,
    ]

    /// The value or error, as text (errors carry their offsets).
    static func outcome(_ bytes: [UInt8], sizes: [Int], options: JSONParserOptions) -> String {
        "\(parseChunked(bytes, sizes: sizes, options: options))"
    }

    @Test(arguments: [nil, 0, 1, 2, 3, 7, 8] as [Int?])
    func everySplitAgreesWithByteByByte(limit: Int?) {
        let options = JSONParserOptions(maxStringBytes: limit)
        for document in Self.documents {
            let bytes = Array(document.utf8)
            let oracle = Self.outcome(bytes, sizes: chunkSizes(count: bytes.count, fixed: 1), options: options)
            #expect(Self.outcome(bytes, sizes: [bytes.count], options: options) == oracle, "\(document), whole")
            // The partial value after each prefix, byte by byte.
            var stepwise = IncrementalJSONParser(options: options)
            var partials: [String] = [""]
            for byte in bytes {
                do throws(JSONParseError) { try stepwise.feed([byte]) } catch { break }
                partials.append("\(String(describing: stepwise.value))")
            }
            for cut in 1..<bytes.count {
                #expect(
                    Self.outcome(bytes, sizes: [cut, bytes.count - cut], options: options) == oracle,
                    "\(document) split at \(cut), limit \(String(describing: limit))")
                var parser = IncrementalJSONParser(options: options)
                do throws(JSONParseError) {
                    try parser.feed(Array(bytes[..<cut]))
                } catch {
                    continue
                }
                if cut < partials.count {
                    #expect("\(String(describing: parser.value))" == partials[cut], "\(document) at \(cut)")
                }
            }
        }
    }
}
