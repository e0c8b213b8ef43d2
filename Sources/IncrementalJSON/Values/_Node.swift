// _Node: the compact form of a finished value inside a parsed document.
//
// Design
// ------
// A parse does not build a tree of separately allocated nodes. It writes
// every finished container's children, in order, into one append-only node
// array (post-order: a container's run of children is written when it
// closes, after everything nested inside them), and the text of every
// string, key and number into one append-only byte array. A node is 16 bytes
// of plain data: a scalar points into the bytes, a container at its run of
// nodes (an object's run is key, value, key, value, ...). So parsing
// allocates per document rather than per value, nothing is reference
// counted per value, and releasing a document frees two buffers instead of
// walking a tree.
//
// The public values (`JSONValue`, `JSONArray`, `JSONObject`,
// `AppendOnlyText`) are made from nodes when they are read: O(1) and without
// allocation, except for a number text longer than 16 bytes. A closed
// container is a `_NodeRun` (the two storages and its run); a container the
// parser is still inside is an `_OpenContainer` (its children so far, which
// the parser keeps appending to past the snapshot's count, and its open
// child).
//
// Lifetime: a view holds the storages that were current when it was made.
// They hold every node and byte the view can reach: children are written
// before the node that points at them exists, and growing a storage copies
// its prefix into the new one while the old one stays alive for its holders.

/// What a node is.
enum _NodeTag: UInt8, Sendable {
    case null, `false`, `true`, number, string, array, object
}

/// A finished value in a parsed document (see the file comment).
struct _Node: Sendable {
    /// Number, string: offset of the text in the byte storage.
    /// Array, object: index of the first child in the node storage.
    var start: Int
    /// Number, string: bytes of text. Array: elements. Object: members
    /// (twice as many nodes).
    var count: UInt32
    var tag: _NodeTag

    @inline(__always)
    init(_ tag: _NodeTag, start: Int = 0, count: UInt32 = 0) {
        self.tag = tag
        self.start = start
        self.count = count
    }
}

/// Reads nodes of one document: the storages as of some moment.
struct _NodeReader: Sendable {
    let nodes: _AppendOnlyStorage<_Node>?
    let bytes: _AppendOnlyStorage<UInt8>?

    /// The bytes of a string or number node.
    @inline(__always)
    func text(of node: _Node) -> UnsafeBufferPointer<UInt8> {
        guard let bytes, node.count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: bytes.base + node.start, count: Int(node.count))
    }

    /// The public value of `node`.
    ///
    /// - Complexity: O(1); allocates only for a number text over 16 bytes.
    func value(of node: _Node) -> JSONValue {
        switch node.tag {
        case .null: return JSONValue(.null)
        case .false: return JSONValue(.bool(false))
        case .true: return JSONValue(.bool(true))
        case .number: return JSONValue(.number(JSONNumber(_unchecked: text(of: node))))
        case .string: return JSONValue(.string(string(of: node)))
        case .array:
            guard node.count > 0, let nodes else { return JSONValue(.array(JSONArray())) }
            return JSONValue(.array(JSONArray(_elements: .run(_NodeRun(nodes: nodes, bytes: bytes, node: node)))))
        case .object:
            guard node.count > 0, let nodes else { return JSONValue(.object(JSONObject())) }
            return JSONValue(.object(JSONObject(_members: .run(_NodeRun(nodes: nodes, bytes: bytes, node: node)))))
        }
    }

    /// A string node as text that shares the document's bytes.
    @inline(__always)
    func string(of node: _Node) -> AppendOnlyText {
        AppendOnlyText(_slice: bytes, start: node.start, count: Int(node.count))
    }

    /// A key node decoded.
    func key(of node: _Node) -> String {
        String(decoding: text(of: node), as: UTF8.self)
    }
}

/// A closed container's run of child nodes, with the storages to read them.
struct _NodeRun: Sendable {
    let nodes: _AppendOnlyStorage<_Node>
    let bytes: _AppendOnlyStorage<UInt8>?
    /// Index of the first child node and number of children (members for an
    /// object), packed to keep the view three words wide.
    let _packed: UInt64

