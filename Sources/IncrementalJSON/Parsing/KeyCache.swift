// Keys repeat: an array of records sends the same few keys thousands of
// times. A key of up to 7 bytes lives in its node. For longer ones the
// parser stores each distinct key's bytes once and reuses its
// node through this small two-way cache, indexed by a hash of the
// bytes. A hit is confirmed byte for byte, so a collision only costs storing
// the key again, never a wrong key.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nodes of recently stored keys (see above).
struct KeyCache: Sendable {
    /// Empty until `keysBeforeCaching` keys were stored (a small document
    /// should not pay for the table); a `.null` tag marks an empty slot.
    var slots: [Node] = []
    var keysStored = 0

    static let slotCount = 256
    static let keysBeforeCaching = 16
    /// Longer keys are stored every time; they are rare and costly to hash.
    static let maxCachedBytes = 64

    /// The node of `key`, storing its bytes in `bytes` unless a cached node
    /// already points at the same bytes there (`following`: a replayed
    /// parser's store, see `IncrementalJSONParser.replaying`).
    ///
    /// - Complexity: O(`key.count`).
    mutating func node(for key: UnsafeBufferPointer<UInt8>, in bytes: inout AppendOnlyArray<UInt8>, following: Bool = false) -> Node {
        if key.count <= Node.maxInlineBytes { return Node(.shortString, inline: key) }
        guard key.count <= Self.maxCachedBytes else { return Self.store(key, in: &bytes, following: following) }
        if slots.isEmpty {
            keysStored &+= 1
            guard keysStored > Self.keysBeforeCaching else { return Self.store(key, in: &bytes, following: following) }
            slots = Array(repeating: Node(.null), count: Self.slotCount)
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in key { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        // The top bits of a multiplicative mix spread similar keys apart.
        // Two ways per set, newest first: two keys that hash alike (likely
        // among a few dozen) do not evict each other on every record.
        let first = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 56) & ~1
        for way in 0..<2 {
            let cached = slots[first | way]
            if cached.tag == .string && cached.count == key.count && Self.matches(cached, key, in: bytes) {
                return cached
            }
        }
        let node = Self.store(key, in: &bytes, following: following)
        slots[first | 1] = slots[first]
        slots[first] = node
        return node
    }

    /// Whether the stored key `cached` has the bytes of `key`.
    private static func matches(_ cached: Node, _ key: UnsafeBufferPointer<UInt8>, in bytes: AppendOnlyArray<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress, let probe = key.baseAddress, cached.start + key.count <= all.count else {
                return key.isEmpty
            }
            return memcmp(base + cached.start, probe, key.count) == 0
        }
    }

    private static func store(_ key: UnsafeBufferPointer<UInt8>, in bytes: inout AppendOnlyArray<UInt8>, following: Bool) -> Node {
        let start = bytes.count
        bytes._append(contentsOf: key, following: following)
        // Keys are bounded by the string limit checks well below 4 GiB.
        return Node(.string, start: start, count: key.count)
    }
}
