// IncrementalJSONParser: a resumable push parser that keeps a partial value.
//
// Design
// ------
// The parser is a state machine over bytes with an explicit stack of open
// containers (no recursion), so a chunk may end on any byte (inside a string,
// an escape, a surrogate pair, a number, a literal, a multi-byte character)
// and the next chunk continues where it stopped. Every byte is examined a
// constant number of times, so total work is O(n) over all chunks.
//
// The document is written as it is read (see _Node.swift): each finished
// value becomes an 8-byte node appended to its open container's child list
// (`_Frame.children`); when a container closes, its children move into the
// document's node storage as one run and the container becomes a node in
// its parent. A number or key of up to 7 bytes sits in its node; other
// text goes once into the document's byte storage. A whole parse therefore
// allocates a handful of buffers, not one per value; a closed frame's child
// list is reused by the next frame unless a snapshot still holds it. Longer
// repeated keys (an array of records) are stored once, through a small cache.
//
// `value` assembles a snapshot from the top of the stack down: the open
// string (if visible), wrapped by each open container as its one open child.
// That is one block of O(depth) size; the finished children and the bytes
// are storage the parser keeps appending to past the snapshot's counts.
//
// Visibility (so that a later snapshot only ever extends an earlier one):
// a string shows as soon as its opening quote arrives; a number or literal
// only once its token has ended (a number needs the next delimiter or
// `finish()`, since `12` may become `123`); an object member appears when its
// value does.

/// A resumable JSON parser fed in chunks, with a partial value at any moment.
///
/// ```swift
/// var parser = IncrementalJSONParser()
/// try parser.feed(#"{"city": "Par"#)
/// parser.value?["city"]?.stringValue   // "Par" (incomplete)
/// try parser.feed(#"is", "days": 3}"#)
/// let trip = try parser.finish()       // {"city":"Paris","days":3}
/// ```
///
/// - Complexity: `feed` is O(bytes fed); `value` is O(depth).
public struct IncrementalJSONParser: Sendable {
    public let options: JSONParserOptions
    /// `options`' limits, capped where the document layout needs it: byte
    /// offsets are 32 bits and text lengths 29 bits (`_NodeLimits`).
    let _maxDocumentBytes: Int
    let _maxStringBytes: Int

    var _stack: [_Frame] = []
    var _state: _ParserState = .value
    var _root: JSONValue? = nil
    var _consumed = 0
    var _failure: JSONParseError? = nil

    /// The document: closed containers' child runs, and all text.
    var _nodes = AppendOnlyArray<_Node>()
    var _bytes = AppendOnlyArray<UInt8>()
    /// Child lists of closed frames, kept for reuse.
    var _spareChildren: [AppendOnlyArray<_Node>] = []
    /// Per depth, the child count of the container that last closed there.
    /// Siblings tend to have the same shape (an array of records), so a new
    /// child list reserves that many slots: one exact allocation when no
    /// reusable list is at hand (a snapshot kept the last one).
    var _sizeHints: [Int] = []
    /// Recently seen keys, by a hash of their bytes.
    var _keyCache = _KeyCache()

    // The current string: a value (its bytes go straight into `_bytes` from
    // `_stringStart` on) or a key (collected in `_key`, then stored once).
    var _stringStart = 0
    var _key: [UInt8] = []
    var _stringIsKey = false
    var _escape: _EscapeState = .none
    var _hex: UInt32 = 0
    var _hexCount = 0
    var _highSurrogate: UInt32 = 0
    /// Continuation bytes still owed by a multi-byte character cut by a chunk end,
    /// and the allowed range of the next one.
    var _utf8Need = 0
    var _utf8Low: UInt8 = 0x80
    var _utf8High: UInt8 = 0xBF

    // The current number (bytes from earlier chunks) or literal.
    var _number: _NumberState = .start
    var _token: [UInt8] = []
    var _literal: _Literal = .true
    var _matched = 0

