// WholeDocumentParser: one complete JSON text, read in one pass.
//
// `JSONValue.parse` is given the whole document, so the resumable parser's
// machinery is all cost there: a state dispatch per token, strings in runs
// that a chunk end might cut, a column storage that snapshots could share
// (so every append is an atomic claim), a key cache, and at the end a copy
// of every node into one compact buffer. A `web_search_tool_result` start
// (700 bytes, fifty short strings) cost about 30,000 instructions that way,
// more than a hundred text deltas (Benchmarks/RESULTS-HISTORY.md).
//
// This reader writes the same document (Node.swift) directly:
// - the containers are a loop over an explicit stack (no recursion, so
//   `maxDepth` bounds the stack, not the thread's);
// - a string is read whole: a short plain one (most keys, ids, URLs) by
//   one or two 16-byte windows (ShortString.h) and copied, any other by
//   the C scan that unescapes into its final place
//   (`_scan_json_string_copying_direct`); the place is a room as large as
//   the input, which every decoded string, long key and long number fits
//   in (none is longer than the input bytes it came from);
// - a container's children wait in one buffer the reader owns (`pending`)
//   until it closes, then move as one run to `closed`; at the end each run
//   is copied to its column's place in one exact buffer, the compact form
//   `settleDocument` gives a small document.
//
// It accepts exactly what the resumable parser accepts, or less: anything
// it does not read (an error, a scalar at the top, an empty input) makes
// it return nil, and `JSONValue.parse` then runs the
// resumable parser, which reads it or reports the error with its offset.
// What it accepts it reads to an equal value. `WholeDocumentParserTests`
// and the `json` fuzz target hold the two parsers to that.
//
// Worked example: `{"a": [1, "xy"]}`. `{` opens an object frame and the key
// `a` becomes a one-byte inline node, the frame's key. `[` opens an array
// frame; `1` (an inline number node) and `"xy"` (copied to the room at
// 0..<2, a node for bytes 0, count 2) wait in `pending`. `]` closes the
// array: its two children move to `closed` as a run of column 1, which
// had no nodes, so its node says "two children from index 0 of column 1".
// That node waits in `pending` after its key `a`, until `}` closes the
// object, the root: a run of two for column 0, and the root's node
// (column 0, from 0, one member). The runs are copied to one buffer,
// [a, array] then [1, "xy"], and the room's first two bytes are the text.

import _ScanAcceleration

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The children of one closed container: `count` nodes of `closed`, for
/// the column of `depth`.
private struct ClosedRun {
    var depth: Int
    var count: Int
}

/// Nodes in a buffer the parser owns alone: an append is a store and a
/// count, without an array's uniqueness check and growth path inline.
/// Nodes are plain words, so dropping some is setting `count`.
private struct NodeBuffer {
    private(set) var base: UnsafeMutablePointer<Node>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ node: Node) {
        if count == capacity { grow(toHold: count &+ 1) }
        (base + count).initialize(to: node)
        count &+= 1
    }

    mutating func append(copying nodes: UnsafePointer<Node>, count n: Int) {
        if capacity &- count < n { grow(toHold: count &+ n) }
        (base + count).initialize(from: nodes, count: n)
        count &+= n
    }

    /// Drops the nodes from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        count = Swift.min(count, Swift.max(0, newCount))
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grown = Swift.max(capacity &* 2, needed)
        let fresh = UnsafeMutablePointer<Node>.allocate(capacity: grown)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }

    func deallocate() { base.deallocate() }
}

/// Reads one complete JSON document whose top level is an object or an
/// array, or returns nil (file comment).
struct WholeDocumentParser {
    private let p: UnsafePointer<UInt8>
    private let n: Int
    private let maxDepth: Int
    private let stringByteLimit: Int
    /// Where decoded text goes: a room of `n` bytes.
    private let out: UnsafeMutablePointer<UInt8>
    private var written = 0
    /// The open containers; a frame's `start` is where its children begin
    /// in `pending`.
    private var frames: [Frame] = []
    /// The children read so far of every open container, innermost last.
    private var pending: NodeBuffer
    /// The children of the closed containers, a run each, in the order
    /// they closed, and which column each run belongs to.
    private var closed: NodeBuffer
    private var runs: [ClosedRun] = []
    /// How many nodes each column has so far.
    private var columnCounts: [Int] = []

