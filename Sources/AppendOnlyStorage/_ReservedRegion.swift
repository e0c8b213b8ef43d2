// _ReservedRegion: address space set aside up front, filled in place.
//
// An append-only buffer that snapshots hold cannot move: a snapshot on
// another thread may be reading it. So growing one that is shared used to
// mean copying it into a bigger one while the old one lived on for its
// holders, and with every snapshot of a stream held those older copies
// summed to about the size of the newest. A buffer of plain data that grows
// to 4 KiB or more while held is instead mapped 64 times larger than asked
// (at least 4 MiB) and never moves again: a page costs memory only once
// written, so the rest of the mapping is address space, and the buffer
// grows in place, shared or not, until it is full.
//
// Linux and Darwin: an anonymous private `mmap` without swap reservation
// (`MAP_NORESERVE`) and, on Linux, without transparent huge pages (a huge
// page would make a few written bytes cost 2 MiB). The whole mapping is
// writable from the start, so a claim needs no check beyond the capacity;
// making pages usable with `mprotect` as they fill instead needed an atomic
// read on every append, which made the whole-document parse markedly
// costlier (Benchmarks/RESULTS-HISTORY.md, JSON). What that costs elsewhere
// is bounded: at most `maxLiveRegions` regions and `maxReservedBytes` of
// address space at once (a process has ~65,000 mappings to spend, some
// systems little address space, and under strict overcommit a writable
// mapping is charged whole); past that, or when the system declines, storage
// uses `malloc`.
//
// A buffer that grows past `privateThreshold` moves into a region even when
// nothing holds it, and a released region goes back to a small pool, its
// pages still mapped. The next large buffer, usually the next message's
// text, then writes into pages that are already there: faulting in fresh
// zeroed pages is a real share of the time to accumulate a 16 MiB text
// stream (Benchmarks/RESULTS-HISTORY.md, accumulator), a cost `malloc`
// hides for small buffers (its heap is reused) but not for large ones (each
// is a fresh mapping until its mmap threshold has adapted). Like `malloc`'s
// retained heap, the pool costs resident memory while idle, so it keeps at
// most `maxPooledRegions` regions and `maxPooledBytes` of written pages, and
// unmaps anything past that. Marking pooled pages `MADV_FREE` (reclaimable)
// was tried: writing to them again made a parse slower
// (Benchmarks/RESULTS-HISTORY.md, JSON).
//
// The bytes bound is what costs memory; the region bound only limits
// mappings kept idle. A message with a large tool call keeps five regions
// (its input text, three node columns, the string bytes), so a 16 MiB
// stream of four such messages releases twenty: with room for sixteen, each
// run of it unmapped four and faulted their pages in again, a visible share
// of its time; with room for 64 it faults few (Benchmarks/RESULTS-HISTORY.md,
// accumulator).
//
// Invariants (`checkInvariants()` on every region handed out or given
// back, debug builds): a region starts on a page boundary and spans whole
// pages.

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@usableFromInline
struct _ReservedRegion: @unchecked Sendable {
    // @unchecked: a range of the process's address space; writing and
    // reading it is ordered by the storage that owns it (AppendOnlyArray.swift).
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let reservedBytes: Int

    /// Plain-data buffers at least this large are given a region.
    @usableFromInline static let threshold = 4 << 10
    /// A region maps this many times the size asked for, at least
    /// `minimumReservation` bytes: room for the buffer to grow 64-fold in place.
    static let reservationFactor = 64
    static let minimumReservation = 4 << 20
    static let maxLiveRegions = 4096
    static let maxReservedBytes = 4 << 30
    static let liveRegions = Atomic(0)
    static let reservedBytesInUse = Atomic(0)
    /// Plain-data buffers that grow this large move into a region even
    /// when no other value holds them, so their pages can be reused.
    @usableFromInline static let privateThreshold = 256 << 10
    static let maxPooledRegions = 64
    static let maxPooledBytes = 16 << 20
    /// Released regions kept for reuse (they still count as live).
    static let pool = Mutex(RegionPool(maxRegions: maxPooledRegions, maxBytes: maxPooledBytes))