    init(nodes: _AppendOnlyStorage<_Node>, bytes: _AppendOnlyStorage<UInt8>?, node: _Node) {
        self.nodes = nodes
        self.bytes = bytes
        // The parser keeps node indices below 2^32 (see `_NodeLimits`).
        self._packed = UInt64(truncatingIfNeeded: node.start) << 32 | UInt64(node.count)
    }

    @inline(__always) var start: Int { Int(truncatingIfNeeded: _packed >> 32) }
    @inline(__always) var count: Int { Int(truncatingIfNeeded: _packed & 0xFFFF_FFFF) }
    @inline(__always) var reader: _NodeReader { _NodeReader(nodes: nodes, bytes: bytes) }

    /// The node at `offset` in the run (an object's run has two per member).
    @inline(__always)
    func node(_ offset: Int) -> _Node { nodes.base[start &+ offset] }
}

/// One container the parser was inside when a snapshot was taken.
struct _OpenLevel {
    /// The finished children (objects: key and value nodes), shared with the
    /// parser, which appends past this count.
    let children: AppendOnlyArray<_Node>
    /// Objects: the key of the member being read.
    let key: _Node
    let isObject: Bool
}

/// What a snapshot's open path shares across its levels.
struct _OpenPathHeader {
    let reader: _NodeReader
    /// The innermost open value below the last level (a visible string).
    let leaf: JSONValue?
    let depth: Int
}

/// A snapshot's open path, outermost container first, in one allocation
/// (so a snapshot costs one small block however deep it is). Immutable.
final class _OpenPath: ManagedBuffer<_OpenPathHeader, _OpenLevel> {

    static func make(_ header: _OpenPathHeader, levels: (Int) -> _OpenLevel) -> _OpenPath {
        let buffer = create(minimumCapacity: header.depth) { _ in header }
        buffer.withUnsafeMutablePointerToElements { elements in
            for level in 0..<header.depth { (elements + level).initialize(to: levels(level)) }
        }
        return unsafeDowncast(buffer, to: _OpenPath.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.depth) }
    }

    /// The value of the container at `level`.
    func value(at level: Int) -> JSONValue {
        let container = _OpenContainer(path: self, level: level)
        return withUnsafeMutablePointerToElements { $0[level].isObject }
            ? JSONValue(.object(JSONObject(_members: .open(container))), isComplete: false)
            : JSONValue(.array(JSONArray(_elements: .open(container))), isComplete: false)
    }
}

/// A container the parser is still inside, as a snapshot saw it: one level
/// of an ``_OpenPath``.
struct _OpenContainer: @unchecked Sendable {
    // @unchecked: `_OpenPath` is immutable once made, but as a subclass of
    // the non-Sendable ManagedBuffer it cannot say so itself.
    let path: _OpenPath
    let level: Int

    @inline(__always) private var _level: _OpenLevel { path.withUnsafeMutablePointerToElements { $0[level] } }

    /// The finished children, as nodes.
    var children: AppendOnlyArray<_Node> { _level.children }
    var reader: _NodeReader { path.header.reader }
    /// Objects: the key of the open member (valid when `open` is set).
    var openKey: _Node { _level.key }

    /// Whether there is a visible incomplete last child.
    var hasOpen: Bool { level + 1 < path.header.depth || path.header.leaf != nil }

    /// The incomplete last child, if visible: the next level, or the leaf.
    var open: JSONValue? {
        level + 1 < path.header.depth ? path.value(at: level + 1) : path.header.leaf
    }
}

/// Bounds that keep node fields in their widths.
enum _NodeLimits {
    /// Node indices and counts are stored in 32 bits.
    static let maxNodes = Int(UInt32.max)
    /// String and number texts are at most this long.
    static let maxTextBytes = Int(UInt32.max)
}
