// AppendOnlyArray / AppendOnlyText: value semantics with shared storage.

import Testing
@testable import IncrementalJSON

@Suite struct AppendOnlyStorageTests {
    @Test func copiesSeeTheirOwnPrefix() {
        var writer = AppendOnlyArray<Int>()
        var snapshots: [AppendOnlyArray<Int>] = []
        for index in 0..<1_000 {
            writer.append(index)
            snapshots.append(writer)
        }
        for (index, snapshot) in snapshots.enumerated() {
            #expect(snapshot.count == index + 1)
            #expect(snapshot.last == index)
        }
        #expect(Array(snapshots[9]) == Array(0..<10))
    }

    @Test func twoWritersFork() {
        var first = AppendOnlyArray<Int>([1, 2, 3])
        var second = first
        first.append(4)
        second.append(40)
        #expect(Array(first) == [1, 2, 3, 4])
        #expect(Array(second) == [1, 2, 3, 40])
        #expect(first._storage !== second._storage)
        var third = first
        third.append(contentsOf: [5, 6])
        #expect(Array(first) == [1, 2, 3, 4])
        #expect(Array(third) == [1, 2, 3, 4, 5, 6])
    }

    @Test func appendingInPlaceDoesNotCopy() {
        var writer = AppendOnlyArray<UInt8>()
        writer.reserveCapacity(1_000)
        let storage = writer._storage
        let snapshot = writer
        for _ in 0..<1_000 { writer.append(7) }
        #expect(writer._storage === storage)
        #expect(snapshot.count == 0)
        #expect(writer.count == 1_000)
    }

    @Test func equalityAndHashing() {
        let a = AppendOnlyArray([1, 2, 3])
        let b = AppendOnlyArray([1, 2, 3])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != AppendOnlyArray([1, 2]))
        #expect(AppendOnlyArray<Int>() == [])
        #expect(a.description == "[1, 2, 3]")
    }

    @Test func textHidesACutCharacter() {
        var text = AppendOnlyText("caf")
        text.append(utf8: [0xC3])
        #expect(text.string == "caf")
        #expect(text.endsInsideCharacter)
        text.append(utf8: [0xA9])
        #expect(text.string == "café")
        #expect(!text.endsInsideCharacter)
        var emoji = AppendOnlyText()
        emoji.append(utf8: [0xF0, 0x9F, 0x98])
        #expect(emoji.string == "")
        emoji.append(utf8: [0x80])
        #expect(emoji.string == "😀")
        #expect(AppendOnlyText("x").utf8Count == 1)
    }

    @Test func compactEncodingOfInvalidTextIsStillValidJSON() throws {
        var text = AppendOnlyText("a")
        text.append(utf8: [0xFF, 0x22, 0x0A, 0x01])
        let value = JSONValue(.string(text))
        #expect(value.compactJSON == "\"a\u{FFFD}\\\"\\n\\u0001\"")
        #expect(try JSONValue.parse(value.compactJSON).stringValue == "a\u{FFFD}\"\n\u{1}")
    }
}
