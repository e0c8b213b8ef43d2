// AppendOnlyArray: a value-semantic array whose copies share one buffer.
//
// Design
// ------
// Streaming snapshots hold *prefixes* of things that only grow: the text of a
// block, the bytes of a JSON string, the finished children of a JSON array.
// With `Array` or `String`, a snapshot that holds a copy forces the next
// append to copy everything (copy-on-write), which makes "a snapshot after
// every delta" quadratic. Here every value is `(storage, count)`: it sees the
// first `count` elements of a shared buffer, which are never written again.
//
// Appending claims the slots `count..<count+n` with one compare-and-exchange
// on the storage's `claimed` counter. The claim succeeds only when this value
// is the longest holder (its `count` equals `claimed`), so the first writer
// extends the buffer in place and any other copy that appends later finds
// `claimed` moved on and forks: it copies its own prefix into new storage.
// That keeps full value semantics (two copies can append different things)
// while the common pattern (one writer, many read-only snapshots) never copies.
//
// Memory safety: the writer only initialises slots at or past its claim,
// readers only read slots below their own `count`, and every slot below a
// published `count` was written before that value existed. Values cross
// threads only through `Sendable` hand-offs, which order those writes.
//
// Growth doubles the capacity into fresh storage and copies the prefix once,
// so appends are amortised O(1); old snapshots keep the old storage alive.
// When no other value shares the storage and the elements are plain data,
// it grows in place with `realloc` instead, up to 256 KiB. Storage of 4 KiB
// or more of plain data that a shared buffer grows into, and of 256 KiB or
// more that any buffer grows into, is a reserved region
// (_ReservedRegion.swift): a mapping 64 times that size (at least 4 MiB)
// whose pages cost memory only once written, so it grows in place, shared
// or not, before it must be copied again; snapshots held across a growth
// then keep no older buffer alive, and a released region's pages serve the
// next large buffer.
// A region that does fill is copied into a new one sized by its contents.
// Other storage past 64 KiB quadruples, so the older buffers sum to a third
// of the newest rather than all of it.
//
// Across the module line: IncrementalJSON's parser appends to these arrays
// in its innermost loops, so the append, claim and read paths are
// `@inlinable` (specialised and inlined in the caller, as they were when
// both lived in one module). The growth paths are `@inlinable` too, though
// never inlined: left generic, each growth looked up the storage's generic
// metadata at run time, a clear cost on the mixed benchmark stream
// (Benchmarks/RESULTS-HISTORY.md, accumulator: `feed` by instructions).
//
// Invariants (checked by `_checkInvariants()` after every mutation when
// APPEND_ONLY_STORAGE_INTERNAL_CHECKS is set, as it is in debug builds):
// a value's `count` never exceeds its storage's `claimed`, `claimed` never
// exceeds `capacity`, an empty value may lack storage but a non-empty one
// never does, and a region's storage starts on a page boundary.

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared storage behind ``AppendOnlyArray``. Slots `0..<claimed` are
/// initialised (a claim is always followed by its writes before any value
/// that could read them is published).
@usableFromInline
package final class _AppendOnlyStorage<Element>: @unchecked Sendable {
    // @unchecked: `base` is written only past `claimed` by the single writer
    // that won the claim, and read only below a published count (see above).
    // `capacity` and `base` change only in `_resize`, which runs only while
    // the storage is uniquely referenced, so no other value can observe it.
    //
    // Exclusivity unchecked: `capacity` and `base` are read on every append
    // from code inlined into other modules, where the compiler cannot prove
    // accesses exclusive and would check each one at run time
    // (a `swift_beginAccess` call each, a clear cost on a text stream; see
    // Benchmarks/RESULTS-HISTORY.md, accumulator). The one writer,
    // `_resize`, runs only while the storage is uniquely referenced.
    @exclusivity(unchecked) @usableFromInline package private(set) var capacity: Int
    @usableFromInline package let claimed: Atomic<Int>
    @exclusivity(unchecked) @usableFromInline package private(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline package let _allocation: _Allocation

    /// `base`, for code outside this module that is not inlined from it:
    /// read there directly, the property was checked at run time all the
    /// same (a `swift_beginAccess` call for each new document view of a
    /// streamed tool input), as the attribute does not reach that code.
    /// Read through this accessor, the access is this module's, unchecked.
    @inlinable @inline(__always) package var _base: UnsafeMutablePointer<Element> { base }
    /// `capacity`, read as `_base` is, for the same reason.
    @inlinable @inline(__always) package var _capacity: Int { capacity }

    /// Where `base` came from. One byte: every storage (each text, each
    /// document column) pays for this field.
    @usableFromInline
    package enum _Allocation: UInt8 {
        /// A `malloc` block (plain data), which `_resize` can grow with
        /// `realloc`: a large block is then remapped, not copied.
        case malloced
        /// Plain data in a reserved region (`capacity` slots cover it).
        case reserved
        /// Typed memory for elements that need their lifetime managed.
        case allocated
    }

    /// Storage in `region` (from `_region(forCapacity:)`), or without one
    /// in malloc'd or typed memory.
    @inlinable
    init(capacity: Int, region: _ReservedRegion?) {
        let capacity = Swift.max(capacity, 1)
        let stride = MemoryLayout<Element>.stride
        if let region {
            self.capacity = region.reservedBytes / stride
            self.base = region.base.bindMemory(to: Element.self, capacity: self.capacity)
            self._allocation = .reserved
        } else if Self._isPlain, let raw = malloc(capacity &* stride) {
            self.capacity = capacity
            self.base = raw.bindMemory(to: Element.self, capacity: capacity)
            self._allocation = .malloced
        } else {
            self.capacity = capacity
            self.base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            self._allocation = .allocated
        }
        self.claimed = Atomic(0)
    }

    @inlinable static var _isPlain: Bool { _isPOD(Element.self) && MemoryLayout<Element>.alignment <= 16 }

    /// A region for `capacity` elements, when they are plain data of at
    /// least `_ReservedRegion.threshold` bytes and the system allows one.
    @inlinable
    static func _region(forCapacity capacity: Int) -> _ReservedRegion? {
        let stride = MemoryLayout<Element>.stride
        guard _isPlain, capacity &* stride >= _ReservedRegion.threshold, stride <= _ReservedRegion.pageSize else {
            return nil
        }
        return _ReservedRegion.reserve(atLeast: capacity &* stride)
    }

    deinit {
        base.deinitialize(count: claimed.load(ordering: .acquiring))
        switch _allocation {
        case .malloced: free(base)
        case .reserved:
            let stride = MemoryLayout<Element>.stride
            // Slots may stop short of the reservation's last page; rounding
            // up gives back exactly what was mapped.
            _ReservedRegion(base: base, reservedBytes: _ReservedRegion.roundedToPages(capacity &* stride))
                .release(writtenBytes: claimed.load(ordering: .relaxed) &* stride)
        case .allocated: base.deallocate()
        }
    }

    @inlinable package var _isMalloced: Bool { _allocation == .malloced }

    /// Grows the block to `newCapacity` in place or by `realloc`'s move.
    /// Only for a malloc'd storage that no other value references.
    @inlinable
    func _resize(to newCapacity: Int) -> Bool {
        guard _isMalloced, let raw = realloc(base, newCapacity &* MemoryLayout<Element>.stride) else { return false }
        base = raw.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
        return true
    }

    /// Claims every slot after `count`, at least `minimum` of them, and
    /// returns them; nil when there are fewer, or another value already
    /// extended the buffer past `count`.
    @inlinable @inline(__always)
    package func claimRoom(after count: Int, minimum: Int) -> UnsafeMutableBufferPointer<Element>? {
        let room = capacity &- count
        guard room >= minimum, room > 0, claim(after: count, room) else { return nil }
        return UnsafeMutableBufferPointer(start: base + count, count: room)
    }

    /// Claims `n` slots after `count`, or returns false when another value
    /// already extended the buffer past `count` or there is no room.
    @inlinable @inline(__always)
    package func claim(after count: Int, _ n: Int) -> Bool {
        guard n <= capacity &- count else { return false }
        return claimed.compareExchange(
            expected: count, desired: count &+ n, ordering: .acquiringAndReleasing
        ).exchanged
    }
}

/// An array that can only grow at the end, whose copies share storage.
///
/// Taking a copy is O(1) and never causes a later append to copy the
/// elements (unless two copies both append, in which case the second forks).
/// Use it for anything a snapshot holds while the stream keeps growing it.
///
/// - Complexity: `append` is amortised O(1); copying is O(1); subscript O(1).
public struct AppendOnlyArray<Element: Sendable>: Sendable {
    @usableFromInline package var _storage: _AppendOnlyStorage<Element>?
    @usableFromInline var _count: Int

    /// Number of elements this value sees.
    @inlinable public var count: Int { _count }

    /// Whether this value's buffer is `storage` (both nil counts).
    @inlinable @inline(__always)
    package func _isStored(in storage: _AppendOnlyStorage<Element>?) -> Bool {
        _isSameObject(_storage, storage)
    }

    /// Becomes `other` when both share one buffer by moving only the count
    /// (no retain and release of the buffer); false, and unchanged, otherwise.
    @inlinable @inline(__always)
    package mutating func _follow(_ other: AppendOnlyArray<Element>) -> Bool {
        // Compared without binding either: a `let` for each was a retain
        // and a release on every call (once an event, from the snapshot).
        guard _storage != nil, other._isStored(in: _storage) else { return false }
        _count = other._count
        return true
    }

    /// An empty array.
    @inlinable public init() {
        _storage = nil
        _count = 0
    }

    /// An array holding `elements`.
    ///
    /// - Complexity: O(`elements.count`).
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// Reserves room so that `minimumCapacity` elements fit without growing.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if let storage = _storage, storage.capacity >= minimumCapacity { return }
        _grow(toHold: minimumCapacity, exact: true)
        _checkInvariants()
    }

    /// Appends one element, moved in when the caller gives it up.
    ///
    /// - Complexity: Amortised O(1).
    @inlinable
    public mutating func append(_ element: consuming Element) {
        var moved = false
        _append(element, moved: &moved)
    }

    /// Appends one element; sets `moved` when it could not claim its slot
    /// in place and grew or forked first (from a copy that had appended):
    /// a writer that published its storage then knows that readers made
    /// before may hold storage this value no longer writes to. (A storage
    /// no other value held may have grown in place; the flag is set then
    /// too.)
    ///
    /// `following`: this value repeats appends that a longer holder of its
    /// storage already made (see ``_skipAppended(_:)``); when the claim
    /// fails because they are there, only the count moves.
    ///
    /// - Complexity: Amortised O(1).
    @inlinable @inline(__always)
    package mutating func _append(_ element: consuming Element, moved: inout Bool, following: Bool = false) {
        if !_claim(1) {
            if following && _skipAppended(1) { return }
            _claimSlow(1)
            moved = true
        }
        guard let storage = _storage else { return }
        (storage.base + _count).initialize(to: element)
        _count &+= 1
        _checkInvariants()
    }

    /// Appends two elements with one claim (an object member's key and
    /// value); sets `moved` and takes `following` as
    /// ``_append(_:moved:following:)`` does.
    ///
    /// - Complexity: Amortised O(1).
    @inlinable @inline(__always)
    package mutating func _append(_ first: Element, _ second: Element, moved: inout Bool, following: Bool = false) {
        if !_claim(2) {
            if following && _skipAppended(2) { return }
            _claimSlow(2)
            moved = true
        }
        guard let storage = _storage else { return }
        (storage.base + _count).initialize(to: first)
        (storage.base + (_count &+ 1)).initialize(to: second)
        _count &+= 2
        _checkInvariants()
    }

    /// Appends the elements of a buffer.
    ///
    /// - Complexity: Amortised O(`elements.count`).
    @inlinable @inline(__always)
    public mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        _append(contentsOf: elements)
    }

    /// Appends the elements of a buffer, calling `beforeGrowing` first when
    /// the storage must move or grow to take them. A writer that publishes
    /// a second reference to its own buffer drops it there, so that when
    /// no one else holds the buffer it grows as unshared storage: in place
    /// by `realloc` rather than into a reserved region. With `following`,
    /// as ``_append(_:moved:following:)`` takes it: appends a longer holder
    /// of the storage already made only move the count.
    ///
    /// - Complexity: Amortised O(`elements.count`).
    @inlinable @inline(__always)
    package mutating func _append(
        contentsOf elements: UnsafeBufferPointer<Element>, following: Bool = false, beforeGrowing: () -> Void = {}
    ) {
        let n = elements.count
        guard n > 0, let source = elements.baseAddress else { return }
        if !_claim(n) {
            if following && _skipAppended(n) { return }
            beforeGrowing()
            _claimSlow(n)
        }
        _writeClaimed(from: source, count: n)
    }

    /// Writes the `n` slots after `count`, which this value claimed, and
    /// counts them.
    @inlinable @inline(__always)
    mutating func _writeClaimed(from source: UnsafePointer<Element>, count n: Int) {
        guard let storage = _storage else { return }
        if Element.self == UInt8.self && n <= 16 {
            // A delta's few bytes: two word moves, where `memcpy` was a
            // call through the PLT that cost as much as the rest.
            Self._copySmallBytes(from: UnsafeRawPointer(source), to: UnsafeMutableRawPointer(storage.base + _count), count: n)
        } else {
            (storage.base + _count).initialize(from: source, count: n)
        }
        _count &+= n
        _checkInvariants()
    }

    /// Copies `count` (1 to 16) bytes as two overlapping loads and stores
    /// of the widest size that fits, or byte by byte below four.
    @inlinable @inline(__always)
    static func _copySmallBytes(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            destination.storeBytes(of: first, as: UInt64.self)
            destination.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        } else {
            for k in 0..<count { destination.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
        }
    }

    /// Claims every free slot of the storage, at least `minimum`, for a
    /// writer that fills a prefix of them in place and then calls
    /// ``_commitRoom(_:)`` (which it must, before any other change to this
    /// value): the slots, uninitialised, or nil when there is no storage,
    /// too little room, or another value already extended the buffer. The
    /// claim keeps every other value from writing there meanwhile.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package mutating func _claimRoom(minimum: Int) -> UnsafeMutableBufferPointer<Element>? {
        // Through optional chaining, which borrows the storage: a `let`
        // bound to it was a retain and a release on every call.
        _storage?.claimRoom(after: _count, minimum: minimum) ?? nil
    }

    /// ``_claimRoom(minimum:)``, but where the storage has too little room
    /// (or there is none) it first grows the way an append would (after
    /// `beforeGrowing`, as in ``_append(contentsOf:following:beforeGrowing:)``), so
    /// the claim then holds: a writer that always claims never falls back
    /// to a copy because the buffer was young or about to double. Still
    /// nil when the room is there but another value claimed or extended
    /// it (an append would fork there; so does the writer's fallback).
    ///
    /// - Complexity: O(1), or O(`count`) when it grows (amortised O(1) per
    ///   element over a buffer's life, as for appends).
    @inlinable @inline(__always)
    package mutating func _claimRoom(minimum: Int, beforeGrowing: () -> Void) -> UnsafeMutableBufferPointer<Element>? {
        if let room = _claimRoom(minimum: minimum) { return room }
        if let storage = _storage, storage.capacity &- _count >= minimum { return nil }
        beforeGrowing()
        _grow(toHold: _count &+ minimum, exact: false)
        _checkInvariants()
        return _claimRoom(minimum: minimum)
    }

    /// Counts the first `n` slots of the room ``_claimRoom(minimum:)`` gave
    /// (the writer initialised them) and gives the rest back.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package mutating func _commitRoom(_ n: Int) {
        _count &+= n
        // The claim reaches the capacity, past every other value's count, so
        // no other value can have claimed since: a store, not an exchange.
        _storage?.claimed.store(_count, ordering: .releasing)
        _checkInvariants()
    }

    /// Gives back the capacity past `count` when no other value holds the
    /// storage and it is a `malloc` block (a finished buffer then costs its
    /// contents, not the doubling's slack); otherwise does nothing.
    ///
    /// - Complexity: O(1) (`realloc` shrinks a block in place).
    @inlinable
    package mutating func _releaseUnusedCapacity() {
        // Checked before any local reference to the storage exists.
        guard _count > 0, isKnownUniquelyReferenced(&_storage), let storage = _storage,
            storage._isMalloced, storage.capacity > _count
        else { return }
        storage.claimed.store(_count, ordering: .relaxed)
        _ = storage._resize(to: _count)
        _checkInvariants()
    }

    /// Appends the elements of a sequence.
    @inlinable
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        let done: Void? = elements.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done != nil { return }
        for element in elements { append(element) }
    }

    /// Calls `body` with the elements this value sees, without copying.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable
    public func withUnsafeBufferPointer<R, E: Error>(
        _ body: (UnsafeBufferPointer<Element>) throws(E) -> R
    ) throws(E) -> R {
        guard let storage = _storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: storage.base, count: _count))
    }

    // MARK: Internals

    @inlinable @inline(__always)
    mutating func _claim(_ n: Int) -> Bool {
        guard let storage = _storage else { return false }
        return storage.claim(after: _count, n)
    }

    /// Claims `n` slots after `count` when the fast claim failed: moves into
    /// storage of its own (grown in place when it was unique and malloc'd).
    @inlinable @inline(never)
    mutating func _claimSlow(_ n: Int) {
        _grow(toHold: _count &+ n, exact: false)
        // Fresh storage is this value's alone, and storage grown by
        // `realloc` was unique, so this claim cannot fail.
        _ = _claim(n)
    }

    /// Moves this value's prefix into fresh storage that holds at least
    /// `needed` elements (doubling unless `exact`), and claims the prefix.
    @inlinable @inline(never)
    mutating func _grow(toHold needed: Int, exact: Bool) {
        // A region's capacity is its whole reservation: size a move by what
        // is in it instead, or a fork would ask for four reservations.
        let current = _storage.map { $0._allocation == .reserved ? count : $0.capacity } ?? 0
        let factor = current * MemoryLayout<Element>.stride >= 1 << 16 ? 4 : 2
        let grown = Swift.max(current &* factor, 4)
        let capacity = exact ? Swift.max(needed, count) : Swift.max(needed, grown)
        // Checked before any local reference to the storage exists.
        let unique = isKnownUniquelyReferenced(&_storage)
        let large = capacity &* MemoryLayout<Element>.stride >= _ReservedRegion.privateThreshold
        var region: _ReservedRegion? = nil
        if unique, let storage = _storage, storage._isMalloced {
            // No other value sees this storage, so it may change under us:
            // drop slots a copy that no longer exists had claimed (plain data,
            // nothing to deinitialise) and grow the block itself, unless it
            // grows large: then into a region, whose pages the next large
            // buffer reuses (realloc when there is no region to be had).
            storage.claimed.store(count, ordering: .relaxed)
            if large { region = _AppendOnlyStorage<Element>._region(forCapacity: capacity) }
            if region == nil, storage._resize(to: capacity) { return }
        } else if _storage != nil {
            // A buffer that snapshots hold while it grows (or that already
            // lives in a region) moves into a region; a first buffer does
            // not, so a one-off copy never maps one.
            region = _AppendOnlyStorage<Element>._region(forCapacity: capacity)
        }
        let fresh = _AppendOnlyStorage<Element>(capacity: capacity, region: region)
        if let old = _storage, count > 0 {
            fresh.base.initialize(from: old.base, count: count)
        }
        fresh.claimed.store(count, ordering: .releasing)
        _storage = fresh
    }
}

