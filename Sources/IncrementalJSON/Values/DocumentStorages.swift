// DocumentStorages: what a value read from a parsed document holds.
//
// Design
// ------
// A document is a node column per depth and one byte array (Node.swift),
// each an append-only storage the parser keeps growing. A value must keep
// alive every storage it can reach, so each value holds one immutable
// object that names them all: the bytes in the header, and per depth a
// `Column` (the storage that owns the nodes, where they start, and how many
// slots may be read). The parser makes a new one only when a storage was
// replaced (a growth that could not stay in place, or a new depth), so the
// snapshots of a stream share a handful of these.
//
// Every parsed document that a message keeps (each block of each event)
// retains one of these, so a finished small document is *compacted*: its
// columns are copied into one exact buffer that all its `Column`s point
// into, and the per-depth buffers, with their growth slack, are freed with
// the parser. Large documents are left where they are, since copying them
// would cost a pass over their nodes for a few hundred bytes saved.

/// One depth of a document: a slice of a node storage.
struct Column {
    /// Keeps `base` alive; nil for an empty column.
    let owner: _AppendOnlyStorage<Node>?
    let base: UnsafeMutablePointer<Node>?
    /// Slots below this may be read: the storage's capacity while the parser
    /// may still append (the parser never moves a storage a value holds),
    /// the column's node count once compacted.
    let bound: Int
}

/// The storages of a document as of some moment (see the file comment):
/// the bytes in the header, a column per depth as the elements, in one
/// allocation. Never written after it is made, so safe to share across
/// threads; as a ManagedBuffer it cannot say so, ``NodeReader`` does.
final class DocumentStorages: ManagedBuffer<DocumentStorages.Header, Column> {
    struct Header {
        let bytes: _AppendOnlyStorage<UInt8>?
        let depth: Int
    }

    /// Names the storages of a document the parser is still writing.
    ///
    /// - Complexity: O(depth).
    static func make(columns: [AppendOnlyArray<Node>], bytes: _AppendOnlyStorage<UInt8>?) -> DocumentStorages {
        makeBlock(depth: columns.count, bytes: bytes) { depth in
            let storage = columns[depth]._storage
            return Column(owner: storage, base: storage?._base, bound: storage?._capacity ?? 0)
        }
    }

    /// Copies a finished document's columns into one exact buffer.
    ///
    /// - Complexity: O(nodes).
    static func compacted(columns: [AppendOnlyArray<Node>], bytes: _AppendOnlyStorage<UInt8>?) -> DocumentStorages {
        var all = AppendOnlyArray<Node>()
        all.reserveCapacity(columns.reduce(0) { $0 + $1.count })
        for column in columns { column.withUnsafeBufferPointer { all.append(contentsOf: $0) } }
        return laidOut(nodes: all, counts: columns.map(\.count), bytes: bytes)
    }

    /// A finished document whose columns lie one after another in `nodes`:
    /// the column of depth `d` is the `counts[d]` nodes after those of the
    /// columns before it.
    ///
    /// - Complexity: O(depth).
    static func laidOut(nodes: AppendOnlyArray<Node>, counts: [Int], bytes: _AppendOnlyStorage<UInt8>?) -> DocumentStorages {
        let starts = starts(of: counts)
        let owner = nodes._storage
        return makeBlock(depth: counts.count, bytes: bytes) { depth in
            Column(owner: owner, base: owner.map { $0._base + starts[depth] }, bound: counts[depth])
        }
    }

    /// Where each column starts when columns of `counts` nodes lie one
    /// after another.
    ///
    /// - Complexity: O(`counts.count`).
    static func starts(of counts: [Int]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var offset = 0
        for count in counts {
            starts.append(offset)
            offset &+= count
        }
        return starts
    }

    private static func makeBlock(depth: Int, bytes: _AppendOnlyStorage<UInt8>?, _ column: (Int) -> Column) -> DocumentStorages {
        let buffer = create(minimumCapacity: depth) { _ in Header(bytes: bytes, depth: depth) }
        buffer.withUnsafeMutablePointerToElements { elements in
            for level in 0..<depth { (elements + level).initialize(to: column(level)) }
        }
        return unsafeDowncast(buffer, to: DocumentStorages.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.depth) }
    }

    // The header is read through its pointer, never the `header` property:
    // a class's stored property is checked for exclusive access at run
    // time on every read (a runtime call), and the header never changes
    // after `make`.
    @inline(__always) var bytes: _AppendOnlyStorage<UInt8>? { withUnsafeMutablePointerToHeader { $0.pointee.bytes } }
    @inline(__always) var depth: Int { withUnsafeMutablePointerToHeader { $0.pointee.depth } }

    /// The column of `depth`, nil when `depth` is out of range.
    @inline(__always)
    func column(_ depth: Int) -> Column? {
        guard depth >= 0 && depth < self.depth else { return nil }
        return withUnsafeMutablePointerToElements { $0[depth] }
    }

    /// Whether these name the current storages of `columns` and `bytes`.
    ///
    /// - Complexity: O(depth).
    func matches(columns: [AppendOnlyArray<Node>], bytes: AppendOnlyArray<UInt8>) -> Bool {
        guard withUnsafeMutablePointerToHeader({ bytes._isStored(in: $0.pointee.bytes) }), depth == columns.count else { return false }
        return withUnsafeMutablePointerToElements { elements in
            for depth in columns.indices where !columns[depth]._isStored(in: elements[depth].owner) { return false }
            return true
        }
    }
}
