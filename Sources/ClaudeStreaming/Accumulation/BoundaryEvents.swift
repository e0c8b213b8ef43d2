// BoundaryEvents: block starts and stops, and pings, read without a JSON tree.
//
// One event in ten is not a delta, and most of those are the frame around
// the deltas:
//
//   {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}
//   {"type":"content_block_stop","index":2}
//   {"type": "ping"}
//
// Parsed into a tree, each cost as much as many deltas on the mixed
// benchmark stream (a parser, its storages and columns made and freed, then
// the fields looked up by name; Benchmarks/RESULTS-HISTORY.md, accumulator).
// Here the fixed parts are compared as literals and the index read as
// digits; anything else (another key, another order, whitespace but before
// the closing brace, a number the scanner does not expect) goes to the full
// parser, which handles it or reports its error with its place. So this
// path never accepts what the full parser rejects.
//
// A start's `content_block` object is kept verbatim in its block (`start`),
// so it is still a JSON value. But the usual ones repeat byte for byte in
// every message (`{"type":"text","text":""}`, the empty thinking block), and
// a block made from a start is a pure function of the start's bytes: so
// those two blocks are made once (`UsualBlockStarts`), and such a start
// costs one comparison. A tool call's start is new every time (its id), but
// its usual form is fixed too:
//
//   {"type":"tool_use","id":"toolu_01A…","name":"get_weather","input":{}}
//
// (or `server_tool_use`), with an id and a name of plain ASCII (letters,
// digits, `_`, `-`, `.`, `:`), so its `start` value is built from the two
// strings instead of parsed, and its block made directly: a parse and the
// look-ups of `fromStart` cost a tool call's start as much as hundreds of
// bytes of deltas. The fuzz self-check holds the built block equal to the
// parsed one. Any other start has only its object parsed, not the event.
//
// Worked example: `{"type":"content_block_stop","index":12 }`: the literal
// `{"type":"content_block_` matches, then `stop","index":`; the digits
// read 12; whitespace, `}`, and the end: `.stop(index: 12)`, applied as
// the full path applies it (`stopBlock`), with the same event index.

import IncrementalJSON
import ServerSentEvents

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
            // say (`applyBoundary`), since `{…},"more":1` ends the same way.
            var end = data.count
            while end > reader.position, ByteReader.isWhitespace(data[end &- 1]) { end &-= 1 }
            guard end &- reader.position >= 2, data[end &- 1] == 0x7D else { return nil }
            return .start(index: index, block: reader.position..<(end &- 1))
        }
        guard reader.consumeLiteral(#"{"type":"#) else { return nil }
        reader.skipWhitespace()
        guard reader.consumeLiteral(#""ping""#), reader.closesObject() else { return nil }
        return .ping
    }
}

extension ByteReader {
    /// Consumes a string's contents of plain ASCII (letters, digits, `_`,
    /// `-`, `.`, `:`), at most `maxBytes` of them, and its closing quote;
    /// nil (position unspecified) for anything else.
    mutating func plainName(maxBytes: Int) -> String? {
        let start = position
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
                position &+= 1
            case UInt8(ascii: "\""):
                guard position &- start <= maxBytes else { return nil }
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: base[start..<position]), as: UTF8.self)
                position &+= 1
                return name
            default:
                return nil
            }
        }
        return nil
    }

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

/// The blocks of the two starts the API sends for every text and thinking
/// block, made once per process (file comment).
///
/// A block is a value whose storages are append-only and shared (see
/// `AppendOnlyArray`), so handing the same block to many messages, on any
/// thread, is safe: the first to stream into it extends it, any other
/// copies its own (empty) prefix. Process-wide rather than per stream: ten
/// thousand open streams would otherwise each hold a copy, and the only
/// shared cost is a reference count touched once per block, not per event.
enum UsualBlockStarts {
    private static let text = made(#"{"type":"text","text":""}"#)
    private static let thinking = made(#"{"type":"thinking","thinking":"","signature":""}"#)

    /// The block made from exactly these bytes, if they are one of the two.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func block(for bytes: UnsafeRawBufferPointer) -> ContentBlock? {
        guard let start = bytes.baseAddress else { return nil }
        switch bytes.count {
        case text.bytes.utf8CodeUnitCount:
            return bytesEqual(start, text.bytes.utf8Start, bytes.count) ? text.block : nil
        case thinking.bytes.utf8CodeUnitCount:
            return bytesEqual(start, thinking.bytes.utf8Start, bytes.count) ? thinking.block : nil
        default:
            return nil
        }
    }

    /// The block of a tool call's start in its usual form (file comment),
    /// built without a parser, or nil. `maxStringBytes`: the parser's limit,
    /// which a longer id or name must meet on the full path instead.
    ///
    /// - Complexity: O(`bytes.count`).
    @inline(never)
    static func toolCall(for bytes: UnsafeRawBufferPointer, maxStringBytes: Int) -> ContentBlock? {
        var reader = ByteReader(bytes)
        let kind: ToolUseBlock.Kind
        if reader.consumeLiteral(#"{"type":"tool_use","id":""#) {
            kind = .toolUse
        } else if reader.consumeLiteral(#"{"type":"server_tool_use","id":""#) {
            kind = .serverToolUse
        } else {
            return nil
        }
        // The type is the longest of the fixed strings (the keys are shorter).
        guard maxStringBytes >= kind.rawValue.utf8.count, let id = reader.plainName(maxBytes: maxStringBytes), reader.consumeLiteral(#","name":""#),
            let name = reader.plainName(maxBytes: maxStringBytes), reader.consumeLiteral(#","input":{}}"#), reader.atEnd
        else { return nil }
        let start = JSONValue.object([
            ("type", .string(kind.rawValue)), ("id", .string(id)), ("name", .string(name)), ("input", .object([])),
        ])
        return .toolUse(
            ToolUseBlock(
                start: start, kind: kind, id: id, name: name, input: .object([]), inputJSON: AppendOnlyText(), inputError: nil,
                isComplete: false))
    }

    private static func made(_ bytes: StaticString) -> (bytes: StaticString, block: ContentBlock?) {
        let object = try? JSONValue.parse(UnsafeRawBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount))
        return (bytes, object.map { ContentBlock.fromStart($0, isComplete: false) })
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
            // The object alone must parse as deep as it may be inside the event.
            guard options.json.maxDepth >= 2 else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: data[range])
            if let block = UsualBlockStarts.block(for: bytes) {
                try appendStartedBlock(block)
                return true
            }
            // A tool call's object nests `input`, one level deeper.
            if options.json.maxDepth >= 3,
                let block = UsualBlockStarts.toolCall(for: bytes, maxStringBytes: options.json.maxStringBytes ?? .max)
            {
                try appendStartedBlock(block)
                return true
            }
            var limits = options.json
            limits.maxDepth -= 1
            guard let object = try? JSONValue.parse(bytes, options: limits) else { return nil }
            // Not an object: reported as the full path reports it.
            try startBlock(at: index, object)
            return true
        }
    }
}
