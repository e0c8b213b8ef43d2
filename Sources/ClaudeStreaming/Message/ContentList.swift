// ContentList: the content of a message, cheap to snapshot while it grows.
//
// Design
// ------
// A stream holds a snapshot after every event, so what one snapshot costs to
// hold is what matters: a few words, never a copy of anything that grows.
//
// Blocks stop roughly in order, and only open blocks change. So the list is
// a settled prefix in an ``AppendOnlyArray`` (shared by every snapshot, never
// copied) plus a short ordinary array, the tail, from the first open block on.
// When the first open block stops, the stopped blocks at the front of the
// tail move to the prefix, each block once. Both sit in one copy-on-write box
// (`_ContentBlocks`), which an event that changes a block copies: O(open
// blocks), in practice one or two, however many blocks the message has.
//
// Most events append to one open block: text, thinking, or the JSON of a
// tool input or structured text. Copying the box for each would make every
// held snapshot own a copy of the tail (~200 bytes an event), so that block
// is *live*: its growing bytes (and, for JSON, its partial value as one
// reference) sit beside the box and are written into the block only when
// another block needs the tail or the block stops. Reading a block sees the
// live state. A content list is the box, the live bytes and the live value
// (32 bytes; a message snapshot, 40), and holding one costs nothing more
// unless the event parsed JSON (then its partial value's open path, O(depth)).

public import IncrementalJSON

/// The content blocks of a message, in index order.
///
/// - Complexity: Copying is O(1); changing a block other than the one
///   being streamed is O(number of blocks after the first open one).
public struct ContentList: Sendable, Hashable, RandomAccessCollection {
    var _blocks: _ContentBlocks
    /// The streamed bytes of the live block (`_blocks.live`), newer than its
    /// copy in the tail.
    var _liveBytes: AppendOnlyArray<UInt8>
    /// The live block's partial value, when a JSON delta changed it since
    /// the block went live (nil: the block's own value stands).
    var _liveValue: _OpenRoot?

    init() {
        _blocks = _ContentBlocks()
        _liveBytes = AppendOnlyArray()
        _liveValue = nil
    }

