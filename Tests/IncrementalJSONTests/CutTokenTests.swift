// A key or number cut by chunk ends is collected in a `CutToken`: inline up
// to 24 bytes, then spilled to an array. These check both sides of that
// line, through the type and through the parser.

import Testing

@testable import IncrementalJSON

@Suite struct CutTokenTests {
    /// Pieces of each size in `[1, 2, 5, 24, 25]` give `text` back.
    @Test(arguments: [1, 3, 7, 23, 24, 25, 48, 100])
    func piecesComeBackWhole(length: Int) {
        let text = (0..<length).map { UInt8(truncatingIfNeeded: 0x30 + $0 % 43) }
        for piece in [1, 2, 5, 24, 25] {
            var token = CutToken()
            var start = 0
            while start < text.count {
                let end = min(start + piece, text.count)
                text[start..<end].withUnsafeBufferPointer { token.append($0) }
                start = end
            }
            #expect(token.count == length)
            #expect(token.withBytes { Array($0) } == text, "length \(length), pieces of \(piece)")
            token.removeAll()
            #expect(token.isEmpty)
            // Inline again after a spill: the next token starts clean.
            [UInt8]("7".utf8).withUnsafeBufferPointer { token.append($0) }
            #expect(token.withBytes { Array($0) } == [UInt8]("7".utf8))
        }
    }

    /// Keys and numbers of every length around the inline capacity, cut at
    /// every byte, parse to the value of the whole document.
    @Test func cutKeysAndNumbersParseAsWhole() {
        for length in [1, 6, 7, 8, 23, 24, 25, 26, 40] {
            let key = String(repeating: "k", count: length - 1) + "\\n"
            let number = "-" + String(repeating: "9", count: length) + ".5e-3"
            let document = Array(#"{"\#(key)": \#(number), "b": [\#(number), "\#(key)"]}"#.utf8)
            guard case .success(let whole) = parseWhole(document) else {
                Issue.record("length \(length) does not parse")
                continue
            }
            for cut in 1..<document.count {
                let chunked = parseChunked(document, sizes: [cut, document.count - cut])
                #expect(chunked == .success(whole), "length \(length), cut at \(cut)")
            }
            #expect(parseChunked(document, sizes: Array(repeating: 1, count: document.count)) == .success(whole))
        }
    }

    /// A parser copied inside a cut token, inline or spilled, and the copy
    /// fed something else: each finishes as if parsed alone.
    @Test func aCopyInsideACutTokenIsItsOwn() throws {
        let longKey = String(repeating: "k", count: 30) + "\\t"
        for (start, first, second) in [
            (#"{"a": 12"#, #"5, "b": 1}"#, #".75e2}"#),
            (#"{"\#(longKey)"#, #"x": 1}"#, #"yz": [2]}"#),
        ] {
            var parser = IncrementalJSONParser()
            try parser.feed(start)
            var copy = parser
            try parser.feed(first)
            try copy.feed(second)
            #expect(try parser.finish() == parseWhole(Array((start + first).utf8)).get())
            #expect(try copy.finish() == parseWhole(Array((start + second).utf8)).get())
        }
    }

    /// The string limit counts a cut key's bytes on both sides of a spill.
    @Test func aCutKeyPastTheLimitFails() {
        let options = JSONParserOptions(maxStringBytes: 30)
        let document = Array(#"{"\#(String(repeating: "k", count: 31))": 1}"#.utf8)
        let result = parseChunked(document, sizes: Array(repeating: 1, count: document.count), options: options)
        guard case .failure(let error) = result else {
            Issue.record("a 31-byte key passed a 30-byte limit")
            return
        }
        #expect(error.reason == .stringLimitExceeded(30))
        #expect(error.offset == 32)
    }
}