    public init(options: JSONParserOptions = .init()) {
        self.options = options
        _maxDocumentBytes = Swift.min(options.maxBytes ?? _NodeLimits.maxDocumentBytes, _NodeLimits.maxDocumentBytes)
        _maxStringBytes = Swift.min(options.maxStringBytes ?? _NodeLimits.maxTextBytes, _NodeLimits.maxTextBytes)
    }

    // MARK: Feeding

    /// Parses the next chunk. After an error every later call throws it again.
    ///
    /// - Complexity: O(`bytes.count`).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        if let failure = _failure { throw failure }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var count = bytes.count
        var limit: Int? = nil
        if count > _maxDocumentBytes - _consumed {
            count = Swift.max(0, _maxDocumentBytes - _consumed)
            limit = _maxDocumentBytes
        }
        try _consume(base.assumingMemoryBound(to: UInt8.self), count)
        if let limit { throw _fail(.sizeLimitExceeded(limit), at: 0) }
    }

    public mutating func feed(_ bytes: [UInt8]) throws(JSONParseError) {
        // The stdlib's closure-taking accessors are not typed-throws yet, so
        // the error is carried out by hand.
        var failure: JSONParseError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(JSONParseError) { try feed(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public mutating func feed(_ text: String) throws(JSONParseError) {
        var text = text
        var failure: JSONParseError? = nil
        text.withUTF8 { utf8 in
            do throws(JSONParseError) { try feed(UnsafeRawBufferPointer(utf8)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Ends the input: the document must be one complete value (trailing
    /// whitespace is fine). Returns it. A top-level number ends here.
    public mutating func finish() throws(JSONParseError) -> JSONValue {
        if let failure = _failure { throw failure }
        if _state == .number && _stack.isEmpty && _number.isTerminal {
            let token = _token
            token.withUnsafeBufferPointer { _emitNumber($0) }
        }
        if _state == .done, let root = _root { return root }
        throw _fail(.unexpectedEnd, at: 0)
    }

    // MARK: Reading

    /// True once a whole top-level value has been read.
    public var isComplete: Bool { _state == .done }

    /// Bytes parsed so far (up to the error offset after an error).
    public var bytesConsumed: Int { _consumed }

    /// The error that stopped the parser, if any.
    public var failure: JSONParseError? { _failure }

    /// The value so far; nil before anything is visible. Nodes the parser is
    /// still inside are marked incomplete.
    ///
    /// - Complexity: O(depth). Shares the parser's storage; never copies
    ///   strings or finished children.
    public var value: JSONValue? {
        if _state == .done { return _root }
        var leaf: (start: Int, count: Int)? = nil
        if _state == .string && !_stringIsKey && options.partialStrings == .visible {
            leaf = (_stringStart, _bytes.count - _stringStart)
        }
        guard !_stack.isEmpty else { return leaf.map { _reader.openString(start: $0.start, count: $0.count) } }
        let stack = _stack
        let path = _OpenPath.make(_OpenPathHeader(reader: _reader, leaf: leaf, depth: stack.count)) { level in
            _OpenLevel(children: stack[level].children, key: stack[level].key, isObject: stack[level].isObject)
        }
        return path.value(at: 0)
    }

    // MARK: Building the document

    /// Reads the document as it is now.
    var _reader: _NodeReader { _NodeReader(nodes: _nodes._storage, bytes: _bytes._storage) }

    /// Hands a finished value to its container (or makes it the root).
    @inline(__always)
    mutating func _emit(_ node: _Node) {
        let top = _stack.count &- 1
        if top < 0 {
            _root = _reader.value(of: node)
            _state = .done
            return
        }
        if _stack[top].isObject {
            _stack[top].children._append(_stack[top].key, node)
        } else {
            _stack[top].children.append(node)
        }
        _state = .afterValue
    }

    /// Stores a finished number's text and emits it.
    @inline(__always)
    mutating func _emitNumber(_ text: UnsafeBufferPointer<UInt8>) {
        if text.count <= _Node.maxInlineBytes {
            _emit(_Node(.shortNumber, inline: text))
            return
        }
        let start = _bytes.count
        _bytes.append(contentsOf: text)
        _emit(_Node(.number, start: start, count: text.count))
    }

    mutating func _push(isObject: Bool, at index: Int) throws(JSONParseError) {
        if _stack.count >= options.maxDepth { throw _fail(.depthLimitExceeded(options.maxDepth), at: index) }
        var frame = _Frame(isObject: isObject)
        if let spare = _spareChildren.popLast() {
            frame.children = spare
        } else if _stack.count < _sizeHints.count, _sizeHints[_stack.count] > 0 {
            frame.children.reserveCapacity(_sizeHints[_stack.count])
        }
        _stack.append(frame)
    }

    /// Closes the innermost container: its children become one run of the
    /// document's nodes, and it becomes a node of its parent. (Node indices
    /// fit their 32 bits: every node took at least one byte of the input,
    /// which `_maxDocumentBytes` keeps under 4 GiB.)
    mutating func _close() {
        guard var frame = _stack.popLast() else { return }
        let start = _nodes.count
        let n = frame.children.count
        frame.children.withUnsafeBufferPointer { _nodes.append(contentsOf: $0) }
        let count = frame.isObject ? n / 2 : n
        if frame.children._removeAllIfUnique() { _spareChildren.append(frame.children) }
        let depth = _stack.count
        while _sizeHints.count <= depth { _sizeHints.append(0) }
        // Capped: one huge sibling should not make every later one reserve as much.
        _sizeHints[depth] = Swift.min(n, 256)
        _emit(_Node(frame.isObject ? .object : .array, start: start, count: count))
    }

    /// Records the error at chunk position `index` (absolute offset
    /// `bytesConsumed + index`) so later calls repeat it.
    mutating func _fail(_ reason: JSONParseError.Reason, at index: Int) -> JSONParseError {
        _consumed += index
        let error = JSONParseError(offset: _consumed, reason: reason)
        _failure = error
        return error
    }
}

/// An open array or object on the parser's stack.
struct _Frame: Sendable {
    var isObject: Bool
    /// Finished children as nodes; an object's are key, value, key, value.
    var children = AppendOnlyArray<_Node>()
    /// The key of the member being read (objects only).
    var key = _Node(.string)

    init(isObject: Bool) { self.isObject = isObject }
}

/// Where the parser is between bytes.
enum _ParserState: UInt8, Sendable {
    /// Expecting a value (top level, after `:` or after `,` in an array).
    case value
    /// After `[`: a value or `]`.
    case valueOrArrayEnd
    /// After `{`: a key or `}`.
    case keyOrObjectEnd
    /// After `,` in an object: a key.
    case key
    /// After a key: `:`.
    case colon
    /// After a value inside a container: `,` or the closing bracket.
    case afterValue
    case string
    case number
    case literal
    /// The top-level value is complete: only whitespace may follow.
    case done
}

enum _EscapeState: UInt8, Sendable {
    case none, backslash, hex, lowBackslash, lowU, lowHex
}

enum _Literal: UInt8, Sendable {
    case `true`, `false`, null

    var word: StaticString {
        switch self {
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    var node: _Node {
        switch self {
        case .true: _Node(bool: true)
        case .false: _Node(bool: false)
        case .null: _Node(.null)
        }
    }
}

extension JSONValue {
    /// Parses one complete JSON text.
    ///
    /// - Complexity: O(`bytes.count`).
    public static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        var parser = IncrementalJSONParser(options: options)
        try parser.feed(bytes)
        return try parser.finish()
    }

    public static func parse(_ bytes: [UInt8], options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        var parser = IncrementalJSONParser(options: options)
        try parser.feed(bytes)
        return try parser.finish()
    }

    public static func parse(_ text: String, options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        var parser = IncrementalJSONParser(options: options)
        try parser.feed(text)
        return try parser.finish()
    }
}
