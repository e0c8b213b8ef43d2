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
// The document is written as it is read (see Node.swift): each finished
// value becomes an 8-byte node appended to the column of its depth, after
// its open container's children so far (`Frame.start` says where they
// begin); when a container closes, its children are already one run, and
// the container becomes a node in its parent's column. A number or key of
// up to 7 bytes sits in its node; other text goes once into the document's
// byte storage. A whole parse therefore allocates a handful of buffers, one
// per depth plus the bytes, not one per value or per container. Longer
// repeated keys (an array of records) are stored once, through a small
// cache.
//
// `value` assembles a snapshot from the top of the stack down: the open
// string (if visible), wrapped by each open container as its one open child.
// That is one block of O(depth) size, two words a level (where the
// container's children start in its column and how many there are); the
// nodes and bytes are storage the parser keeps appending to past them.
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
/// - Complexity: `feed` is O(bytes fed), plus O(deepest depth reached so
///   far) to check the document's storages at its end; `value` is O(depth).
public struct IncrementalJSONParser: Sendable {
    /// The limits and policies this parser was made with.
    public let options: JSONParserOptions
    /// `options`' limits, capped where the document layout needs it: byte
    /// offsets are 32 bits and text lengths 29 bits (`NodeLimits`).
    let documentByteLimit: Int
    let stringByteLimit: Int

    var frameStack: [Frame] = []
    var parserState: ParserState = .value
    var finishedRoot: JSONValue? = nil
    var consumed = 0
    var terminalError: JSONParseError? = nil

    /// The document: a column of nodes per depth (the children of the
    /// containers at stack index `i` are in `nodeColumns[i]`), and all text.
    var nodeColumns: [AppendOnlyArray<Node>] = []
    var chunkBytes = AppendOnlyArray<UInt8>()
    /// Reads the storages of `nodeColumns` and `chunkBytes`, brought up to date at
    /// the end of every call that writes the document (`refreshStorages`),
    /// so that snapshots share one `DocumentStorages` until a storage is
    /// replaced.
    var nodeReader = NodeReader(storages: nil)
    /// Set when a column was added or moved to other storage since
    /// `nodeReader` was made (`emit` and `push` note it): until then
    /// `refreshStorages` need not compare every column.
    var columnsMoved = false
    /// Recently seen keys, by a hash of their bytes.
    var keyCache = KeyCache()
    /// Set in a copy replayed from a ``ParseCheckpoint``: this parser's
    /// writes repeat ones already in its storages, so it steps over them
    /// (`AppendOnlyArray._skipAppended`) rather than forking a copy.
    var replaying = false

    // The current string: a value (its bytes go straight into `chunkBytes` from
    // `stringStart` on) or a key (collected in `keyBytes`, then stored once).
    var stringStart = 0
    var keyBytes = CutToken()
    var stringIsKey = false
    var escape: EscapeState = .none
    var hexText: UInt32 = 0
    var hexCount = 0
    var highSurrogate: UInt32 = 0
    /// Continuation bytes still owed by a multi-byte character cut by a chunk end,
    /// and the allowed range of the next one.
    var utf8Need = 0
    var utf8Low: UInt8 = 0x80
    var utf8High: UInt8 = 0xBF

    // The current number (bytes from earlier chunks) or literal.
    var jsonNumber: NumberState = .start
    var tokenBytes = CutToken()
    var pendingLiteral: Literal = .true
    var matched = 0

    /// A parser at the start of a document, with `options`' limits.
    public init(options: JSONParserOptions = .init()) {
        self.options = options
        documentByteLimit = Swift.min(options.maxBytes ?? NodeLimits.maxDocumentBytes, NodeLimits.maxDocumentBytes)
        stringByteLimit = Swift.min(options.maxStringBytes ?? NodeLimits.maxTextBytes, NodeLimits.maxTextBytes)
    }

    // MARK: Feeding

