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
// The stack *is* the partial value: each open container (`_Frame`) holds its
// finished children in an ``AppendOnlyArray`` and, for objects, the key of
// the member being read. Finished children are complete values built once,
// when they end. The only other partial state is the current scalar: a
// string value in an ``AppendOnlyText``, the bytes of a number, or how much
// of `true`/`false`/`null` has matched.
//
// `value` assembles a snapshot from the top of the stack down: the open
// string (if visible), wrapped by each open container as its one open child.
// That is O(depth) small nodes; the finished children and the string bytes
// are shared storage the parser keeps appending to past the snapshot's count.
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

    var _stack: [_Frame] = []
    var _state: _ParserState = .value
    var _root: JSONValue? = nil
    var _consumed = 0
    var _failure: JSONParseError? = nil

    // The current string: a value (shared text) or a key (private bytes).
    var _text = AppendOnlyText()
    /// Bytes of the open value string not yet moved into `_text`.
    var _pendingText: [UInt8] = []
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

    /// Per depth, the child count of the container that last closed there.
    /// Siblings tend to have the same shape (an array of records), so a new
    /// container reserves that many slots up front: one exact allocation
    /// instead of a series of doublings that leave slack behind.
    var _sizeHints: [Int] = []

    public init(options: JSONParserOptions = .init()) {
        self.options = options
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
        if let maxBytes = options.maxBytes, count > maxBytes - _consumed {
            count = Swift.max(0, maxBytes - _consumed)
            limit = maxBytes
        }
        defer { _flushPendingText() }
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
            _emit(.number(_token.withUnsafeBufferPointer { JSONNumber(_unchecked: $0) }))
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
        var child: JSONValue? = nil
        if _state == .string && !_stringIsKey && options.partialStrings == .visible {
            child = JSONValue(.string(_text), isComplete: false)
        }
        var level = _stack.count
        while level > 0 {
            level -= 1
            let frame = _stack[level]
            if frame.isObject {
                let open = child.map { _Member(key: frame.key, value: $0) }
                child = JSONValue(.object(JSONObject(_finished: frame.members, open: open)), isComplete: false)
            } else {
                child = JSONValue(.array(JSONArray(_finished: frame.elements, open: child)), isComplete: false)
            }
        }
        return child
    }

    // MARK: Building the tree

    /// Hands a finished value to its parent (or makes it the root).
    @inline(__always)
    mutating func _emit(_ value: JSONValue) {
        let top = _stack.count - 1
        if top < 0 {
            _root = value
            _state = .done
            return
        }
        if _stack[top].isObject {
            _stack[top].members.append(_Member(key: _stack[top].key, value: value))
        } else {
            _stack[top].elements.append(value)
        }
        _state = .afterValue
    }

    mutating func _push(isObject: Bool, at index: Int) throws(JSONParseError) {
        let depth = _stack.count
        if depth >= options.maxDepth { throw _fail(.depthLimitExceeded(options.maxDepth), at: index) }
        var frame = _Frame(isObject: isObject)
        if depth < _sizeHints.count {
            let hint = _sizeHints[depth]
            if hint > 0 {
                if isObject { frame.members.reserveCapacity(hint) } else { frame.elements.reserveCapacity(hint) }
            }
        }
        _stack.append(frame)
    }

    mutating func _close() {
        guard let frame = _stack.popLast() else { return }
        let depth = _stack.count
        let count = frame.isObject ? frame.members.count : frame.elements.count
        while _sizeHints.count <= depth { _sizeHints.append(0) }
        // Capped: a huge sibling should not make every later one reserve as much.
        _sizeHints[depth] = Swift.min(count, 256)
        if frame.isObject {
            _emit(JSONValue(.object(JSONObject(_finished: frame.members, open: nil))))
        } else {
            _emit(JSONValue(.array(JSONArray(_finished: frame.elements, open: nil))))
        }
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
    var elements = AppendOnlyArray<JSONValue>()
    var members = AppendOnlyArray<_Member>()
    /// The key of the member being read (objects only).
    var key = ""

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

    var value: JSONValue {
        switch self {
        case .true: JSONValue(.bool(true))
        case .false: JSONValue(.bool(false))
        case .null: JSONValue(.null)
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
