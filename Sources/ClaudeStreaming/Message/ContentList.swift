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
// (`ContentBlocks`), which an event that changes a block copies: O(open
// blocks), in practice one or two, however many blocks the message has.
//
// One block at a time streams (Accumulation/StreamingBlocks.swift owns it):
// its newest bytes and partial value are published here, beside the box, and
// reading a block shows them over it. This is a read model: only the owner
// of the live block writes these fields. A content list is the box, the live
// bytes and the live value (32 bytes; a message snapshot, 40), and holding
// one costs nothing more, unless the event parsed JSON and the caller keeps
// only this snapshot (then its partial value's open path, O(depth)). A
// caller that keeps every snapshot gets partial values that share one
// checkpoint per 8 KiB of input, replayed when read
// (IncrementalJSON's ParseCheckpoint.swift).

public import IncrementalJSON

/// The content blocks of a message, in index order.
///
/// - Complexity: Copying is O(1); changing a block other than the one
///   being streamed is O(number of blocks after the first open one).
///   Reading the block being streamed is O(1), except in a snapshot that
///   was kept along with others: there its partial tool input (or
///   structured value) is replayed from a checkpoint shared by the
///   snapshots of its stretch of input, O(bytes since the checkpoint), at
///   most 8 KiB, whenever the block is read (it is built whole, so reading
///   its `id` costs the same).
public struct ContentList: Sendable, Hashable, RandomAccessCollection {
    var contentBlocks: ContentBlocks
    /// The storage of the live block's streamed bytes (`contentBlocks.live`),
    /// newer than its copy in the tail: the block's are those from the
    /// marker's `start` on.
    var liveBytes: AppendOnlyArray<UInt8>
    /// The live block's partial value, when a JSON delta changed it since
    /// the block went live (nil: the block's own value stands).
    var liveValue: OpenRoot?

    init() {
        contentBlocks = ContentBlocks()
        liveBytes = AppendOnlyArray()
        liveValue = nil
    }

