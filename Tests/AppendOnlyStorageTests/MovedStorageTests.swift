// `_append(_:moved:)` tells a writer that published its storage (the JSON
// parser, whose snapshots hold its columns) when an append could not claim
// its slots in place: readers made before may hold storage the value no
// longer writes to. It must say so on every move to other storage, growth
// or fork; it may also say so when a storage no one else held grew in
// place (`realloc`), and never otherwise.

import Testing

@testable import AppendOnlyStorage

@Suite struct MovedStorageTests {
    /// The address of `array`'s storage, nil without one.
    static func storage(of array: AppendOnlyArray<UInt64>) -> ObjectIdentifier? {
        array._storage.map(ObjectIdentifier.init)
    }

    /// Appends one element, or two with one claim, and checks `moved`: set
    /// whenever the storage changed, and otherwise only when it grew.
    /// Returns whether it was set.
    @discardableResult
    static func append(_ value: UInt64, pair: Bool, to array: inout AppendOnlyArray<UInt64>) -> Bool {
        let (before, capacity) = (storage(of: array), array._storage?.capacity)
        var moved = false
        if pair {
            array._append(value, value, moved: &moved)
        } else {
            array._append(value, moved: &moved)
        }
        let changed = storage(of: array) != before
        if changed { #expect(moved, "value \(value), pair \(pair): a move unsaid") }
        if moved && !changed { #expect(array._storage?.capacity != capacity, "value \(value), pair \(pair)") }
        return moved
    }

    @Test(arguments: [false, true])
    func growthSetsTheFlagAndNothingElseDoes(pair: Bool) {
        var array = AppendOnlyArray<UInt64>()
        // A snapshot kept across growth, as the parser's reader is.
        var kept: [AppendOnlyArray<UInt64>] = []
        var moves = 0
        for value in 0..<5_000 as Range<UInt64> {
            if value % 97 == 0 { kept.append(array) }
            if Self.append(value, pair: pair, to: &array) { moves += 1 }
        }
        #expect(array.count == (pair ? 10_000 : 5_000))
        // Doubling from empty: a handful of moves, not one per append.
        #expect((5...20).contains(moves), "\(moves) moves")
    }

    /// A copy that appended first makes the original fork on its next
    /// append: a move without growth.
    @Test(arguments: [false, true])
    func aForkSetsTheFlag(pair: Bool) {
        var array = AppendOnlyArray<UInt64>()
        array.reserveCapacity(64)
        Self.append(1, pair: pair, to: &array)
        var copy = array
        copy.append(2)
        let before = Self.storage(of: array)
        var moved = false
        if pair {
            array._append(3, 3, moved: &moved)
        } else {
            array._append(3, moved: &moved)
        }
        #expect(moved)
        #expect(Self.storage(of: array) != before)
        #expect(array.withUnsafeBufferPointer { Array($0) } == (pair ? [1, 1, 3, 3] : [1, 3]))
        #expect(copy.withUnsafeBufferPointer { Array($0) } == (pair ? [1, 1, 2] : [1, 2]))
    }

    /// Byte appends of up to 16 bytes are copied as words; every length
    /// and offset lands each byte where it belongs.
    @Test func shortByteAppendsCopyEveryByte() {
        let source = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var expected: [UInt8] = []
        var array = AppendOnlyArray<UInt8>()
        for length in 0...17 {
            for offset in [0, 1, 7, 23] {
                source[offset..<offset + length].withUnsafeBufferPointer { array.append(contentsOf: $0) }
                expected += source[offset..<offset + length]
            }
        }
        #expect(array.withUnsafeBufferPointer { Array($0) } == expected)
    }
}
