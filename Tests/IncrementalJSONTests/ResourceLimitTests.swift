// Resource limits of the JSON parser: nesting 100,000 deep and a string that
// never ends both end in a typed `JSONParseError` at the configured limit;
// the explicit stack never recurses, so depth cannot overflow the call stack.

import Testing

@testable import IncrementalJSON

@Suite struct ResourceLimitTests {
    @Test func hundredThousandDeepArraysStopAtMaxDepth() {
        let document = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        var parser = IncrementalJSONParser()
        do throws(JSONParseError) {
            try parser.feed(document)
            Issue.record("100,000 open arrays accepted")
        } catch {
            #expect(error.offset == JSONParserOptions().maxDepth, "\(error)")
        }
    }

    @Test func deepObjectsStopAtASmallLimit() {
        let document = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        var parser = IncrementalJSONParser(options: JSONParserOptions(maxDepth: 8))
        do throws(JSONParseError) {
            try parser.feed(document)
            Issue.record("deep objects accepted")
        } catch {
            #expect(error.offset == 8 * 5, "\(error)")
        }
        // The snapshot built before the error stays readable.
        #expect(parser.value?.objectValue != nil)
    }

    /// Depth within a raised limit, far beyond what a recursive parser
    /// survives: parsing is iterative. The limit still matters: releasing a
    /// value tree recurses (about 8 frames per level, in the runtime's
    /// release of nested storage), so 30,000 levels overflow a 512 KiB
    /// thread stack. Keep `maxDepth` well under ~10,000 (the default is 512).
    @Test(arguments: [10_000])
    func deepNestingWithinARaisedLimitParses(depth: Int) throws {
        let document = [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        var parser = IncrementalJSONParser(options: JSONParserOptions(maxDepth: depth))
        try parser.feed(document)
        let value = try parser.finish()
        #expect(value.arrayValue?.count == 1)
    }

    /// A string that never ends, fed 64 KiB at a time, stops at
    /// `maxStringBytes`: the parser holds at most the limit.
    @Test func neverEndingStringStopsAtMaxStringBytes() {
        var parser = IncrementalJSONParser(options: JSONParserOptions(maxStringBytes: 100_000))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        var fed = 0
        do throws(JSONParseError) {
            try parser.feed(Array(#"{"text":""#.utf8))
            fed = 9
            for _ in 0..<1_000 {
                try parser.feed(chunk)
                fed += chunk.count
            }
            Issue.record("a 64 MiB string was accepted")
        } catch {
            #expect(error.offset == 9 + 100_000, "\(error)")
            #expect(fed < 9 + 100_000 + chunk.count)
        }
        #expect((parser.value?["text"]?.stringValue?.utf8.count ?? 0) <= 100_000)
    }

    @Test func maxBytesStopsAnEndlessDocument() {
        var parser = IncrementalJSONParser(options: JSONParserOptions(maxBytes: 1_000))
        let chunk = Array("[1,2,3,4,5,6,7,8,9,".utf8)
        var thrown: JSONParseError?
        for _ in 0..<1_000 where thrown == nil {
            do throws(JSONParseError) { try parser.feed(chunk) } catch { thrown = error }
        }
        #expect(thrown?.offset == 1_000, "\(thrown.map { "\($0)" } ?? "no error")")
    }

    /// The document limit keeps every node field in its width: the densest
    /// array a document within the limit can hold (`[0,0,...]`, two bytes an
    /// element) still counts its elements in 29 bits, and a larger
    /// `maxBytes` is capped to the limit. (Parsing 1 GiB here would take
    /// several GiB of nodes; the widths are checked directly.)
    @Test func documentLimitKeepsCountsInTheirField() {
        let densestArray = (NodeLimits.maxDocumentBytes - 1) / 2
        #expect(densestArray <= (1 << 29) - 1)
        let node = Node(.array, start: Int(UInt32.max), count: densestArray)
        #expect(node.tag == .array && node.count == densestArray && node.start == Int(UInt32.max))
        #expect(IncrementalJSONParser().documentByteLimit == 1 << 30)
        #expect(IncrementalJSONParser(options: JSONParserOptions(maxBytes: 8 << 30)).documentByteLimit == 1 << 30)
        #expect(IncrementalJSONParser(options: JSONParserOptions(maxBytes: 1_000)).documentByteLimit == 1_000)
    }
}
