// Node: the compact form of a finished value inside a parsed document.
//
// Design
// ------
// A parse does not build a tree of separately allocated nodes. It writes
// every finished value as an 8-byte node into one append-only *column* per
// depth: a container's children go to the column of the depth below it, in
// order (an object's as key, value, key, value, ...), and the container
// becomes one node in its parent's column that points at its run there. The
// text of every string, key and number goes into one append-only byte array;
// a number or key of at most 7 bytes (most of them) sits in its node instead.
//
// A run stays contiguous because JSON is a tree read depth first: at any
// moment at most one container is open at each depth, so the column below
// it receives only that container's children until it closes, and its next
// sibling's children follow. Closing a container therefore moves nothing:
// its children are already where its node says. That is what makes held
// snapshots cheap: an open container's children so far are a prefix of its
// column, which the parser keeps appending to and never rewrites, so a
// snapshot holds a count, not a child list of its own.
//
// So parsing allocates per depth rather than per value, nothing is reference
// counted per value, and releasing a document frees a few buffers instead of
// walking a tree.
//
// The public values (`JSONValue`, `JSONArray`, `JSONObject`,
// `AppendOnlyText`) are made from nodes when they are read: O(1) and without
// allocation, except for a number text longer than 16 bytes. A closed
// container is a `NodeRun` (the storages, the column of its children, its
// node); a container the parser is still inside is an `OpenContainer` (a
// level of a snapshot's open path: where its children start in its column,
// how many there were, and its open child).
//
// Lifetime: a view holds the `DocumentStorages` that were current when it
// was made. They hold every node and byte the view can reach: children are
// written before the node that points at them exists, and growing a storage
// copies its prefix into the new one while the old one stays alive for its
// holders.

/// What a node is. Eight kinds: the tag takes three bits of the node.
enum NodeTag: UInt8, Sendable {
    case null, bool, number, string, array, object
    /// A number or a string whose UTF-8 (at most 7 bytes) is in the node.
    case shortNumber, shortString
}

/// A finished value in a parsed document (see the file comment), in one
/// word: bits 0-2 the tag; then either bits 3-31 a count and bits 32-63 a
/// start (text: its length and offset in the byte storage; array: elements
/// and the index of the first in the column below; object: members, twice
/// as many nodes), or
/// for the short kinds bits 3-5 the length and bytes 1-7 the text itself
/// (for `bool`, bit 3 the value).
///
/// The parser keeps documents within 1 GiB and strings under 512 MiB
/// (`NodeLimits`), so every field fits.
struct Node: Sendable {
    var nodeBits: UInt64

    @inline(__always)
    init(_ tag: NodeTag, start: Int = 0, count: Int = 0) {
        nodeBits = UInt64(tag.rawValue) | UInt64(truncatingIfNeeded: count) << 3 | UInt64(truncatingIfNeeded: start) << 32
    }

    @inline(__always)
    init(bool value: Bool) {
        nodeBits = UInt64(NodeTag.bool.rawValue) | (value ? 8 : 0)
    }

    /// A short node holding `text` (at most 7 bytes) itself.
    @inline(__always)
    init(_ tag: NodeTag, inline text: UnsafeBufferPointer<UInt8>) {
        var raw = UInt64(tag.rawValue) | UInt64(text.count) << 3
        var shift: UInt64 = 8
        for byte in text {
            raw |= UInt64(byte) << shift
            shift &+= 8
        }
        nodeBits = raw
    }

    /// A short node holding the first `count` (at most 7) of the bytes of
    /// `word` as loaded from memory (the first at the lowest address).
    @inline(__always)
    init(_ tag: NodeTag, firstBytesOf word: UInt64, count: Int) {
        let bytes = UInt64(littleEndian: word) & ((1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1)
        nodeBits = UInt64(tag.rawValue) | UInt64(truncatingIfNeeded: count) << 3 | bytes << 8
    }

    static let maxInlineBytes = 7

    @inline(__always) var tag: NodeTag { NodeTag(rawValue: UInt8(truncatingIfNeeded: nodeBits & 7)) ?? .null }
    @inline(__always) var start: Int { Int(truncatingIfNeeded: nodeBits >> 32) }
    @inline(__always) var count: Int { Int(truncatingIfNeeded: (nodeBits >> 3) & 0x1FFF_FFFF) }
    @inline(__always) var boolValue: Bool { nodeBits & 8 != 0 }
    @inline(__always) var inlineCount: Int { Int(truncatingIfNeeded: (nodeBits >> 3) & 7) }
}

/// Reads nodes of one document: its storages as of some moment.
struct NodeReader: @unchecked Sendable {
    // @unchecked: `DocumentStorages` is immutable once made.
    let storages: DocumentStorages?

