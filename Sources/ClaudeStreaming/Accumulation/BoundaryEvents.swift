// BoundaryEvents: block starts and stops, and pings, read without a JSON tree.
//
// One event in ten is not a delta, and most of those are the frame around
// the deltas:
//
//   {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}
//   {"type":"content_block_stop","index":2}
//   {"type": "ping"}
//
// Parsed into a tree, each cost ~18,000 instructions on the mixed benchmark
// stream (a parser, its storages and columns made and freed, then the
// fields looked up by name), as much as ten deltas. Here the fixed parts
// are compared as literals and the index read as digits; anything else
// (another key, another order, whitespace but before the closing brace, a
// number the scanner does not expect) goes to the full parser, which
// handles it or reports its error with its place. So this path never
// accepts what the full parser rejects.
//
// A start's `content_block` object is kept verbatim in its block (`start`),
// so it is still a JSON value. But the usual ones repeat byte for byte in
// every message (`{"type":"text","text":""}`, the empty thinking block), and
// a block made from a start is a pure function of the start's bytes: so the
// last two blocks made from starts without an id are remembered by their
// bytes (`BlockStartCache`), and a start seen before costs one comparison.
// One that names an id (a tool call, a tool result) never repeats; it has
// only its object parsed, not the event, and is not remembered.
//
// Worked example: `{"type":"content_block_stop","index":12 }`: the literal
// `{"type":"content_block_` matches, then `stop","index":`; the digits
// read 12; whitespace, `}`, and the end: `.stop(index: 12)`, applied as
// the full path applies it (`stopBlock`), with the same event index.

import IncrementalJSON

/// A block start or stop, or a ping, read from its usual bytes.
enum BoundaryEvent: Equatable {
    case ping
    case stop(index: Int)
    /// `block` is the range of the `content_block` value in the event's data.
    case start(index: Int, block: Range<Int>)

    /// Reads `data` if it has one of the forms in the file comment, or nil.
    ///
    /// - Complexity: O(1) for a stop or a ping; O(`data.count`) for a start
    ///   (the closing brace is found from the end).
    @inline(__always)
    static func read(_ data: UnsafeRawBufferPointer) -> BoundaryEvent? {
        var reader = ByteReader(data)
        if reader.consumeLiteral(#"{"type":"content_block_"#) {
            if reader.consumeLiteral(#"stop","index":"#) {
                guard let index = reader.smallInteger(), reader.closesObject() else { return nil }
                return .stop(index: index)
            }
            guard reader.consumeLiteral(#"start","index":"#), let index = reader.smallInteger(),
                reader.consumeLiteral(#","content_block":"#)
            else { return nil }
            // The value runs to the object's closing brace, the last byte
            // but whitespace. Whether it is one value is the parser's to
            // say (`BlockStartCache`), since `{…},"more":1` ends the same way.
            var end = data.count
            while end > reader.position, isWhitespace(data[end &- 1]) { end &-= 1 }
            guard end &- reader.position >= 2, data[end &- 1] == 0x7D else { return nil }
            return .start(index: index, block: reader.position..<(end &- 1))
        }
        guard reader.consumeLiteral(#"{"type":"#) else { return nil }
        reader.skipWhitespace()
        guard reader.consumeLiteral(#""ping""#), reader.closesObject() else { return nil }
        return .ping
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

extension ByteReader {
    /// Consumes optional whitespace, `}`, optional whitespace, and requires
    /// the end of the input.
    @inline(__always)
    mutating func closesObject() -> Bool {
        skipWhitespace()
        guard consume(0x7D) else { return false }
        skipWhitespace()
        return atEnd
    }
}

/// The blocks made from the last few `content_block_start` objects, by
/// their exact bytes (file comment).
///
/// A block is a value whose storages are append-only and shared (see
/// `AppendOnlyArray`), so handing the same block to two messages is safe:
/// the first to stream into it extends it, the second copies its own
/// (empty) prefix. Per accumulator, not shared: the hot path takes no lock.
struct BlockStartCache: Sendable {
    /// Starts longer than this are not remembered (a web search result, a
    /// tool call's filled input): they rarely repeat, and the memory of
    /// ten thousand open streams counts.
    static let maxKeyBytes = 96
    static let capacity = 2

    private var keys: [[UInt8]] = []
    private var blocks: [ContentBlock] = []
    /// The entry the next insertion replaces once full.
    private var next = 0

    /// The block made from exactly these bytes, if remembered.
    ///
    /// - Complexity: O(`bytes.count`).
    func block(for bytes: UnsafeRawBufferPointer) -> ContentBlock? {
        guard let start = bytes.baseAddress else { return nil }
        for slot in keys.indices where keys[slot].count == bytes.count {
            let same = keys[slot].withUnsafeBytes { key in
                key.baseAddress.map { bytesEqual($0, start, bytes.count) } ?? false
            }
            if same { return blocks[slot] }
        }
        return nil
    }

    /// Remembers `block` as made from `bytes` (short starts only).
    mutating func remember(_ block: ContentBlock, for bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.maxKeyBytes else { return }
        let key = [UInt8](bytes)
        if keys.count < Self.capacity {
            keys.append(key)
            blocks.append(block)
            return
        }
        keys[next] = key
        blocks[next] = block
        next = (next &+ 1) % Self.capacity
    }
}

extension AccumulatorState {
    /// Applies `data` if it is a boundary event (file comment); nil when it
    /// must go to the full parser. Otherwise the same outcome as the full
    /// path: true when the message changed, or the same failure.
    @inline(__always)
    mutating func applyBoundary(_ data: UnsafeRawBufferPointer) throws(EventFailure) -> Bool? {
        // Within the limits the full parser would hold the event to: its
        // size, its depth, and its longest string, `"content_block_start"`.
        guard options.json.maxDepth >= 1, data.count <= options.json.maxBytes ?? .max,
            options.json.maxStringBytes ?? .max >= 19
        else { return nil }
        switch BoundaryEvent.read(data) {
        case nil:
            return nil
        case .ping:
            return false
        case .stop(let index):
            try stopBlock(at: index)
            return true
        case .start(let index, let range):
            let bytes = UnsafeRawBufferPointer(rebasing: data[range])
            if let block = startCache.block(for: bytes) {
                try appendStartedBlock(block)
                return true
            }
            // The object alone, as deep as it may be inside the event.
            guard options.json.maxDepth >= 2 else { return nil }
            var limits = options.json
            limits.maxDepth -= 1
            guard let object = try? JSONValue.parse(bytes, options: limits) else { return nil }
            guard object.objectValue != nil else {
                try startBlock(at: index, object)  // reports what the full path reports
                return true
            }
            let block = ContentBlock.fromStart(object, isComplete: false)
            try appendStartedBlock(block)
            // A start that names an id (a tool call, its result) never
            // comes again: remembering it would only push out one that does.
            if object["id"] == nil && object["tool_use_id"] == nil { startCache.remember(block, for: bytes) }
            return true
        }
    }
}