    init(_ blocks: [ContentBlock]) {
        self.init()
        for block in blocks { append(block) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { _blocks.settled.count + _blocks.tailCount }

    public subscript(position: Int) -> ContentBlock {
        let blocks = _blocks
        if position < blocks.settled.count { return blocks.settled[position] }
        var block = blocks.tail[blocks.head + position - blocks.settled.count]
        if let live = blocks.live, live.index == position { block._adoptLive(live.kind, _liveBytes, _liveValue) }
        return block
    }

    /// The block at `index`, or nil when there is none (never traps).
    public func block(at index: Int) -> ContentBlock? {
        index >= 0 && index < endIndex ? self[index] : nil
    }

    mutating func append(_ block: ContentBlock) {
        _mutate { $0.tail.append(block); $0.settle() }
    }

    /// Changes the block at `index`; returns nil when there is none or it
    /// is settled (settled blocks are complete and never change).
    mutating func update<R>(at index: Int, _ body: (inout ContentBlock) -> R) -> R? {
        let local = index - _blocks.settled.count
        guard local >= 0 && local < _blocks.tailCount else { return nil }
        if _blocks.live?.index == index { flushLive() }
        return _mutate { blocks in
            let result = body(&blocks.tail[blocks.head + local])
            if local == 0 { blocks.settle() }
            return result
        }
    }

    /// Appends to the text (`thinking`: the thinking) of the open block at
    /// `index`; false when that block is not an open block of that kind
    /// (the caller then reports the violation).
    ///
    /// - Complexity: Amortised O(`bytes.count`); O(open blocks) when
    ///   another block was live.
    mutating func appendLive(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, thinking: Bool) -> Bool {
        guard _goLive(at: index, thinking ? .thinking : .text) != nil else { return false }
        _liveBytes.append(contentsOf: bytes)
        return true
    }

    /// Appends JSON text to the open tool-use block at `index` (or, with
    /// `structuredText`, the open text block) and feeds it to the block's
    /// parser; false when that block is not an open block of that kind.
    /// Text that is not JSON records the error on the block and stops the
    /// parsing; the text itself keeps growing.
    ///
    /// - Complexity: Amortised O(`bytes.count`) plus O(depth) for the value.
    mutating func appendLiveJSON(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, structuredText: Bool,
        parser: inout IncrementalJSONParser?, options: JSONParserOptions
    ) -> Bool {
        guard let live = _goLive(at: index, structuredText ? .structuredText : .toolInput) else { return false }
        _liveBytes.append(contentsOf: bytes)
        guard live.parses, bytes.count > 0 else { return true }
        var active = parser ?? IncrementalJSONParser(options: options)
        let value: JSONValue?
        do throws(JSONParseError) {
            try active.feed(UnsafeRawBufferPointer(bytes))
            value = active.value
            parser = active
        } catch {
            parser = nil
            _ = update(at: index) { $0._setParsedJSON(.failure(error)) }
            return true
        }
        guard let value else { return true }
        if let root = value._openRoot {
            _liveValue = root
        } else {
            // A top-level scalar or a finished value: rare enough to write
            // into the block itself.
            _ = update(at: index) { $0._setParsedJSON(.success(value)) }
        }
        return true
    }

    /// Writes the live state back into its block.
    mutating func flushLive() {
        guard let live = _blocks.live else { return }
        let bytes = _liveBytes
        let value = _liveValue
        _liveBytes = AppendOnlyArray()
        _liveValue = nil
        _mutate { blocks in
            blocks.live = nil
            let local = live.index - blocks.settled.count
            guard local >= 0 && local < blocks.tailCount else { return }
            blocks.tail[blocks.head + local]._adoptLive(live.kind, bytes, value)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for block in self { hasher.combine(block) }
    }

    /// The content array as API JSON.
    public var json: JSONValue { .array(map(\.json)) }

    // MARK: Internals

    /// Makes the open block at `index` live as `kind` (flushing whichever
    /// block was), or returns nil when it is not an open block of that kind.
    @inline(__always)
    private mutating func _goLive(at index: Int, _ kind: _LiveKind) -> _LiveBlock? {
        if let live = _blocks.live, live.index == index {
            return live.kind == kind ? live : nil
        }
        let local = index - _blocks.settled.count
        guard local >= 0 && local < _blocks.tailCount else { return nil }
        let block = _blocks.tail[_blocks.head + local]
        guard !block.isComplete, let streamed = block._streamed(kind) else { return nil }
        flushLive()
        let live = _LiveBlock(index: index, kind: kind, parses: streamed.parses)
        _mutate { $0.live = live }
        _liveBytes = streamed.text.utf8
        return live
    }

    @inline(__always)
    private mutating func _mutate<R>(_ body: (_ContentBlocks) -> R) -> R {
        if !isKnownUniquelyReferenced(&_blocks) { _blocks = _blocks.copy() }
        return body(_blocks)
    }
}

/// The blocks of a ``ContentList`` apart from its live bytes and value.
final class _ContentBlocks: @unchecked Sendable {
    // @unchecked: mutated only through `ContentList._mutate`, after a
    // uniqueness check, by the one list that owns the box.
    var settled: AppendOnlyArray<ContentBlock>
    /// The blocks from the first open one on are `tail[head...]`; the
    /// slots before `head` were moved to `settled` and are dropped in
    /// batches, so that blocks stopping in order (thousands may be open
    /// at once) move each block once instead of shifting the tail each time.
    var tail: [ContentBlock]
    var head: Int
    /// The block being streamed, whose newest state is beside the box.
    var live: _LiveBlock?

    init() {
        settled = AppendOnlyArray()
        tail = []
        head = 0
        live = nil
    }

    private init(settled: AppendOnlyArray<ContentBlock>, tail: [ContentBlock], live: _LiveBlock?) {
        self.settled = settled
        self.tail = tail
        self.head = 0
        self.live = live
    }

    /// How many blocks are in the tail.
    var tailCount: Int { tail.count - head }

    /// A copy holds only the live part of the tail.
    func copy() -> _ContentBlocks { _ContentBlocks(settled: settled, tail: Array(tail[head...]), live: live) }

    /// Moves the stopped blocks at the front of the tail to the prefix.
    /// - Complexity: Amortised O(blocks moved).
    func settle() {
        var moved = 0
        while head + moved < tail.count && tail[head + moved].isComplete { moved += 1 }
        guard moved > 0 else { return }
        for block in tail[head..<(head + moved)] { settled.append(block) }
        head += moved
        // Drop the moved slots once they are at least half the array.
        if head * 2 >= tail.count {
            tail.removeFirst(head)
            head = 0
        }
    }
}

/// Which field of its block a live block streams.
enum _LiveKind: UInt8, Sendable {
    /// A text block's text, or a thinking block's thinking.
    case text, thinking
    /// A tool call's input JSON, or a text block's text parsed as JSON.
    case toolInput, structuredText
}

/// The block a ``ContentList`` streams into.
struct _LiveBlock: Sendable {
    var index: Int
    var kind: _LiveKind
    /// JSON kinds: the text has not failed to parse (yet).
    var parses: Bool
}
