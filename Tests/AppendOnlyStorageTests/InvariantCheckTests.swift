// The storage's invariants, checked where they can break: after every
// mutation (debug builds compile `_checkInvariants()` into each one), on
// snapshots held while a writer keeps appending on another thread, and, to
// show the checks are live, on a value whose storage was deliberately broken.

import Foundation
import Synchronization
import Testing

@testable import AppendOnlyStorage

@Suite struct InvariantCheckTests {
    /// Debug builds (the ones `swift test` makes) check invariants; a build
    /// without the flag would make every test here vacuous, so say so.
    @Test func debugBuildsCompileTheChecksIn() {
        #if DEBUG
        #expect(internalChecksEnabled, "APPEND_ONLY_STORAGE_INTERNAL_CHECKS is not set in a debug build")
        #endif
    }

    /// A value whose count runs past what its storage claimed is caught by
    /// the check, so the checks in the other tests can fail.
    @Test func aBrokenArrayTraps() async {
        guard internalChecksEnabled else { return }
        await #expect(processExitsWith: .failure) {
            let array = AppendOnlyArray<UInt8>([1, 2, 3])
            array._storage?.claimed.store(1, ordering: .relaxed)
            array._checkInvariants()
        }
    }

    /// A region off a page boundary, given to a pool, traps (the pool
    /// checks each region it keeps).
    @Test func aBrokenRegionTraps() async {
        guard internalChecksEnabled else { return }
        await #expect(processExitsWith: .failure) {
            guard let base = UnsafeMutableRawPointer(bitPattern: (1 << 12) + 1) else { return }
            var pool = RegionPool(maxRegions: 2, maxBytes: 1 << 20)
            _ = pool.give(_ReservedRegion(base: base, reservedBytes: 1 << 20), written: 0)
        }
    }

    /// Every kind of mutation, each checked on the way (the checks run
    /// inside the calls), and every value kept along the way checked again
    /// at the end: forks, exact reservations, growth by realloc, a move into
    /// a region, and text crossing from inline to shared storage.
    @Test func everyMutationKeepsTheInvariants() {
        var writer = AppendOnlyArray<UInt64>()
        var kept: [AppendOnlyArray<UInt64>] = []
        for index in 0..<70_000 {
            if index % 997 == 0 { kept.append(writer) }
            if index % 10_007 == 0 { writer.reserveCapacity(writer.count + 5_000) }
            if index % 2 == 0 {
                writer.append(UInt64(index))
            } else {
                var moved = false
                writer._append(UInt64(index), UInt64(index), moved: &moved)
            }
        }
        var fork = kept[3]
        fork.append(contentsOf: [1, 2, 3])
        kept.append(fork)
        for value in kept + [writer] { value._checkInvariants() }
        #expect(writer._storage?._allocation == .reserved, "grew into a region")
        #expect(fork.count == kept[3].count + 3)

        var text = AppendOnlyText()
        var texts: [AppendOnlyText] = []
        for index in 0..<200 {
            text.append(index % 7 == 0 ? "é" : "a")
            texts.append(text)
        }
        var slice = AppendOnlyText(_slice: text.utf8._storage, start: 10, count: 100)
        slice.append("tail")
        for value in texts + [slice, text] { value._checkInvariants() }
        #expect(slice.utf8Count == 104)
    }

    /// One writer appends while reader threads take the snapshots it hands
    /// them and, while it keeps appending into the same storage, check the
    /// invariants and the bytes of each: a snapshot's prefix never changes.
    @Test func snapshotsCheckedOnOtherThreadsWhileOneWriterAppends() {
        let readers = 3
        let handOff = Mutex([AppendOnlyArray<UInt32>]())
        let finished = Atomic(false)
        let failures = Mutex([String]())
        let checked = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        for reader in 0..<readers {
            Thread {
                var held: [AppendOnlyArray<UInt32>] = []
                while true {
                    let writerDone = finished.load(ordering: .acquiring)
                    let batch = handOff.withLock { all -> [AppendOnlyArray<UInt32>] in
                        defer { all.removeAll() }
                        return all
                    }
                    if batch.isEmpty {
                        if writerDone { break }
                        sched_yield()
                        continue
                    }
                    held += batch
                    // Re-check everything held, not just the new ones: old
                    // snapshots must stay intact while the writer goes on.
                    for snapshot in held {
                        snapshot._checkInvariants()
                        let intact = snapshot.withUnsafeBufferPointer { values in
                            values.indices.allSatisfy { values[$0] == UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
                        }
                        if !intact { failures.withLock { $0.append("reader \(reader): a snapshot of \(snapshot.count) changed") } }
                        checked.add(1, ordering: .relaxed)
                    }
                    if held.count > 16 { held.removeFirst(held.count - 16) }
                }
                done.signal()
            }.start()
        }
        var writer = AppendOnlyArray<UInt32>()
        for index in 0..<60_000 {
            writer.append(UInt32(truncatingIfNeeded: index &* 2_654_435_761))
            if index % 600 == 0 { handOff.withLock { $0.append(writer) } }
        }
        finished.store(true, ordering: .releasing)
        for _ in 0..<readers { done.wait() }
        #expect(failures.withLock { $0 } == [])
        #expect(checked.load(ordering: .relaxed) >= 100, "every snapshot handed off was checked")
        writer._checkInvariants()
        #expect(writer.count == 60_000)
    }

    /// The same with text: readers hold and check snapshots of text that
    /// one writer keeps appending to (inline first, then shared storage).
    @Test func textSnapshotsCheckedOnOtherThreadsWhileOneWriterAppends() async {
        let (stream, continuation) = AsyncStream<AppendOnlyText>.makeStream(bufferingPolicy: .unbounded)
        let reader = Task.detached { () -> (checked: Int, broken: Int) in
            var checked = 0
            var broken = 0
            var held: [AppendOnlyText] = []
            for await snapshot in stream {
                held.append(snapshot)
                for text in held.suffix(16) {
                    text._checkInvariants()
                    let expected = String(repeating: "ab", count: text.utf8Count / 2)
                    if text.string != expected { broken += 1 }
                    checked += 1
                }
            }
            return (checked, broken)
        }
        var text = AppendOnlyText()
        for index in 0..<20_000 {
            text.append("ab")
            if index % 50 == 0 { continuation.yield(text) }
        }
        continuation.finish()
        let result = await reader.value
        #expect(result.broken == 0)
        #expect(result.checked >= 400)
    }
}