    @inline(__always) var bytes: _AppendOnlyStorage<UInt8>? { storages?.bytes }

    /// The node at `index` in the column of depth `column`. Every run and
    /// open level a view can reach lies in its storages (see the file
    /// comment). A column or index past the storage answers a null node
    /// instead of trapping; slots between the written count and the
    /// capacity are not checked (the parser never points at them).
    @inline(__always)
    func node(column: Int, at index: Int) -> Node {
        guard let column = storages?.column(column), let base = column.base, index >= 0 && index < column.bound else {
            return Node(.null)
        }
        return base[index]
    }

    /// Calls `body` with the UTF-8 of a string or number node (short or not).
    @inline(__always)
    func withText<R>(of node: Node, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch node.tag {
        case .shortNumber, .shortString:
            return _withInlineBytes(of: node.nodeBits.littleEndian, offset: 1, count: node.inlineCount, body)
        default:
            guard let bytes, node.count > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return body(UnsafeBufferPointer(start: bytes._base + node.start, count: node.count))
        }
    }

    /// The public value of `node`; a container's children are in the
    /// column of depth `column`.
    ///
    /// - Complexity: O(1); allocates only for a number text over 16 bytes.
    func value(of node: Node, childrenIn column: Int) -> JSONValue {
        switch node.tag {
        case .null: return JSONValue(.null)
        case .bool: return JSONValue(.bool(node.boolValue))
        case .number, .shortNumber: return JSONValue(.number(withText(of: node) { JSONNumber(_unchecked: $0) }))
        case .string, .shortString: return JSONValue(.string(string(of: node)))
        case .array:
            guard node.count > 0 else { return JSONValue(.array(JSONArray())) }
            return JSONValue(.array(JSONArray(arrayElements: .run(NodeRun(reader: self, column: column, node: node)))))
        case .object:
            guard node.count > 0 else { return JSONValue(.object(JSONObject())) }
            return JSONValue(.object(JSONObject(memberStorage: .run(NodeRun(reader: self, column: column, node: node)))))
        }
    }

    /// A string node as text; a long one shares the document's bytes.
    @inline(__always)
    func string(of node: Node) -> AppendOnlyText {
        if node.tag == .string { return AppendOnlyText(_slice: bytes, start: node.start, count: node.count) }
        var text = AppendOnlyText()
        withText(of: node) { text.append(utf8: $0) }
        return text
    }

    /// The string the parser is still inside, bytes `start..<start+count`,
    /// marked incomplete.
    func openString(start: Int, count: Int) -> JSONValue {
        JSONValue(.string(AppendOnlyText(_slice: bytes, start: start, count: count)), isComplete: false)
    }

    /// A key node decoded.
    func key(of node: Node) -> String {
        withText(of: node) { String(decoding: $0, as: UTF8.self) }
    }
}

/// Where an array's elements or an object's members are: built in code
/// (`Built` is `JSONValue` or `Member`), a closed run of a parsed
/// document, or a container the parser is still inside, as a snapshot saw it.
enum Children<Built: Sendable>: Sendable {
    case values(AppendOnlyArray<Built>)
    case run(NodeRun)
    case open(OpenContainer)
}

/// A closed container's run of child nodes, with the storages to read them.
struct NodeRun: Sendable {
    let reader: NodeReader
    /// The depth whose column holds the run.
    let column: Int
    /// The container's own node: the index of its first child in the column
    /// and the number of children (members for an object), in one word.
    let node: Node

    @inline(__always) var start: Int { node.start }
    @inline(__always) var count: Int { node.count }

    /// The node at `offset` in the run (an object's run has two per member).
    @inline(__always)
    func node(_ offset: Int) -> Node { reader.node(column: column, at: start &+ offset) }

    /// The value of the node at `offset`.
    @inline(__always)
    func value(_ offset: Int) -> JSONValue { reader.value(of: node(offset), childrenIn: column &+ 1) }
}

/// One container the parser was inside when a snapshot was taken: two
/// words, since a held snapshot holds one of these per level.
struct OpenLevel {
    /// Bits 0-31: the index of the first child node in the level's column;
    /// bits 32-63: the number of finished child nodes (objects: key and
    /// value nodes). The parser appends past them.
    let span: UInt64
    /// Objects: the key of the member being read. Arrays: `arrayMarker`, a
    /// null node, which no key can be.
    let key: Node

