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

    /// Plain data in storage nobody else holds grows in place (realloc);
    /// as soon as a copy exists, growing forks instead and the copy keeps
    /// its bytes.
    @Test func unsharedPlainStorageGrowsInPlaceSharedStorageForks() {
        var writer = AppendOnlyArray<UInt8>()
        for index in 0..<100 { writer.append(UInt8(index)) }
        let before = writer._storage.map(ObjectIdentifier.init)
        for index in 100..<200_000 { writer.append(UInt8(truncatingIfNeeded: index)) }
        #expect(writer._storage.map(ObjectIdentifier.init) == before, "unshared: grown in place")
        #expect(writer.elementsEqual((0..<200_000).lazy.map { UInt8(truncatingIfNeeded: $0) }))

        let held = writer
        for index in 200_000..<1_000_000 { writer.append(UInt8(truncatingIfNeeded: index)) }
        #expect(writer._storage !== held._storage, "shared: forked into new storage")
        #expect(held.count == 200_000)
        #expect(held.elementsEqual((0..<200_000).lazy.map { UInt8(truncatingIfNeeded: $0) }))
        #expect(writer.elementsEqual((0..<1_000_000).lazy.map { UInt8(truncatingIfNeeded: $0) }))
    }

    /// Snapshots read on other tasks while the writer keeps growing the
    /// same storage (in place whenever no snapshot is alive at that moment)
    /// always see exactly their own prefix.
    @Test func snapshotsReadElsewhereWhileTheWriterGrows() async {
        let (stream, continuation) = AsyncStream<AppendOnlyArray<UInt8>>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let reader = Task {
            var checked = 0
            for await snapshot in stream {
                let intact = snapshot.withUnsafeBufferPointer { bytes in
                    bytes.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset &* 7) }
                }
                if !intact { return -1 }
                checked += 1
            }
            return checked
        }
        var writer = AppendOnlyArray<UInt8>()
        for index in 0..<400_000 {
            writer.append(UInt8(truncatingIfNeeded: index &* 7))
            if index % 4_000 == 0 { continuation.yield(writer) }
        }
        continuation.finish()
        let checked = await reader.value
        #expect(checked > 0, "the reader saw snapshots, all intact (-1: one was not)")
        #expect(writer.count == 400_000)
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
