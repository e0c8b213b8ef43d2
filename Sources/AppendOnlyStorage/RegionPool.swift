// RegionPool: released reserved regions, kept mapped for the next buffer.
//
// A region's written pages stay resident while it waits, so the pool is
// bounded in regions and in written bytes, and it evicts the oldest waiting
// region to make room for a newer one (the newest are the likeliest to be
// asked for again: the next message's buffers follow the last one's).
//
// The written extent of a region must survive reuse: a region that held
// 15 MiB and is then lent to a 300 KiB buffer still has 15 MiB of pages
// resident when it comes back. So the pool remembers, for each region it
// lends, how much had been written, and counts the larger of that and the
// borrower's own extent on return.
//
// A lender, not a mapper: it never calls the system. What it evicts or
// refuses it hands back to its caller to unmap, outside the lock.
//
// Invariants (`checkInvariants()` after every mutation, debug builds): at
// most `maxRegions` wait, `writtenBytes` is the sum of their written extents
// and at most `maxBytes`, and no region is both waiting and lent.

/// Released regions waiting for reuse (see the file comment). Used behind
/// `_ReservedRegion.pool`'s lock; a plain value, so tests drive their own.
struct RegionPool: Sendable {
    let maxRegions: Int
    let maxBytes: Int
    /// Waiting regions, oldest first, with the bytes written to each.
    private(set) var regions: [(region: _ReservedRegion, written: Int)] = []
    /// The bytes written to the waiting regions, together.
    private(set) var writtenBytes = 0
    /// Regions lent out, by base address: the bytes written before.
    private(set) var lent: [UInt: Int] = [:]

    init(maxRegions: Int, maxBytes: Int) {
        self.maxRegions = maxRegions
        self.maxBytes = maxBytes
    }

    /// A region released by its holder, who wrote up to `written` bytes of
    /// it; returns the regions to unmap (the oldest waiting ones evicted to
    /// make room, or this one when its pages alone exceed the bound).
    ///
    /// - Complexity: O(waiting regions).
    mutating func give(_ region: _ReservedRegion, written: Int) -> [_ReservedRegion] {
        let written = Swift.max(written, lent.removeValue(forKey: UInt(bitPattern: region.base)) ?? 0)
        guard maxRegions > 0, written <= maxBytes else { return [region] }
        var evicted: [_ReservedRegion] = []
        while regions.count >= maxRegions || written > maxBytes - writtenBytes {
            let oldest = regions.removeFirst()
            writtenBytes -= oldest.written
            evicted.append(oldest.region)
        }
        regions.append((region, written))
        writtenBytes += written
        checkInvariants()
        return evicted
    }

    /// The smallest waiting region of at least `bytes` and at most four
    /// times that (a small buffer does not take a huge region, which a
    /// large one will want), newest first among equals; nil when none fits.
    ///
    /// - Complexity: O(waiting regions).
    mutating func take(fitting bytes: Int) -> _ReservedRegion? {
        var best: Int? = nil
        for index in regions.indices.reversed() {
            let size = regions[index].region.reservedBytes
            guard size >= bytes, size / 4 <= bytes else { continue }
            if let current = best, regions[current].region.reservedBytes <= size { continue }
            best = index
        }
        guard let index = best else { return nil }
        let entry = regions.remove(at: index)
        writtenBytes -= entry.written
        lent[UInt(bitPattern: entry.region.base)] = entry.written
        checkInvariants()
        return entry.region
    }

    /// Every waiting region, removed (to unmap: the caps need room).
    mutating func drain() -> [_ReservedRegion] {
        let all = regions.map(\.region)
        regions.removeAll()
        writtenBytes = 0
        checkInvariants()
        return all
    }

    #if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
    /// Traps when the pool breaks an invariant of the file comment.
    ///
    /// - Complexity: O(waiting regions).
    func checkInvariants() {
        precondition(regions.count <= Swift.max(maxRegions, 0), "\(regions.count) regions wait, over \(maxRegions)")
        precondition(writtenBytes == regions.reduce(0) { $0 + $1.written }, "written bytes out of step with the waiting regions")
        precondition(writtenBytes <= maxBytes, "\(writtenBytes) written bytes wait, over \(maxBytes)")
        for entry in regions {
            precondition(lent[UInt(bitPattern: entry.region.base)] == nil, "a region both waiting and lent")
            entry.region.checkInvariants()
        }
    }
    #else
    /// Does nothing: invariant checks are compiled out of this build.
    @inline(__always) func checkInvariants() {}
    #endif
}
