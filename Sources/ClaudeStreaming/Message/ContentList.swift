// ContentList: the content of a message, cheap to snapshot while it grows.
//
// Blocks stop roughly in order, and only open blocks change. So the list is
// a settled prefix in an ``AppendOnlyArray`` (shared by every snapshot, never
// copied) plus a short ordinary array, the tail, from the first open block on.
// A snapshot copies the tail: O(open blocks), in practice one or two, however
// many blocks the message has. When the first open block stops, the stopped
// blocks at the front of the tail move to the prefix, each block once.
//
// Most events append text to one open block. Changing that block in the tail
// would make every held snapshot own a fresh copy of the tail (~170 bytes an
// event), so the growing text of the block being written lives beside the
// tail as `live` (an index and the text value) and is written into its block
// only when another block needs the tail or the block stops. Reading a block
// sees the live text; holding a snapshot costs its 72 bytes and nothing more.

public import IncrementalJSON

/// The content blocks of a message, in index order.
///
/// - Complexity: Copying is O(number of blocks after the first open one).
public struct ContentList: Sendable, Hashable, RandomAccessCollection {
    var settled: AppendOnlyArray<ContentBlock>
    var tail: [ContentBlock]
    /// The text of the block being written, newer than its copy in `tail`.
    var live: _LiveText?

    init() {
        settled = AppendOnlyArray()
        tail = []
        live = nil
    }

    init(_ blocks: [ContentBlock]) {
        self.init()
        for block in blocks { append(block) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { settled.count + tail.count }

    public subscript(position: Int) -> ContentBlock {
        if position < settled.count { return settled[position] }
        var block = tail[position - settled.count]
        if let live, live.index == position { block.replaceStreamedText(live.text) }
        return block
    }

    /// The block at `index`, or nil when there is none (never traps).
    public func block(at index: Int) -> ContentBlock? {
        index >= 0 && index < endIndex ? self[index] : nil
    }

    mutating func append(_ block: ContentBlock) {
        tail.append(block)
        _settle()
    }

    /// Changes the block at `index`; returns false when there is none or it
    /// is settled (settled blocks are complete and never change).
    mutating func update<R>(at index: Int, _ body: (inout ContentBlock) -> R) -> R? {
        let local = index - settled.count
        guard local >= 0 && local < tail.count else { return nil }
        if live?.index == index { flushLive() }
        let result = body(&tail[local])
        if local == 0 { _settle() }
        return result
    }

    /// Appends to the text (`thinking`: the thinking) of the open block at
    /// `index` without touching the tail; false when that block is not an
    /// open block of that kind (the caller then reports the violation).
    mutating func appendLive(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, thinking: Bool) -> Bool {
        if live?.index == index {
            live?.text.append(utf8: bytes)
            return true
        }
        let local = index - settled.count
        guard local >= 0 && local < tail.count, !tail[local].isComplete else { return false }
        let text: AppendOnlyText
        switch (tail[local], thinking) {
        case (.text(let block), false): text = block.text
        case (.thinking(let block), true): text = block.thinking
        default: return false
        }
        flushLive()
        var grown = text
        grown.append(utf8: bytes)
        live = _LiveText(index: index, text: grown)
        return true
    }

    /// Writes the live text back into its block.
    mutating func flushLive() {
        guard let current = live else { return }
        live = nil
        let local = current.index - settled.count
        guard local >= 0 && local < tail.count else { return }
        tail[local].replaceStreamedText(current.text)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for block in self { hasher.combine(block) }
    }

    private mutating func _settle() {
        var moved = 0
        while moved < tail.count && tail[moved].isComplete { moved += 1 }
        guard moved > 0 else { return }
        for block in tail[0..<moved] { settled.append(block) }
        tail.removeFirst(moved)
    }

    /// The content array as API JSON.
    public var json: JSONValue { .array(map(\.json)) }
}

/// The growing text of one open text or thinking block.
struct _LiveText: Sendable {
    var index: Int
    var text: AppendOnlyText
}

extension ContentBlock {
    /// Sets the text a text block or the thinking a thinking block streams.
    mutating func replaceStreamedText(_ text: AppendOnlyText) {
        switch self {
        case .text(var block):
            block.text = text
            self = .text(block)
        case .thinking(var block):
            block.thinking = text
            self = .thinking(block)
        default:
            break
        }
    }
}