    static let arrayMarker = Node(.null)

    init(start: Int, count: Int, key: Node, isObject: Bool) {
        self.span = UInt64(truncatingIfNeeded: start) & 0xFFFF_FFFF | UInt64(truncatingIfNeeded: count) << 32
        self.key = isObject ? key : Self.arrayMarker
    }

    var start: Int { Int(truncatingIfNeeded: span & 0xFFFF_FFFF) }
    var count: Int { Int(truncatingIfNeeded: span >> 32) }
    var isObject: Bool { key.nodeBits != Self.arrayMarker.nodeBits }
}

/// What a snapshot's open path shares across its levels.
struct OpenPathHeader {
    let reader: NodeReader
    /// The innermost open value below the last level, a visible string, as
    /// a slice of the reader's bytes: bit 63 set when there is one, bits
    /// 32-60 its length, bits 0-31 its start (see `NodeLimits`).
    private(set) var leaf: UInt64
    /// Bits 0-31 the depth; bits 32-63 how many levels the path's block
    /// has room for, written once the block exists (`OpenPath.make`): a
    /// rewrite then need not ask the allocator (`ManagedBuffer.capacity`
    /// is a `malloc_usable_size` call on Linux, one a delta). Depths stay
    /// far below 2^32: each level took a byte of a document of at most
    /// 1 GiB.
    private var depthAndRoom: UInt64
    /// Set for a path that the snapshots of a stretch of input share: the
    /// parser as it was when the path was taken, to replay the rest from
    /// (see ParseCheckpoint.swift). Such a path has no room: it is never
    /// written over.
    let checkpoint: ParseCheckpoint?

    var depth: Int { Int(truncatingIfNeeded: depthAndRoom & 0xFFFF_FFFF) }
    var room: Int { Int(truncatingIfNeeded: depthAndRoom >> 32) }

    init(reader: NodeReader, leaf: (start: Int, count: Int)?, depth: Int, checkpoint: ParseCheckpoint? = nil) {
        self.reader = reader
        self.leaf = Self.packed(leaf)
        self.depthAndRoom = UInt64(truncatingIfNeeded: depth) & 0xFFFF_FFFF
        self.checkpoint = checkpoint
    }

    /// This header in a block with room for `levels` levels.
    func inBlock(withRoomFor levels: Int) -> OpenPathHeader {
        var header = self
        header.depthAndRoom = depthAndRoom & 0xFFFF_FFFF | UInt64(truncatingIfNeeded: Swift.min(levels, Int(UInt32.max))) << 32
        return header
    }

    private static func packed(_ leaf: (start: Int, count: Int)?) -> UInt64 {
        leaf.map { 1 << 63 | UInt64(truncatingIfNeeded: $0.count) << 32 | UInt64(truncatingIfNeeded: $0.start) & 0xFFFF_FFFF } ?? 0
    }

    var hasLeaf: Bool { leaf >> 63 != 0 }

    /// Becomes the header of `reader`, `leaf` and `depth`. When it reads
    /// the same storages already (most feeds) only the plain fields are
    /// written: a new header would retain the storages, and dropping the
    /// old one release them.
    @inline(__always)
    mutating func update(reader: NodeReader, leaf: (start: Int, count: Int)?, depth: Int) {
        if !_isSameObject(self.reader.storages, reader.storages) {
            self = OpenPathHeader(reader: reader, leaf: leaf, depth: depth).inBlock(withRoomFor: room)
            return
        }
        self.leaf = Self.packed(leaf)
        depthAndRoom = depthAndRoom & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: depth) & 0xFFFF_FFFF
    }

    /// The leaf string, marked incomplete.
    var leafValue: JSONValue? {
        guard hasLeaf else { return nil }
        return reader.openString(
            start: Int(truncatingIfNeeded: leaf & 0xFFFF_FFFF),
            count: Int(truncatingIfNeeded: (leaf >> 32) & 0x1FFF_FFFF))
    }
}

/// A snapshot's open path, outermost container first, in one allocation
/// (so a snapshot costs one small block however deep it is). Immutable.
final class OpenPath: ManagedBuffer<OpenPathHeader, OpenLevel> {