extension AppendOnlyArray: RandomAccessCollection {
    public typealias Index = Int
    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements this value sees.
    @inlinable public var endIndex: Int { _count }

    /// The element at `index`.
    ///
    /// - Precondition: `0 <= index < count` (checked; traps like `Array`).
    /// - Complexity: O(1).
    @inlinable
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < _count, "AppendOnlyArray index out of range")
        // The precondition guarantees a non-empty value, which always has storage.
        return _storage.unsafelyUnwrapped.base[index]
    }

    /// The last element, or nil when empty.
    @inlinable public var last: Element? { _count > 0 ? self[_count - 1] : nil }
}

extension AppendOnlyArray {
    #if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
    /// Traps when this value or its storage breaks an invariant of the file
    /// comment. Compiled in only with APPEND_ONLY_STORAGE_INTERNAL_CHECKS.
    ///
    /// - Complexity: O(1).
    @inline(never) @usableFromInline
    package func _checkInvariants() {
        precondition(_count >= 0, "negative count")
        guard let storage = _storage else {
            precondition(_count == 0, "a non-empty value without storage")
            return
        }
        let claimed = storage.claimed.load(ordering: .acquiring)
        precondition(_count <= claimed, "count \(_count) past the claimed \(claimed) slots")
        precondition(claimed <= storage.capacity, "claimed \(claimed) past capacity \(storage.capacity)")
        if storage._allocation == .reserved {
            precondition(Int(bitPattern: storage.base) % _ReservedRegion.pageSize == 0, "a region's storage off a page boundary")
        } else {
            precondition(storage._allocation != .malloced || _AppendOnlyStorage<Element>._isPlain, "malloc'd storage of non-plain elements")
        }
    }
    #else
    /// Does nothing: invariant checks are compiled out of this build.
    @inlinable @inline(__always)
    package func _checkInvariants() {}
    #endif
}

extension AppendOnlyArray: Equatable where Element: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs._storage === rhs._storage { return true }
        return lhs.elementsEqual(rhs)
    }
}

extension AppendOnlyArray: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension AppendOnlyArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension AppendOnlyArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}
