// `_withInlineBytes`: the bytes that short text, short numbers and cut
// tokens keep inside integer words, in memory order, from any offset.

import Testing

@testable import AppendOnlyStorage

@Suite struct InlineBytesTests {
    @Test func aWordsBytesComeInMemoryOrder() {
        let word = UInt64(0x0807_0605_0403_0201).littleEndian
        #expect(_withInlineBytes(of: word, count: 8) { Array($0) } == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(_withInlineBytes(of: word, offset: 1, count: 3) { Array($0) } == [2, 3, 4])
        #expect(_withInlineBytes(of: word, offset: 8, count: 0) { $0.count } == 0)
    }

    @Test func twoWordsReadAcrossTheirBoundary() {
        let words = (UInt64(0x6968).littleEndian, UInt64(0x21).littleEndian)
        #expect(_withInlineBytes(of: words, count: 2) { String(decoding: $0, as: UTF8.self) } == "hi")
        #expect(_withInlineBytes(of: words, offset: 7, count: 2) { Array($0) } == [0, 0x21])
    }

    @Test func aThrownErrorKeepsItsType() {
        struct Refused: Error, Equatable {}
        #expect(throws: Refused()) {
            try _withInlineBytes(of: UInt8(1), count: 1) { (_) throws(Refused) -> Void in throw Refused() }
        }
    }
}