    /// Parses the next chunk. After an error every later call throws it again.
    ///
    /// - Complexity: O(`bytes.count`).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        if let failure = terminalError { throw failure }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var count = bytes.count
        var limit: Int? = nil
        if count > documentByteLimit - consumed {
            count = Swift.max(0, documentByteLimit - consumed)
            limit = documentByteLimit
        }
        defer { refreshStorages() }
        if chunkBytes._storage == nil { reserveFirstStorages(forChunk: count) }
        try scanChunk(base.assumingMemoryBound(to: UInt8.self), count)
        if let limit { throw fail(.sizeLimitExceeded(limit), at: 0) }
    }

    /// Parses the next chunk. After an error every later call throws it again.
    ///
    /// - Complexity: O(`bytes.count`).
    public mutating func feed(_ bytes: [UInt8]) throws(JSONParseError) {
        // The stdlib's closure-taking accessors are not typed-throws yet, so
        // the error is carried out by hand.
        var failure: JSONParseError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(JSONParseError) { try feed(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Parses the next chunk of text (its UTF-8). After an error every later
    /// call throws it again.
    ///
    /// - Complexity: O(`text.utf8.count`).
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
        if let failure = terminalError { throw failure }
        if parserState == .number && frameStack.isEmpty && jsonNumber.isTerminal {
            let token = tokenBytes
            token.withBytes { emitNumber($0) }
        }
        if parserState == .done, let root = finishedRoot { return root }
        throw fail(.unexpectedEnd, at: 0)
    }

    // MARK: Reading

    /// True once a whole top-level value has been read.
    public var isComplete: Bool { parserState == .done }

    /// Bytes parsed so far (up to the error offset after an error).
    public var bytesConsumed: Int { consumed }

    /// The error that stopped the parser, if any.
    public var failure: JSONParseError? { terminalError }

    /// The value so far; nil before anything is visible. Nodes the parser is
    /// still inside are marked incomplete.
    ///
    /// - Complexity: O(depth). Shares the parser's storage; never copies
    ///   strings or finished children.
    public var value: JSONValue? {
        if let root = openRoot { return root.value }
        if parserState == .done { return finishedRoot }
        return visibleLeaf.map { nodeReader.openString(start: $0.start, count: $0.count) }
    }

    // MARK: Building the document

    /// Makes `nodeReader` name the current storages, allocating only when one
    /// of them was replaced since the last call. Because `nodeReader` holds
    /// every storage, none is ever uniquely referenced between feeds, so a
    /// growth copies into fresh storage (or a region) rather than `realloc`.
    ///
    /// - Complexity: O(depth reached so far).
    mutating func refreshStorages() {
        // A finished document's storages were settled by `settleDocument`.
        if parserState == .done { return }
        if let current = nodeReader.storages {
            // No column moved: only the bytes can have, a compare.
            if !columnsMoved && chunkBytes._isStored(in: current.bytes) {
                #if INCREMENTAL_JSON_INTERNAL_CHECKS
                precondition(current.matches(columns: nodeColumns, bytes: chunkBytes), "a column moved unnoted")
                #endif
                return
            }
            columnsMoved = false
            if current.matches(columns: nodeColumns, bytes: chunkBytes) { return }
        }
        columnsMoved = false
        nodeReader = NodeReader(storages: DocumentStorages.make(columns: nodeColumns, bytes: chunkBytes._storage))
    }

    /// Documents with at most this many nodes are compacted when they finish.
    static let compactionLimit = 4096

    /// Gives the finished document its final storages: a small one with
    /// more than one column is compacted into one exact buffer and the
    /// parser lets go of its columns (see DocumentStorages.swift). Snapshots
    /// that hold the columns keep them, so for a streamed document this can
    /// add a copy; the final value, which a message keeps longest, is the
    /// compact one.
    mutating func settleDocument() {
        let nodes = nodeColumns.reduce(0) { $0 &+ $1.count }
        guard nodeColumns.count > 1 && nodes <= Self.compactionLimit else { return refreshStorages() }
        nodeReader = NodeReader(storages: DocumentStorages.compacted(columns: nodeColumns, bytes: chunkBytes._storage))
        nodeColumns = []
    }

    /// Hands a finished value to its container (or makes it the root).
    @inline(__always)
    mutating func emit(_ node: Node) {
        let top = frameStack.count &- 1
        if top < 0 {
            settleDocument()
            finishedRoot = nodeReader.value(of: node, childrenIn: 0)
            parserState = .done
            return
        }
        if frameStack[top].isObject {
            nodeColumns[top]._append(frameStack[top].key, node, moved: &columnsMoved, following: replaying)
        } else {
            nodeColumns[top]._append(node, moved: &columnsMoved, following: replaying)
        }
        parserState = .afterValue
    }

    /// Stores a finished number's text and emits it.
    @inline(__always)
    mutating func emitNumber(_ text: UnsafeBufferPointer<UInt8>) {
        if text.count <= Node.maxInlineBytes {
            emit(Node(.shortNumber, inline: text))
            return
        }
        let start = chunkBytes.count
        chunkBytes._append(contentsOf: text, following: replaying)
        emit(Node(.number, start: start, count: text.count))
    }

    /// Sizes the first storages for a document that starts with a chunk of
    /// `count` bytes, so that a small document (an API event, the first
    /// deltas of a tool input) is written without regrowing them: growing
    /// each from empty was a large part of a small event's parse
    /// (Benchmarks/RESULTS-HISTORY.md, accumulator). The bytes get a quarter
    /// of the chunk: only strings and keys longer than a node holds are
    /// stored there, and a kept value keeps this storage whole (a whole
    /// chunk's worth made every open stream's `message_start` larger).
    mutating func reserveFirstStorages(forChunk count: Int) {
        chunkBytes.reserveCapacity(Swift.min(Swift.max(count / 4, Self.firstBytesCapacity), Self.firstBytesLimit))
        frameStack.reserveCapacity(Self.firstDepthCapacity)
        nodeColumns.reserveCapacity(Self.firstDepthCapacity)
    }

    /// The first storages' sizes (see `reserveFirstStorages`): a few levels,
    /// a column of sixteen nodes (eight members), and a quarter of a
    /// chunk's bytes between these bounds.
    static let firstDepthCapacity = 8
    static let firstColumnCapacity = 16
    static let firstBytesCapacity = 64
    static let firstBytesLimit = 1024

    mutating func push(isObject: Bool, at index: Int) throws(JSONParseError) {
        if frameStack.count >= options.maxDepth { throw fail(.depthLimitExceeded(options.maxDepth), at: index) }
        let depth = frameStack.count
        if depth == nodeColumns.count {
            var column = AppendOnlyArray<Node>()
            column.reserveCapacity(Self.firstColumnCapacity)
            nodeColumns.append(column)
            columnsMoved = true
        }
        frameStack.append(Frame(isObject: isObject, start: nodeColumns[depth].count))
    }

    /// Closes the innermost container: its children are already one run of
    /// its column, and it becomes a node of its parent. (Indices and counts
    /// fit their fields: every node took at least one byte of the input,
    /// which `documentByteLimit` keeps within 1 GiB; see `NodeLimits`.)
    mutating func close() {
        guard let frame = frameStack.popLast() else { return }
        let n = nodeColumns[frameStack.count].count &- frame.start
        emit(Node(frame.isObject ? .object : .array, start: frame.start, count: frame.isObject ? n / 2 : n))
    }

    /// Records the error at chunk position `index` (absolute offset
    /// `bytesConsumed + index`) so later calls repeat it.
    mutating func fail(_ reason: JSONParseError.Reason, at index: Int) -> JSONParseError {
        consumed += index
        let error = JSONParseError(offset: consumed, reason: reason)
        terminalError = error
        return error
    }
}

/// An open array or object on the parser's stack.
struct Frame: Sendable {
    var isObject: Bool
    /// Where its children (an object's: key, value, key, value) begin in
    /// the column of its depth.
    var start: Int
    /// The key of the member being read (objects only).
    var key = Node(.string)

    init(isObject: Bool, start: Int) {
        self.isObject = isObject
        self.start = start
    }
}

/// Where the parser is between bytes.
enum ParserState: UInt8, Sendable {
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

enum EscapeState: UInt8, Sendable {
    case none, backslash, hex, lowBackslash, lowU, lowHex
}

enum Literal: UInt8, Sendable {
    case `true`, `false`, null

    var word: StaticString {
        switch self {
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    var node: Node {
        switch self {
        case .true: Node(bool: true)
        case .false: Node(bool: false)
        case .null: Node(.null)
        }
    }
}

extension JSONValue {
    /// Parses one complete JSON text.
    ///
    /// - Complexity: O(`bytes.count`).
    public static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        // A document the one-pass reader declines (an error among them) is
        // read again by the resumable parser, which says what is wrong. On
        // the general path (CLAUDE_STREAMING_GENERAL_PATH) the resumable
        // parser reads every document, as other platforms' fast readers do.
        if !WholeDocumentParser.isOff, let value = WholeDocumentParser.parse(bytes, options: options) { return value }
        var parser = IncrementalJSONParser(options: options)
        try parser.feed(bytes)
        return try parser.finish()
    }

    /// Parses one whole document.
    ///
    /// - Complexity: O(`bytes.count`).
    public static func parse(_ bytes: [UInt8], options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        // The stdlib's closure-taking accessors are not typed-throws yet, so
        // the outcome is carried out by hand.
        var outcome: Result<JSONValue, JSONParseError> = .failure(JSONParseError(offset: 0, reason: .unexpectedEnd))
        bytes.withUnsafeBytes { raw in outcome = Result { () throws(JSONParseError) in try parse(raw, options: options) } }
        return try outcome.get()
    }

    /// Parses one whole document given as text.
    ///
    /// - Complexity: O(`text.utf8.count`).
    public static func parse(_ text: String, options: JSONParserOptions = .init()) throws(JSONParseError) -> JSONValue {
        var text = text
        var outcome: Result<JSONValue, JSONParseError> = .failure(JSONParseError(offset: 0, reason: .unexpectedEnd))
        text.withUTF8 { utf8 in outcome = Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(utf8), options: options) } }
        return try outcome.get()
    }
}
