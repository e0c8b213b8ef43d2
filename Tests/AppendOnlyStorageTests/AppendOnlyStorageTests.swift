// AppendOnlyArray / AppendOnlyText: value semantics with shared storage.

import Foundation
import Synchronization
import Testing

@testable import AppendOnlyStorage

/// Lets threads start a racing step together: each spins until all arrived.
final class StartingGate: Sendable {
    private let arrived = Atomic(0)
    private let parties: Int
    init(parties: Int) { self.parties = parties }
    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < parties {}
    }
}

// Serialized: the region cap is process-wide, and one test fills it.
@Suite(.serialized) struct AppendOnlyStorageTests {
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

    /// A writer that claims the free room and fills part of it in place:
    /// what it commits is counted, the rest is given back, and a copy
    /// that appends while the room is claimed forks instead of writing
    /// into it.
    @Test func claimedRoomIsWrittenInPlaceAndTheRestGivenBack() throws {
        var writer = AppendOnlyArray<UInt8>([1, 2])
        writer.reserveCapacity(64)
        let storage = writer._storage
        var copy = writer
        let tooLittle = writer._claimRoom(minimum: 65)
        #expect(tooLittle == nil)
        let claimed = writer._claimRoom(minimum: 8)
        let room = try #require(claimed)
        #expect(room.count == 62)
        copy.append(9)
        #expect(copy._storage !== storage)
        room[0] = 3
        room[1] = 4
        writer._commitRoom(2)
        #expect(Array(writer) == [1, 2, 3, 4])
        #expect(Array(copy) == [1, 2, 9])
        // The rest went back: an append lands right after, in place.
        writer.append(5)
        #expect(writer._storage === storage)
        #expect(Array(writer) == [1, 2, 3, 4, 5])
        // Given back whole, nothing is counted.
        let again = writer._claimRoom(minimum: 1)
        #expect(again != nil)
        writer._commitRoom(0)
        #expect(Array(writer) == [1, 2, 3, 4, 5])
        writer.append(6)
        #expect(writer._storage === storage)
        // No storage, or a copy behind the writer's count: no room.
        var empty = AppendOnlyArray<UInt8>()
        let none = empty._claimRoom(minimum: 0)
        #expect(none == nil)
        var behind = writer
        writer.append(7)
        let behindRoom = behind._claimRoom(minimum: 1)
        #expect(behindRoom == nil)
    }

    /// The growing claim: storage short of room (or none) grows first,
    /// after the caller's hook, and the claim holds; room that another
    /// value took is left alone (nil, no growth), as the plain claim does.
    @Test func aClaimShortOfRoomGrowsFirst() throws {
        var hooks = 0
        var empty = AppendOnlyArray<UInt8>()
        let fresh = try #require(empty._claimRoom(minimum: 16) { hooks += 1 })
        #expect(fresh.count >= 16 && hooks == 1)
        fresh[0] = 7
        empty._commitRoom(1)
        #expect(Array(empty) == [7])
        var writer = AppendOnlyArray<UInt8>([1, 2])
        writer.reserveCapacity(8)
        let kept = writer
        let room = try #require(writer._claimRoom(minimum: 32) { hooks += 1 })
        #expect(room.count >= 32 && hooks == 2)
        #expect(writer._storage !== kept._storage)
        room[0] = 3
        writer._commitRoom(1)
        #expect(Array(writer) == [1, 2, 3] && Array(kept) == [1, 2])
        // Room there, but claimed by a copy that appended: no growth, nil.
        var behind = writer
        writer.append(4)
        let taken = behind._claimRoom(minimum: 1) { hooks += 1 }
        #expect(taken == nil && hooks == 2)
    }

    /// Small plain data in storage nobody else holds grows in place
    /// (realloc); as soon as a copy exists, growing forks instead and the
    /// copy keeps its bytes.
    @Test func unsharedPlainStorageGrowsInPlaceSharedStorageForks() {
        var writer = AppendOnlyArray<UInt8>()
        for index in 0..<100 { writer.append(UInt8(index)) }
        let before = writer._storage.map(ObjectIdentifier.init)
        for index in 100..<20_000 { writer.append(UInt8(truncatingIfNeeded: index)) }
        #expect(writer._storage.map(ObjectIdentifier.init) == before, "unshared: grown in place")
        #expect(writer._storage?._isMalloced == true)

        let held = writer
        for index in 20_000..<40_000 { writer.append(UInt8(truncatingIfNeeded: index)) }
        #expect(writer._storage !== held._storage, "shared: forked into new storage")
        #expect(held.count == 20_000)
        #expect(held.elementsEqual((0..<20_000).lazy.map { UInt8(truncatingIfNeeded: $0) }))
        #expect(writer.elementsEqual((0..<40_000).lazy.map { UInt8(truncatingIfNeeded: $0) }))
    }

