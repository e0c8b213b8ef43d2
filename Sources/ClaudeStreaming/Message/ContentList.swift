// ContentList: the content of a message, cheap to snapshot while it grows.
//
// Blocks stop roughly in order, and only open blocks change. So the list is
// a settled prefix in an ``AppendOnlyArray`` (shared by every snapshot, never
// copied) plus a short ordinary array, the tail, from the first open block on.
// A snapshot copies the tail: O(open blocks), in practice one or two, however
// many blocks the message has. When the first open block stops, the stopped
// blocks at the front of the tail move to the prefix, each block once.

public import IncrementalJSON

/// The content blocks of a message, in index order.
///
/// - Complexity: Copying is O(number of blocks after the first open one).
public struct ContentList: Sendable, Hashable, RandomAccessCollection {
    var settled: AppendOnlyArray<ContentBlock>
    var tail: [ContentBlock]

    init() {
        settled = AppendOnlyArray()
        tail = []
    }

    init(_ blocks: [ContentBlock]) {
        self.init()
        for block in blocks { append(block) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { settled.count + tail.count }

    public subscript(position: Int) -> ContentBlock {
        position < settled.count ? settled[position] : tail[position - settled.count]
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
        let result = body(&tail[local])
        if local == 0 { _settle() }
        return result
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