    @usableFromInline static let pageSize: Int = {
        #if canImport(Glibc) || canImport(Darwin)
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return size > 0 ? size : 4096
        #else
        return 4096
        #endif
    }()

    /// Maps room for `bytes` grown `reservationFactor` times (or reuses a
    /// pooled region of about that size); nil when the cap is reached or
    /// the system declines.
    @usableFromInline
    static func reserve(atLeast bytes: Int) -> _ReservedRegion? {
        #if canImport(Glibc) || canImport(Darwin)
        let (wanted, overflow) = bytes.multipliedReportingOverflow(by: reservationFactor)
        guard !overflow, bytes > 0 else { return nil }
        let reserved = roundedToPages(Swift.max(wanted, minimumReservation))
        if let reused = pool.withLock({ $0.take(fitting: reserved) }) {
            reused.checkInvariants()
            return reused
        }
        if let mapped = map(reserved) { return mapped }
        // Idle pooled regions count against the caps: give them back and
        // try once more.
        let idle = pool.withLock { $0.drain() }
        guard !idle.isEmpty else { return nil }
        for region in idle { region.unmap() }
        return map(reserved)
        #else
        return nil
        #endif
    }

    #if canImport(Glibc) || canImport(Darwin)
    private static func map(_ reserved: Int) -> _ReservedRegion? {
        guard liveRegions.add(1, ordering: .relaxed).newValue <= maxLiveRegions else {
            liveRegions.subtract(1, ordering: .relaxed)
            return nil
        }
        guard reservedBytesInUse.add(reserved, ordering: .relaxed).newValue <= maxReservedBytes else {
            reservedBytesInUse.subtract(reserved, ordering: .relaxed)
            liveRegions.subtract(1, ordering: .relaxed)
            return nil
        }
        #if canImport(Glibc)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
        #else
        let flags = MAP_PRIVATE | MAP_ANON | MAP_NORESERVE
        #endif
        guard let raw = mmap(nil, reserved, PROT_READ | PROT_WRITE, flags, -1, 0),
            raw != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            reservedBytesInUse.subtract(reserved, ordering: .relaxed)
            liveRegions.subtract(1, ordering: .relaxed)
            return nil
        }
        #if canImport(Glibc)
        _ = madvise(raw, reserved, MADV_NOHUGEPAGE)
        #endif
        let region = _ReservedRegion(base: raw, reservedBytes: reserved)
        region.checkInvariants()
        return region
    }
    #endif

    /// Gives the region back: to the pool (which may unmap older ones to
    /// make room), or to the system when it alone is over the pool's bound.
    /// `writtenBytes`: how much of it this holder may have written.
    func release(writtenBytes: Int) {
        #if canImport(Glibc) || canImport(Darwin)
        checkInvariants()
        let written = Self.roundedToPages(Swift.min(Swift.max(writtenBytes, 0), reservedBytes))
        let unmapped = Self.pool.withLock { $0.give(self, written: written) }
        for region in unmapped { region.unmap() }
        #endif
    }

    /// Returns the region to the system.
    func unmap() {
        #if canImport(Glibc) || canImport(Darwin)
        _ = munmap(base, reservedBytes)
        Self.reservedBytesInUse.subtract(Self.roundedToPages(reservedBytes), ordering: .relaxed)
        Self.liveRegions.subtract(1, ordering: .relaxed)
        #endif
    }

    static func roundedToPages(_ bytes: Int) -> Int {
        let page = pageSize
        return (bytes + page - 1) / page * page
    }

    #if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
    /// Traps when the region is not whole pages from a page boundary.
    ///
    /// - Complexity: O(1).
    func checkInvariants() {
        precondition(Int(bitPattern: base) % Self.pageSize == 0, "region base off a page boundary")
        precondition(reservedBytes > 0 && reservedBytes % Self.pageSize == 0, "region of \(reservedBytes) bytes, not whole pages")
    }
    #else
    /// Does nothing: invariant checks are compiled out of this build.
    @inline(__always) func checkInvariants() {}
    #endif
}