    /// Whether the general path (CLAUDE_STREAMING_GENERAL_PATH) turned the
    /// one-pass reader off, read once.
    static let isOff = _scan_general_path() != 0

    /// The value of `bytes`, or nil when this reader leaves it to the
    /// resumable parser (file comment).
    ///
    /// - Complexity: O(`bytes.count`).
    static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONParserOptions) -> JSONValue? {
        let documentByteLimit = Swift.min(options.maxBytes ?? NodeLimits.maxDocumentBytes, NodeLimits.maxDocumentBytes)
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= documentByteLimit, options.maxDepth >= 1 else { return nil }
        var text = AppendOnlyArray<UInt8>()
        text.reserveCapacity(bytes.count)
        guard let room = text._claimRoom(minimum: bytes.count), let out = room.baseAddress else { return nil }
        var parser = WholeDocumentParser(
            p: base.assumingMemoryBound(to: UInt8.self), n: bytes.count, maxDepth: options.maxDepth,
            stringByteLimit: Swift.min(options.maxStringBytes ?? NodeLimits.maxTextBytes, NodeLimits.maxTextBytes), out: out)
        defer { parser.deallocate() }
        guard let root = parser.read() else { return nil }
        text._commitRoom(parser.written)
        text._releaseUnusedCapacity()
        let storages = DocumentStorages.laidOut(nodes: parser.columns(), counts: parser.columnCounts, bytes: text._storage)
        return NodeReader(storages: storages).value(of: root, childrenIn: 0)
    }

    private init(p: UnsafePointer<UInt8>, n: Int, maxDepth: Int, stringByteLimit: Int, out: UnsafeMutablePointer<UInt8>) {
        self.p = p
        self.n = n
        self.maxDepth = maxDepth
        self.stringByteLimit = stringByteLimit
        self.out = out
        frames.reserveCapacity(IncrementalJSONParser.firstDepthCapacity)
        columnCounts.reserveCapacity(IncrementalJSONParser.firstDepthCapacity)
        // About a node for every eight bytes of an API event.
        let nodes = Swift.max(IncrementalJSONParser.firstColumnCapacity, Swift.min(n / 8, 1 << 16))
        pending = NodeBuffer(capacity: nodes)
        closed = NodeBuffer(capacity: nodes)
        runs.reserveCapacity(IncrementalJSONParser.firstColumnCapacity)
    }

    private func deallocate() {
        pending.deallocate()
        closed.deallocate()
    }

    /// The root's node, or nil.
    private mutating func read() -> Node? {
        var i = skipWhitespace(0)
        guard i < n, p[i] == UInt8(ascii: "{") || p[i] == UInt8(ascii: "[") else { return nil }
        var node: Node
        value: while true {
            // A value starts here, after optional whitespace.
            i = skipWhitespace(i)
            guard i < n else { return nil }
            switch p[i] {
            case UInt8(ascii: "\""):
                guard let string = readString(from: i &+ 1, isKey: false) else { return nil }
                node = string.node
                i = string.end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = p[i] == UInt8(ascii: "{")
                guard frames.count < maxDepth else { return nil }
                frames.append(Frame(isObject: isObject, start: pending.count))
                i = skipWhitespace(i &+ 1)
                guard i < n else { return nil }
                if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i &+= 1
                    node = close()
                } else if isObject {
                    guard let next = readKey(at: i) else { return nil }
                    i = next
                    continue value
                } else {
                    continue value
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let number = readNumber(from: i) else { return nil }
                node = number.node
                i = number.end
            case UInt8(ascii: "t"):
                guard matches("true", at: i) else { return nil }
                node = Node(bool: true)
                i &+= 4
            case UInt8(ascii: "f"):
                guard matches("false", at: i) else { return nil }
                node = Node(bool: false)
                i &+= 5
            case UInt8(ascii: "n"):
                guard matches("null", at: i) else { return nil }
                node = Node(.null)
                i &+= 4
            default:
                return nil
            }
            // The value is finished: hand it to its container, and close
            // the containers that end right after it.
            while true {
                let top = frames.count &- 1
                guard top >= 0 else { return skipWhitespace(i) == n ? node : nil }
                let isObject = frames[top].isObject
                if isObject { pending.append(frames[top].key) }
                pending.append(node)
                i = skipWhitespace(i)
                guard i < n else { return nil }
                let b = p[i]
                i &+= 1
                if b == UInt8(ascii: ",") {
                    if isObject {
                        i = skipWhitespace(i)
                        guard i < n, let next = readKey(at: i) else { return nil }
                        i = next
                    }
                    continue value
                }
                guard b == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                node = close()
            }
        }
    }

    // MARK: Containers

    /// Pops the innermost container (there is one), moves its children to
    /// `closed` as the next run of its depth's column, and returns its
    /// node. Containers at one depth close in document order, and never
    /// two at once, so a column is its runs in the order they closed.
    private mutating func close() -> Node {
        let frame = frames.removeLast()
        let depth = frames.count
        while columnCounts.count <= depth { columnCounts.append(0) }
        let start = columnCounts[depth]
        let count = pending.count &- frame.start
        if count > 0 {
            closed.append(copying: pending.base + frame.start, count: count)
            pending.truncate(to: frame.start)
            runs.append(ClosedRun(depth: depth, count: count))
            columnCounts[depth] = start &+ count
        }
        return Node(frame.isObject ? .object : .array, start: start, count: frame.isObject ? count / 2 : count)
    }

    /// The columns one after another: each run of `closed` moved to its
    /// column's place.
    ///
    /// - Complexity: O(nodes).
    private func columns() -> AppendOnlyArray<Node> {
        var all = AppendOnlyArray<Node>()
        guard closed.count > 0 else { return all }
        all.reserveCapacity(closed.count)
        guard let room = all._claimRoom(minimum: closed.count), let target = room.baseAddress else { return all }
        var next = DocumentStorages.starts(of: columnCounts)
        var position = 0
        for run in runs {
            (target + next[run.depth]).initialize(from: closed.base + position, count: run.count)
            next[run.depth] &+= run.count
            position &+= run.count
        }
        all._commitRoom(closed.count)
        return all
    }

    // MARK: Tokens

    @inline(__always)
    private func skipWhitespace(_ start: Int) -> Int { IncrementalJSONParser.whitespaceEnd(p, start, n) }

    private func matches(_ word: StaticString, at i: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard n &- i >= count else { return false }
        return memcmp(p + i, word.utf8Start, count) == 0
    }

    /// Reads the key whose opening quote is at `i` (anything else: nil),
    /// then the colon; returns the index after the colon.
    @inline(__always)
    private mutating func readKey(at i: Int) -> Int? {
        guard p[i] == UInt8(ascii: "\""), let key = readString(from: i &+ 1, isKey: true) else { return nil }
        let colon = skipWhitespace(key.end)
        guard colon < n, p[colon] == UInt8(ascii: ":") else { return nil }
        return colon &+ 1
    }

    /// Reads the string whose contents start at `i`; returns its node and
    /// the index after its closing quote. A value's text, and a key's when
    /// it is longer than a node holds, goes to the room; a short key lives
    /// in its node and becomes the open object's key.
    @inline(__always)
    private mutating func readString(from i: Int, isKey: Bool) -> (node: Node, end: Int)? {
        // Most keys and many values are short and plain: a window or two
        // find their end (ShortString.h); the scan reads the rest.
        let quote = _scan_json_short_string(p, i, n)
        if quote < n {
            let count = quote &- i
            guard count <= stringByteLimit else { return nil }
            let node: Node
            if isKey && count <= Node.maxInlineBytes && n &- i >= 8 {
                // Eight bytes of input left: the key loads into its node
                // at once.
                node = Node(.shortString, firstBytesOf: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self), count: count)
            } else {
                guard let stored = store(copying: i, count) else { return nil }
                node = isKey && count <= Node.maxInlineBytes ? inlineKey(at: stored) : Node(.string, start: stored, count: count)
            }
            if isKey { frames[frames.count &- 1].key = node }
            return (node, quote &+ 1)
        }
        guard let (start, count, end) = readLongString(from: i) else { return nil }
        let node = isKey && count <= Node.maxInlineBytes ? inlineKey(at: start) : Node(.string, start: start, count: count)
        if isKey { frames[frames.count &- 1].key = node }
        return (node, end)
    }

    /// The key just stored in the room from `start` (at most seven bytes),
    /// moved into its node and taken back out of the room.
    private mutating func inlineKey(at start: Int) -> Node {
        let node = Node(.shortString, inline: UnsafeBufferPointer(start: out + start, count: written &- start))
        written = start
        return node
    }

    /// Copies the plain string `p[i..<i+count]` to the room; where it starts there.
    @inline(__always)
    private mutating func store(copying i: Int, _ count: Int) -> Int? {
        let start = written
        if count <= 32 && n &- i >= 32 && n &- start >= 32 {
            // Two windows copied whole: the input and the room both have
            // 32 bytes there (`written` is never past `i`, since nothing
            // stored is longer than the input it came from), and what
            // lies past `count` is written over by the next string.
            let source = UnsafeRawPointer(p + i)
            let target = UnsafeMutableRawPointer(out + start)
            target.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16, as: SIMD16<UInt8>.self)
            written = start &+ count
            return start
        }
        return write(p + i, count) ? start : nil
    }

    /// Reads a string the windows did not end into the room: where its
    /// text starts there, its length, and the index after its closing quote.
    private mutating func readLongString(from i: Int) -> (start: Int, count: Int, end: Int)? {
        let start = written
        var end = 0
        var count = 0
        switch _scan_json_string_copying_direct(p, i, n, out + start, n &- start, &end, &count) {
        case Int32(_scan_string_read):
            // The scan never reads past `n` nor writes past the room.
            guard count <= stringByteLimit, end <= n, count <= n &- start else { return nil }
            written = start &+ count
            return (start, count, end)
        case Int32(_scan_string_declined):
            return readStringByRuns(from: i)
        default:
            return nil
        }
    }

    /// ``readLongString(from:)`` for what the scan declines: a `\u` surrogate
    /// pair, or an error (then nil).
    private mutating func readStringByRuns(from i: Int) -> (start: Int, count: Int, end: Int)? {
        let start = written
        var j = i
        while true {
            let run = _JSONStringReader.run(p, from: j, to: n)
            guard case .special = run.stop, write(p + j, run.end &- j) else { return nil }
            j = run.end
            let b = p[j]
            if b == UInt8(ascii: "\"") {
                let count = written &- start
                return count <= stringByteLimit ? (start, count, j &+ 1) : nil
            }
            guard b == UInt8(ascii: "\\"), n &- j >= 2 else { return nil }
            if p[j &+ 1] != UInt8(ascii: "u") {
                guard var byte = _JSONStringReader.escapedByte(p[j &+ 1]), write(&byte, 1) else { return nil }
                j &+= 2
                continue
            }
            guard var scalar = hexQuad(at: j &+ 2) else { return nil }
            j &+= 6
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard n &- j >= 6, p[j] == UInt8(ascii: "\\"), p[j &+ 1] == UInt8(ascii: "u"), let low = hexQuad(at: j &+ 2),
                    low >= 0xDC00 && low <= 0xDFFF
                else { return nil }
                scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
                j &+= 6
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                return nil
            }
            let stored = _JSONStringReader.withUTF8(of: scalar) { bytes in bytes.baseAddress.map { write($0, bytes.count) } ?? false }
            guard stored else { return nil }
        }
    }

    /// The four hex digits at `p[i...]`, or nil.
    private func hexQuad(at i: Int) -> UInt32? {
        guard n &- i >= 4 else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let digit = _JSONStringReader.hexDigit(p[i &+ k]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// Copies `count` bytes to the room; false when they would not fit
    /// (they always do: nothing stored is longer than its input).
    private mutating func write(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count <= n &- written else { return false }
        (out + written).update(from: bytes, count: count)
        written &+= count
        return true
    }

    /// Reads the number starting at `i`: its node, and the index after it.
    private mutating func readNumber(from i: Int) -> (node: Node, end: Int)? {
        let (j, state) = NumberState.start.scan(p, from: i, to: n)
        // A number that runs to the end of the input is inside a container
        // that never closed.
        guard state.isTerminal, j < n else { return nil }
        let text = UnsafeBufferPointer(start: p + i, count: j &- i)
        if text.count <= Node.maxInlineBytes { return (Node(.shortNumber, inline: text), j) }
        let start = written
        guard text.count <= NodeLimits.maxTextBytes, let base = text.baseAddress, write(base, text.count) else { return nil }
        return (Node(.number, start: start, count: text.count), j)
    }
}