    static func make(_ header: OpenPathHeader, levels: (Int) -> OpenLevel) -> OpenPath {
        let buffer = create(minimumCapacity: header.depth) {
            header.inBlock(withRoomFor: header.checkpoint == nil ? $0.capacity : 0)
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            for level in 0..<header.depth { (elements + level).initialize(to: levels(level)) }
        }
        return unsafeDowncast(buffer, to: OpenPath.self)
    }

    /// Writes the header of `reader`, `leaf` and `depth`, and its levels,
    /// over this path, if they fit; false (nothing written) if not. Only
    /// for a path no one else holds (the caller checked
    /// `isKnownUniquelyReferenced`): a path is immutable to every snapshot
    /// that can see it.
    ///
    /// - Complexity: O(`depth`).
    func rewrite(reader: NodeReader, leaf: (start: Int, count: Int)?, depth: Int, levels: (Int) -> OpenLevel) -> Bool {
        guard depth <= withUnsafeMutablePointerToHeader({ $0.pointee.room }) else { return false }
        withUnsafeMutablePointers { old, elements in
            elements.deinitialize(count: old.pointee.depth)
            old.pointee.update(reader: reader, leaf: leaf, depth: depth)
            for level in 0..<depth { (elements + level).initialize(to: levels(level)) }
        }
        return true
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.depth) }
    }

    // Through the pointer, not the `header` property, for the reason given
    // in DocumentStorages.swift (a run-time exclusivity check per read).
    @inline(__always) var reader: NodeReader { withUnsafeMutablePointerToHeader { $0.pointee.reader } }
    @inline(__always) var depth: Int { withUnsafeMutablePointerToHeader { $0.pointee.depth } }
    @inline(__always) var hasLeaf: Bool { withUnsafeMutablePointerToHeader { $0.pointee.hasLeaf } }
    @inline(__always) var leafValue: JSONValue? { withUnsafeMutablePointerToHeader { $0.pointee.leafValue } }
    var checkpoint: ParseCheckpoint? { withUnsafeMutablePointerToHeader { $0.pointee.checkpoint } }

    /// The value of the container at `level`.
    func value(at level: Int) -> JSONValue {
        let container = OpenContainer(path: self, level: level)
        return withUnsafeMutablePointerToElements { $0[level].isObject }
            ? JSONValue(.object(JSONObject(memberStorage: .open(container))), isComplete: false)
            : JSONValue(.array(JSONArray(arrayElements: .open(container))), isComplete: false)
    }
}

/// A container the parser is still inside, as a snapshot saw it: one level
/// of an ``OpenPath``. Its children are in the column of its level.
struct OpenContainer: @unchecked Sendable {
    // @unchecked: `OpenPath` is immutable once made, but as a subclass of
    // the non-Sendable ManagedBuffer it cannot say so itself.
    let path: OpenPath
    let level: Int

    @inline(__always) private var openLevel: OpenLevel { path.withUnsafeMutablePointerToElements { $0[level] } }

    var reader: NodeReader { path.reader }
    /// The number of finished child nodes (objects: two per member).
    var childNodeCount: Int { openLevel.count }
    /// The finished child node at `offset`.
    func childNode(_ offset: Int) -> Node { reader.node(column: level, at: openLevel.start &+ offset) }
    /// The value of the finished child node at `offset`.
    func childValue(_ offset: Int) -> JSONValue { reader.value(of: childNode(offset), childrenIn: level &+ 1) }
    /// Objects: the key of the open member (valid when `open` is set).
    var openKey: Node { openLevel.key }

    /// Whether there is a visible incomplete last child.
    var hasOpen: Bool { level + 1 < path.depth || path.hasLeaf }

    /// The incomplete last child, if visible: the next level, or the leaf.
    var open: JSONValue? {
        level + 1 < path.depth ? path.value(at: level + 1) : path.leafValue
    }
}

/// Bounds that keep node fields in their widths.
enum NodeLimits {
    /// Byte offsets and node indices are stored in 32 bits, and a closed
    /// container's count of elements or members in 29. Text is never longer
    /// than the input that carried it and a node needs at least one input
    /// byte, so 4 GiB would do for the offsets; but an array element needs
    /// two bytes (`0,`), so an array in a document of 1 GiB has at most
    /// 2^29 - 1 elements. Beyond that a count would be cut short silently.
    static let maxDocumentBytes = 1 << 30
    /// String and number texts are stored with 29-bit lengths.
    static let maxTextBytes = (1 << 29) - 1
}
