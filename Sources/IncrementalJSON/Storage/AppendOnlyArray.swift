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

import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared storage behind ``AppendOnlyArray``. Slots `0..<claimed` are
/// initialised (a claim is always followed by its writes before any value
/// that could read them is published).
final class _AppendOnlyStorage<Element>: @unchecked Sendable {
    // @unchecked: `base` is written only past `claimed` by the single writer
    // that won the claim, and read only below a published count (see above).
    // `capacity` and `base` change only in `_resize`, which runs only while
    // the storage is uniquely referenced, so no other value can observe it.
    private(set) var capacity: Int
    let claimed: Atomic<Int>
    private(set) var base: UnsafeMutablePointer<Element>
    let _allocation: _Allocation

    /// Where `base` came from. One byte: every storage (each text, each
    /// document column) pays for this field.
    enum _Allocation: UInt8 {
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

    static var _isPlain: Bool { _isPOD(Element.self) && MemoryLayout<Element>.alignment <= 16 }

    /// A region for `capacity` elements, when they are plain data of at
    /// least `_ReservedRegion.threshold` bytes and the system allows one.
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
            _ReservedRegion(base: base, reservedBytes: _ReservedRegion._roundedToPages(capacity &* stride))
                .release(writtenBytes: claimed.load(ordering: .relaxed) &* stride)
        case .allocated: base.deallocate()
        }
    }

    var _isMalloced: Bool { _allocation == .malloced }

    /// Grows the block to `newCapacity` in place or by `realloc`'s move.
    /// Only for a malloc'd storage that no other value references.
    func _resize(to newCapacity: Int) -> Bool {
        guard _isMalloced, let raw = realloc(base, newCapacity &* MemoryLayout<Element>.stride) else { return false }
        base = raw.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
        return true
    }

    /// Claims `n` slots after `count`, or returns false when another value
    /// already extended the buffer past `count` or there is no room.
    @inline(__always)
    func claim(after count: Int, _ n: Int) -> Bool {
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
    var _storage: _AppendOnlyStorage<Element>?
    /// Number of elements this value sees.
    public private(set) var count: Int

    /// An empty array.
    public init() {
        _storage = nil
        count = 0
    }

    /// An array holding `elements`.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// Reserves room so that `minimumCapacity` elements fit without growing.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if let storage = _storage, storage.capacity >= minimumCapacity { return }
        _grow(toHold: minimumCapacity, exact: true)
    }

    /// Appends one element.
    ///
    /// - Complexity: Amortised O(1).
    public mutating func append(_ element: Element) {
        if !_claim(1) { _claimSlow(1) }
        guard let storage = _storage else { return }
        (storage.base + count).initialize(to: element)
        count &+= 1
    }

    /// Appends two elements with one claim (an object member's key and value).
    @inline(__always)
    mutating func _append(_ first: Element, _ second: Element) {
        if !_claim(2) { _claimSlow(2) }
        guard let storage = _storage else { return }
        (storage.base + count).initialize(to: first)
        (storage.base + (count &+ 1)).initialize(to: second)
        count &+= 2
    }

    /// Appends the elements of a buffer.
    ///
    /// - Complexity: Amortised O(`elements.count`).
    public mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        let n = elements.count
        guard n > 0, let source = elements.baseAddress else { return }
        if !_claim(n) { _claimSlow(n) }
        guard let storage = _storage else { return }
        (storage.base + count).initialize(from: source, count: n)
        count &+= n
    }

    /// Appends the elements of a sequence.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        let done: Void? = elements.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done != nil { return }
        for element in elements { append(element) }
    }

    /// Calls `body` with the elements this value sees, without copying.
    public func withUnsafeBufferPointer<R, E: Error>(
        _ body: (UnsafeBufferPointer<Element>) throws(E) -> R
    ) throws(E) -> R {
        guard let storage = _storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: storage.base, count: count))
    }

    // MARK: Internals

    @inline(__always)
    private mutating func _claim(_ n: Int) -> Bool {
        guard let storage = _storage else { return false }
        return storage.claim(after: count, n)
    }

    /// Claims `n` slots after `count` when the fast claim failed: moves into
    /// storage of its own (grown in place when it was unique and malloc'd).
    @inline(never)
    private mutating func _claimSlow(_ n: Int) {
        _grow(toHold: count &+ n, exact: false)
        // Fresh storage is this value's alone, and storage grown by
        // `realloc` was unique, so this claim cannot fail.
        _ = _claim(n)
    }

    /// Moves this value's prefix into fresh storage that holds at least
    /// `needed` elements (doubling unless `exact`), and claims the prefix.
    private mutating func _grow(toHold needed: Int, exact: Bool) {
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
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// - Precondition: `0 <= index < count` (checked; traps like `Array`).
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "AppendOnlyArray index out of range")
        // The precondition guarantees a non-empty value, which always has storage.
        return _storage.unsafelyUnwrapped.base[index]
    }

    public var last: Element? { count > 0 ? self[count - 1] : nil }
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