    /// Large plain data lives in a reserved region that grows where it is
    /// even while copies hold it (each keeps exactly its prefix), until the
    /// reservation is used up; then it forks once into a larger region.
    @Test func largePlainStorageGrowsInPlaceWhileShared() throws {
        // Bytes 0, 3, 6, ... (mod 256), compared with memcmp; extended once
        // the reservation is known (a region reused from the pool may be
        // larger than this buffer asked for).
        func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 3) } }
        var expected = pattern(1 << 20)
        var writer = AppendOnlyArray<UInt8>()
        var held: [AppendOnlyArray<UInt8>] = []
        var next = 0
        func grow(to end: Int) {
            while next < end {
                let stop = min(end, next + 1000)
                expected.withUnsafeBufferPointer { writer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[next..<stop])) }
                next = stop
                held.append(writer)
            }
        }
        grow(to: 1 << 20)
        let storage = try #require(writer._storage)
        guard storage._allocation == .reserved else {
            Issue.record("expected a reserved region")
            return
        }
        let reservedBytes = storage.capacity
        #expect(held.allSatisfy { $0.count < 65_536 || $0._storage === storage }, "no fork once reserved")
        // Past the reservation the writer moves on; the copies stay intact.
        #expect(reservedBytes >= _ReservedRegion.minimumReservation)
        // A pooled region is at most four times the reservation asked for.
        try #require(reservedBytes <= 4 * 64 * 65_536 * 4, "a region far larger than asked for")
        expected = pattern(reservedBytes + 10)
        grow(to: reservedBytes + 10)
        #expect(writer._storage !== storage)
        for copy in held.enumerated().filter({ $0.offset % 700 == 0 }).map(\.element) + held.suffix(2) + [writer] {
            #expect(copy.withUnsafeBufferPointer { Array($0) } == Array(expected[..<copy.count]))
        }
    }

    /// Two copies at the end of one reserved region append on two threads
    /// at once: one wins the claim and the other forks, so neither sees the
    /// other's bytes.
    @Test func copiesAppendingOnTwoThreadsNeverShareSlots() {
        for round in 0..<50 {
            var base = AppendOnlyArray<UInt8>([0])
            let holder = base  // growing while held is what makes a region
            base.reserveCapacity(65_536)
            for _ in 1..<65_536 { base.append(0) }
            #expect(base._storage?._allocation == .reserved && holder.count == 1)
            let start = base
            // Dedicated threads, not the task pool: the gate spins.
            let gate = StartingGate(parties: 2)
            let results = Mutex([UInt8: Bool]())
            let done = DispatchSemaphore(value: 0)
            for byte: UInt8 in [1, 2] {
                Thread {
                    var mine = start
                    let piece = [UInt8](repeating: byte, count: 500)
                    gate.arriveAndWait()
                    for _ in 0..<100 { mine.append(contentsOf: piece) }
                    let intact = mine.count == 115_536 && mine.dropFirst(65_536).allSatisfy { $0 == byte }
                    results.withLock { $0[byte] = intact }
                    done.signal()
                }.start()
            }
            done.wait()
            done.wait()
            #expect(results.withLock { $0 } == [1: true, 2: true], "round \(round)")
            #expect(start.allSatisfy { $0 == 0 })
        }
    }

    /// A buffer gets a region when it grows while another value holds it,
    /// or grows past `privateThreshold` on its own; a first buffer, a small
    /// private one, or a one-off copy of text does not.
    @Test func whichBuffersGetARegion() {
        var first = AppendOnlyArray<UInt8>()
        first.reserveCapacity(1 << 20)
        #expect(first._storage?._isMalloced == true)
        for _ in 0..<(1 << 16) { first.append(1) }
        #expect(first._storage?._isMalloced == true, "a first buffer stays in malloc")
        let copy = AppendOnlyText(String(repeating: "x", count: 10_000)).utf8
        #expect(copy._storage?._isMalloced == true)
        let held = first
        first.append(contentsOf: [UInt8](repeating: 2, count: 1 << 20))
        #expect(first._storage?._allocation == .reserved && held.count == 1 << 16)

        var grown = AppendOnlyArray<UInt8>()
        while grown.count < _ReservedRegion.privateThreshold / 8 { grown.append(3) }
        #expect(grown._storage?._isMalloced == true, "small private growth stays in malloc")
        while grown.count <= _ReservedRegion.privateThreshold { grown.append(3) }
        #expect(grown._storage?._allocation == .reserved, "large private growth moves into a region")
        #expect(grown.count == _ReservedRegion.privateThreshold + 1 && grown.allSatisfy { $0 == 3 })
    }

    // Pool tests use regions that are never mapped or released: the pool
    // only keeps them, and these tests drive a pool of their own.
    func fakeRegion(_ tag: Int, _ bytes: Int) throws -> _ReservedRegion {
        _ReservedRegion(base: try #require(UnsafeMutableRawPointer(bitPattern: tag << 12)), reservedBytes: bytes)
    }

    func base(_ tag: Int) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: tag << 12) }

    /// The pool keeps at most its number of regions and its written bytes,
    /// evicting the oldest waiting ones to make room, and refuses a region
    /// whose pages alone are over the bound.
    @Test func regionPoolEvictsTheOldestToStayInBounds() throws {
        var pool = RegionPool(maxRegions: 3, maxBytes: 100 << 10)
        var unmapped = pool.give(try fakeRegion(1, 4 << 20), written: 40 << 10)
        unmapped += pool.give(try fakeRegion(2, 4 << 20), written: 40 << 10)
        #expect(unmapped.isEmpty)
        unmapped = pool.give(try fakeRegion(3, 4 << 20), written: 30 << 10)
        #expect(unmapped.map(\.base) == [base(1)], "110 KiB written: the oldest goes")
        unmapped = pool.give(try fakeRegion(4, 4 << 20), written: 0)
        #expect(unmapped.isEmpty)
        unmapped = pool.give(try fakeRegion(5, 4 << 20), written: 0)
        #expect(unmapped.map(\.base) == [base(2)], "four regions: the oldest goes")
        #expect(pool.regions.map(\.region.base) == [base(3), base(4), base(5)])
        #expect(pool.writtenBytes == 30 << 10)
        unmapped = pool.give(try fakeRegion(6, 4 << 20), written: 101 << 10)
        #expect(unmapped.map(\.base) == [base(6)], "over the bound alone: unmapped, nothing evicted")
        #expect(pool.regions.count == 3)
        unmapped = pool.drain()
        #expect(unmapped.map(\.base) == [base(3), base(4), base(5)])
        #expect(pool.regions.isEmpty && pool.writtenBytes == 0)
    }

    /// A buffer gets the smallest waiting region that fits, never one more
    /// than four times what it asks for, the newest among equals.
    @Test func regionPoolLendsTheSmallestFit() throws {
        var pool = RegionPool(maxRegions: 8, maxBytes: 1 << 30)
        for (tag, size) in [(1, 64 << 20), (2, 16 << 20), (3, 4 << 20), (4, 16 << 20)] {
            _ = pool.give(try fakeRegion(tag, size), written: 0)
        }
        var lent: [UnsafeMutableRawPointer?] = []
        for asked in [512 << 10, 8 << 20, 8 << 20, 8 << 20, 4 << 20, 128 << 20, 16 << 20] {
            lent.append(pool.take(fitting: asked)?.base)
        }
        // 512 KiB: 4 MiB is more than four times that. 8 MiB: the smallest
        // fit, newest first, then the other 16 MiB one, then nothing (64 MiB
        // is more than four times 8). 128 MiB: nothing is that large.
        #expect(lent == [nil, base(4), base(2), nil, base(3), nil, base(1)])
        #expect(pool.regions.isEmpty && pool.lent.count == 4)
    }

    /// A region lent out comes back counted with what was written before it
    /// was lent, when that is more than its borrower wrote: those pages are
    /// still resident.
    @Test func regionPoolRemembersWhatALentRegionHeld() throws {
        var pool = RegionPool(maxRegions: 8, maxBytes: 20 << 20)
        _ = pool.give(try fakeRegion(1, 64 << 20), written: 15 << 20)
        let first = pool.take(fitting: 64 << 20)
        let lent = try #require(first)
        #expect(pool.writtenBytes == 0 && pool.lent.count == 1)
        var unmapped = pool.give(lent, written: 300 << 10)
        #expect(unmapped.isEmpty)
        #expect(pool.writtenBytes == 15 << 20 && pool.lent.isEmpty)
        let second = pool.take(fitting: 64 << 20)
        let again = try #require(second)
        unmapped = pool.give(again, written: 18 << 20)
        #expect(unmapped.isEmpty)
        #expect(pool.writtenBytes == 18 << 20, "a borrower that wrote more counts its own")
        // Another region's 3 MiB do not fit beside 18: the older goes.
        unmapped = pool.give(try fakeRegion(2, 4 << 20), written: 3 << 20)
        #expect(unmapped.map(\.base) == [base(1)])
    }

    /// Threads that each grow and drop buffers in regions (taking from and
    /// giving to the shared pool, evicting, unmapping) never get a region
    /// another live buffer is using, and each sees only its own bytes.
    @Test func buffersOnManyThreadsNeverShareARegion() {
        let live = Mutex(Set<UInt>())
        let failures = Mutex([String]())
        let reserved = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        let threads = 4
        for thread in 0..<threads {
            Thread {
                for round in 0..<25 {
                    let fill = UInt8(truncatingIfNeeded: thread &* 64 &+ round)
                    var buffer = AppendOnlyArray<UInt8>()
                    // Past the private threshold, to sizes that ask for
                    // regions of different sizes from round to round.
                    let size = _ReservedRegion.privateThreshold * (1 + round % 3) + round
                    let piece = [UInt8](repeating: fill, count: 1000)
                    while buffer.count < size { buffer.append(contentsOf: piece) }
                    guard let storage = buffer._storage, storage._allocation == .reserved else { continue }
                    reserved.withLock { $0 += 1 }
                    let address = UInt(bitPattern: UnsafeMutableRawPointer(storage.base))
                    let fresh = live.withLock { $0.insert(address).inserted }
                    if !fresh { failures.withLock { $0.append("thread \(thread) round \(round): region in use") } }
                    for _ in 0..<50 { buffer.append(contentsOf: piece) }
                    let intact = buffer.withUnsafeBufferPointer { bytes in
                        guard let start = bytes.baseAddress else { return false }
                        return stride(from: 0, to: bytes.count, by: piece.count).allSatisfy { offset in
                            memcmp(start + offset, piece, Swift.min(piece.count, bytes.count - offset)) == 0
                        }
                    }
                    if !intact {
                        failures.withLock { $0.append("thread \(thread) round \(round): foreign bytes") }
                    }
                    _ = live.withLock { $0.remove(address) }
                }
                done.signal()
            }.start()
        }
        for _ in 0..<threads { done.wait() }
        #expect(failures.withLock { $0 } == [])
        #expect(reserved.withLock { $0 } > 50, "most buffers got a region")
    }

    /// Regions are capped, in number and in address space (each costs a
    /// mapping, and address space some systems have little of): at the cap
    /// a buffer falls back to malloc, and a released region makes room.
    @Test func reservedRegionsAreCapped() {
        var buffers: [AppendOnlyArray<UInt8>] = []
        var atCap = false
        for _ in 0...(_ReservedRegion.maxLiveRegions) {
            var buffer = AppendOnlyArray<UInt8>([0])
            let holder = buffer
            buffer.reserveCapacity(_ReservedRegion.threshold)
            _ = holder
            if buffer._storage?._isMalloced == true {
                // Other suites may hold regions too: the cap counts them all.
                let regions = _ReservedRegion.liveRegions.load(ordering: .relaxed)
                let bytes = _ReservedRegion.reservedBytesInUse.load(ordering: .relaxed)
                atCap =
                    regions == _ReservedRegion.maxLiveRegions
                    || bytes + _ReservedRegion.minimumReservation > _ReservedRegion.maxReservedBytes
                break
            }
            buffers.append(buffer)
        }
        #expect(atCap, "a buffer fell back to malloc below the cap, or none did")
        #expect(buffers.count > 100, "regions were made before the cap")
        buffers.removeAll()
        var next = AppendOnlyArray<UInt8>([0])
        let holder = next
        next.reserveCapacity(_ReservedRegion.threshold)
        _ = holder
        #expect(next._storage?._allocation == .reserved, "a released region made room for a new one")
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
}