    init(_ blocks: [ContentBlock]) {
        self.init()
        for block in blocks { append(block) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { contentBlocks.settled.count + contentBlocks.tailCount }

    public subscript(position: Int) -> ContentBlock {
        let blocks = contentBlocks
        if position < blocks.settled.count { return blocks.settled[position] }
        var block = blocks.tail[blocks.head + position - blocks.settled.count]
        if let live = blocks.live, live.index == position { block.adoptLive(live.kind, liveBytes, from: live.start, liveValue) }
        return block
    }

    /// The block at `index`, or nil when there is none (never traps).
    public func block(at index: Int) -> ContentBlock? {
        index >= 0 && index < endIndex ? self[index] : nil
    }

    /// Appends `block`, moved in: a copy of a block retains each of its
    /// references, and dropping the original releases them again.
    mutating func append(_ block: consuming ContentBlock) {
        let blocks = ownedBlocks()
        blocks.tail.append(block)
        blocks.settle()
    }

    /// Changes the block at `index`; returns nil when there is none or it
    /// is settled (settled blocks are complete and never change). The live
    /// block's owner ends the overlay of `index` before changing it, except
    /// for fields the overlay does not show over: a parse error, or a
    /// finished value once no live value is shown (`StreamingBlocks.published`).
    mutating func update<R>(at index: Int, _ body: (inout ContentBlock) -> R) -> R? {
        let local = index - contentBlocks.settled.count
        guard local >= 0 && local < contentBlocks.tailCount else { return nil }
        return mutate { blocks in
            let result = body(&blocks.tail[blocks.head + local])
            if local == 0 { blocks.settle() }
            return result
        }
    }

    /// The text that the open, unsettled block at `index` streams as
    /// `kind`, and whether it parses (``ContentBlock/streamedText(_:)``);
    /// nil when there is no such block. Read in place: taking the block out
    /// first copied it, a retain and a release of each of its references.
    func streamedText(at index: Int, _ kind: LiveKind) -> (text: AppendOnlyText, parses: Bool)? {
        let local = index - contentBlocks.settled.count
        guard local >= 0 && local < contentBlocks.tailCount else { return nil }
        return contentBlocks.tail.withUnsafeBufferPointer { tail in
            let slot = contentBlocks.head + local
            return tail[slot].isComplete ? nil : tail[slot].streamedText(kind)
        }
    }

    /// Shows the block `marker` names as live; its state follows through
    /// `showLive`. Only the live block's owner calls this, after `endLive`.
    mutating func beginLive(_ marker: LiveMarker) {
        mutate { $0.live = marker }
    }

    /// Publishes the live block's newest bytes and partial value.
    @inline(__always)
    mutating func showLive(bytes: AppendOnlyArray<UInt8>, value: OpenRoot?) {
        // Usually the same buffer, longer: only the count moves.
        if !liveBytes._follow(bytes) { liveBytes = bytes }
        // A block of text has no value: storing nil over nil would still
        // retain one and release the other, a pair of calls per delta.
        if value != nil || liveValue != nil { liveValue = value }
    }

    /// Stops holding the live bytes until the next `showLive`: their owner
    /// is about to grow them, and growing a buffer that another value holds
    /// moves it into a reserved region (see `StreamingBlocks.append`).
    @inline(__always)
    mutating func releaseLiveBytes() {
        liveBytes = AppendOnlyArray()
    }

    /// Writes the live block's final state into it and ends the overlay.
    mutating func endLive(bytes: AppendOnlyArray<UInt8>, value: OpenRoot?) {
        guard let live = contentBlocks.live else { return }
        liveBytes = AppendOnlyArray()
        liveValue = nil
        mutate { blocks in
            blocks.live = nil
            let local = live.index - blocks.settled.count
            guard local >= 0 && local < blocks.tailCount else { return }
            blocks.tail[blocks.head + local].adoptLive(live.kind, bytes, from: live.start, value)
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

    @inline(__always)
    private mutating func mutate<R>(_ body: (ContentBlocks) -> R) -> R {
        body(ownedBlocks())
    }

    /// The box, copied first when another list shares it: the only way to
    /// a box that may be changed.
    @inline(__always)
    private mutating func ownedBlocks() -> ContentBlocks {
        if !isKnownUniquelyReferenced(&contentBlocks) { contentBlocks = contentBlocks.copy() }
        return contentBlocks
    }
}

/// The blocks of a ``ContentList`` apart from its live bytes and value.
final class ContentBlocks: @unchecked Sendable {
    // @unchecked: mutated only through `ContentList.ownedBlocks` (by its
    // `mutate` and `append`), after a uniqueness check, by the one list
    // that owns the box. Hence also no run-time exclusivity checks: with
    // them, `content.count` cost three `swift_beginAccess` runtime calls
    // on every snapshot.
    @exclusivity(unchecked) var settled: AppendOnlyArray<ContentBlock>
    /// The blocks from the first open one on are `tail[head...]`; the
    /// slots before `head` were moved to `settled` and are dropped in
    /// batches, so that blocks stopping in order (thousands may be open
    /// at once) move each block once instead of shifting the tail each time.
    @exclusivity(unchecked) var tail: [ContentBlock]
    @exclusivity(unchecked) var head: Int
    /// The block being streamed, whose newest state is beside the box.
    @exclusivity(unchecked) var live: LiveMarker?

    init() {
        settled = AppendOnlyArray()
        tail = []
        head = 0
        live = nil
    }

    private init(settled: AppendOnlyArray<ContentBlock>, tail: [ContentBlock], live: LiveMarker?) {
        self.settled = settled
        self.tail = tail
        self.head = 0
        self.live = live
    }

    /// How many blocks are in the tail.
    var tailCount: Int { tail.count - head }

    /// A copy holds only the live part of the tail.
    func copy() -> ContentBlocks { ContentBlocks(settled: settled, tail: Array(tail[head...]), live: live) }

    /// Moves the stopped blocks at the front of the tail to the prefix.
    /// - Complexity: Amortised O(blocks moved).
    func settle() {
        var moved = 0
        while head + moved < tail.count && tail[head + moved].isComplete { moved += 1 }
        guard moved > 0 else { return }
        if moved == 1 && head + 1 == tail.count {
            // The one open block stopped (the usual case): moved out
            // rather than copied and then dropped with its slot, which was
            // a retain and a release of each of its references.
            settled.append(tail.removeLast())
            if head > 0 { tail.removeAll(keepingCapacity: true) }
            head = 0
            return
        }
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
enum LiveKind: UInt8, Sendable {
    /// A text block's text, or a thinking block's thinking.
    case text, thinking
    /// A tool call's input JSON, or a text block's text parsed as JSON.
    case toolInput, structuredText
}

/// Which block a ``ContentList`` shows live, as what, and where its bytes
/// start in the live bytes (after those of blocks that stopped before it;
/// see StreamingBlocks.swift).
struct LiveMarker: Sendable {
    var index: Int
    var kind: LiveKind
    var start: Int
}
