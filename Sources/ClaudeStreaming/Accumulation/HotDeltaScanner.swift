// HotDeltaScanner: reads a text or JSON delta without building a JSON tree.
//
// Nine events in ten are `content_block_delta`s shaped like
//   {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"…"}}
// in exactly this key order, with no whitespace but before the closing
// braces: the layout the API writes. The scanner reads that layout only:
// the two `type` strings, the index as a plain non-negative integer, and
// the one payload string, unescaped into a reused buffer. Anything else —
// another key or order, a surrogate escape, a number it does not expect,
// invalid UTF-8, a syntax error — makes it answer nil and
// the event goes to the full parser, which either handles it or reports the
// error with its offset. So the fast path never accepts what the full parser
// would reject, and never has to know how to explain a failure.

import IncrementalJSON
import ServerSentEvents
import _ScanAcceleration

/// The delta kinds the scanner reads, with the one table of their wire
/// names and payload fields that the scanner, the full-parser path and the
/// fuzz self-check all read.
enum HotDeltaKind: UInt8, CaseIterable {
    case text, inputJSON, thinking, signature

    /// The delta's `type`.
    var wireName: StaticString {
        switch self {
        case .text: "text_delta"
        case .inputJSON: "input_json_delta"
        case .thinking: "thinking_delta"
        case .signature: "signature_delta"
        }
    }

    /// The key of the delta's one string payload.
    var payloadField: StaticString {
        switch self {
        case .text: "text"
        case .inputJSON: "partial_json"
        case .thinking: "thinking"
        case .signature: "signature"
        }
    }

    /// The first kind, in table order, that `matches`. Walks the raw
    /// values rather than `allCases`, which builds an array on every call
    /// (this runs once per event).
    @inline(__always)
    static func first(where matches: (Self) -> Bool) -> Self? {
        var raw: UInt8 = 0
        while let kind = Self(rawValue: raw) {
            if matches(kind) { return kind }
            raw &+= 1
        }
        return nil
    }

    init?(deltaType: String) {
        // Compared as bytes: a wire name made into a String to compare was
        // an allocation for the longer names.
        var type = deltaType
        guard let kind = type.withUTF8({ utf8 in Self.first { equals(UnsafeRawBufferPointer(utf8), $0.wireName) } }) else { return nil }
        self = kind
    }
}

/// A decoded hot delta.
struct HotDelta {
    var index: Int
    var kind: HotDeltaKind
    /// Where the unescaped payload lies, in `place`.
    var payloadRange: Range<Int>
    var place: Place

    /// Whether the payload is in the live block's room.
    var isInRoom: Bool {
        if case .room = place { true } else { false }
    }

    enum Place: Equatable {
        /// In the event data: the string had no escapes (no copy).
        case data
        /// In the scanner's buffer.
        case scratch
        /// In the room the live block claimed for it, which starts here
        /// (`StreamingBlocks.claimLiveRoom`): already where it belongs.
        case room(UnsafeMutablePointer<UInt8>)
    }
}

struct HotDeltaScanner {
    /// Holds the unescaped payload of the last scan whose string had
    /// escapes, at the delta's `payloadRange`; bytes past it are stale.
    private(set) var unescapedBuffer: [UInt8] = []
    private var unescapedCount = 0

    /// The unescaped payload of the last scan whose string had escapes.
    var unescaped: [UInt8] { Array(unescapedBuffer[0..<unescapedCount]) }

    /// The exact byte layout the API sends, checked by prefix compares:
    /// `{"type":"content_block_delta","index":N,"delta":{"type":"T","F":"…"}}`
    /// with optional whitespace only before the closing braces.
    mutating func scanCanonical(_ data: UnsafeRawBufferPointer) -> HotDelta? {
        var reader = ByteReader(data)
        guard let delta = canonicalHeadAndPayload(&reader), reader.consumeCanonicalTail() else { return nil }
        return delta
    }

    /// The canonical layout up to the payload's closing quote:
    /// `{"type":"content_block_delta","index":N,"delta":{"type":"T","F":"…"`.
    @inline(__always)
    mutating func canonicalHeadAndPayload(_ reader: inout ByteReader) -> HotDelta? {
        guard let (index, kind) = reader.consumeCanonicalDeltaStart() else { return nil }
        return payload(&reader, index: index, kind: kind, room: nil)
    }

    /// The payload string at `reader` of the delta `index` and `kind`:
    /// written into `room` when it has room for it (whether or not it has
    /// escapes), else left in the data or unescaped into the scanner's
    /// buffer.
    @inline(__always)
    mutating func payload(
        _ reader: inout ByteReader, index: Int, kind: HotDeltaKind, room: UnsafeMutableBufferPointer<UInt8>?
    ) -> HotDelta? {
        if let room {
            switch reader.string(copyingInto: room) {
            case .read(let count):
                guard let start = room.baseAddress else { return nil }
                return HotDelta(index: index, kind: kind, payloadRange: 0..<count, place: .room(start))
            case .declined: return nil
            case .needsRoom: break
            }
        }
        guard let payload = reader.string(unescapingInto: &unescapedBuffer) else { return nil }
        if !payload.inData { unescapedCount = payload.range.count }
        return HotDelta(index: index, kind: kind, payloadRange: payload.range, place: payload.inData ? .data : .scratch)
    }
}

/// A cursor over bytes with the few JSON reads the scanner needs.
struct ByteReader {
    let base: UnsafeRawBufferPointer
    var position = 0

    init(_ base: UnsafeRawBufferPointer, at position: Int = 0) {
        self.base = base
        self.position = position
    }

    var atEnd: Bool { position >= base.count }

    @inline(__always) func peek() -> UInt8? { position < base.count ? base[position] : nil }

    @inline(__always) mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    /// JSON's whitespace: space, LF, CR, tab.
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always) mutating func skipWhitespace() {
        while let b = peek(), Self.isWhitespace(b) { position += 1 }
    }

    /// Consumes `literal` if the input continues with it.
    @inline(__always)
    mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard n <= base.count &- position, let start = base.baseAddress,
            bytesEqual(start + position, UnsafeRawPointer(literal.utf8Start), n)
        else { return false }
        position &+= n
        return true
    }

    /// Consumes the canonical delta's `}}` after its payload, with optional
    /// whitespace before and after each brace, and requires the end.
    @inline(__always)
    mutating func consumeCanonicalTail() -> Bool {
        // The API's own layout, `}}` and the end, in one load.
        if base.count &- position == 2, let start = base.baseAddress,
            start.loadUnaligned(fromByteOffset: position, as: UInt16.self) == 0x7D7D
        {
            position = base.count
            return true
        }
        skipWhitespace()
        guard consume(0x7D) else { return false }
        skipWhitespace()
        guard consume(0x7D) else { return false }
        skipWhitespace()
        return atEnd
    }

    /// Consumes the canonical delta up to its payload's opening quote,
    /// `{"type":"content_block_delta","index":N,"delta":{"type":"T","F":`,
    /// and returns its index and kind; nil (position unspecified) for
    /// anything else.
    @inline(__always)
    mutating func consumeCanonicalDeltaStart() -> (index: Int, kind: HotDeltaKind)? {
        guard consumeLiteral(#"{"type":"content_block_delta","index":"#), let index = smallInteger(),
            let kind = consumeCanonicalDeltaHead()
        else { return nil }
        return (index, kind)
    }

    /// Consumes `,"delta":{"type":"<wireName>","<payloadField>":` of the
    /// kind it names (the canonical layout from the index to the payload's
    /// opening quote, which is left for ``string(unescapingInto:)``), or
    /// nothing. Each kind's bytes are one literal, compared a word at a time
    /// with no loop; `HotDeltaScannerTests` checks each against the table.
    @inline(__always)
    mutating func consumeCanonicalDeltaHead() -> HotDeltaKind? {
        if consumeLiteral(#","delta":{"type":"text_delta","text":"#) { return .text }
        if consumeLiteral(#","delta":{"type":"input_json_delta","partial_json":"#) { return .inputJSON }
        if consumeLiteral(#","delta":{"type":"thinking_delta","thinking":"#) { return .thinking }
        if consumeLiteral(#","delta":{"type":"signature_delta","signature":"#) { return .signature }
        return nil
    }

    /// The input from `position` as bytes, or nil when there are none.
    @inline(__always)
    private var chunkBytes: UnsafePointer<UInt8>? {
        base.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    /// A non-negative integer without sign, fraction or exponent, < 10^15.
    @inline(__always)
    mutating func smallInteger() -> Int? {
        // The usual block index: one digit, then the comma after it.
        if base.count &- position >= 2, let start = base.baseAddress {
            let digit = start.load(fromByteOffset: position, as: UInt8.self) &- 0x30
            if digit < 10 && start.load(fromByteOffset: position &+ 1, as: UInt8.self) == UInt8(ascii: ",") {
                position &+= 1
                return Int(digit)
            }
        }
        guard let first = peek(), first >= 0x30 && first <= 0x39 else { return nil }
        var value = 0
        var digits = 0
        while let b = peek(), b >= 0x30 && b <= 0x39 {
            value = value * 10 + Int(b - 0x30)
            digits += 1
            position += 1
            if digits > 15 { return nil }
        }
        if first == 0x30 && digits > 1 { return nil }
        if let b = peek(), b == 0x2E || b == 0x65 || b == 0x45 { return nil }
        return value
    }

    /// A string value. Without escapes it is returned as a range of the
    /// input (no copy); with escapes it is unescaped into `out` from its
    /// start, and the range is that of `out` (whose count is only ever
    /// raised: bytes past the range are stale). Nil on anything the scanner
    /// leaves to the full parser: surrogate escapes, invalid UTF-8, bad
    /// escapes, control bytes. The reading is `_scan_json_string` (C): the
    /// runs between escapes sixteen bytes a step, the escapes in the same
    /// loop, with no call back into Swift per run.
    mutating func string(unescapingInto out: inout [UInt8]) -> (range: Range<Int>, inData: Bool)? {
        guard consume(0x22), let p = chunkBytes else { return nil }
        let start = position
        var end = 0
        var written = 0
        while true {
            let result = out.withUnsafeMutableBufferPointer { destination in
                _scan_json_string_direct(p, start, base.count, destination.baseAddress, destination.count, &end, &written)
            }
            switch result {
            case Int32(_scan_string_read):
                position = end
                // SIZE_MAX: no escapes, the contents are in place.
                return written < 0 ? (start..<(end &- 1), true) : (0..<written, false)
            case Int32(_scan_string_needs_room):
                // Never more than the rest of the input; usually one growth.
                let room = Swift.min(Swift.max(256, 2 &* out.count), base.count &- start)
                guard room > out.count else { return nil }
                out = [UInt8](repeating: 0, count: room)
            default:
                return nil
            }
        }
    }

    /// What ``string(copyingInto:)`` found.
    enum CopiedString {
        case read(count: Int)
        /// Left to the full parser (as ``string(unescapingInto:)`` would).
        case declined
        /// More than the room: nothing consumed.
        case needsRoom
    }

    /// A string value written, unescaped or not, into `room` from its
    /// start: its unescaped count, or what stopped it (see
    /// `_scan_json_string_copying_direct`). Consumes the string only when
    /// it is read.
    @inline(__always)
    mutating func string(copyingInto room: UnsafeMutableBufferPointer<UInt8>) -> CopiedString {
        guard peek() == 0x22, let p = chunkBytes else { return .declined }
        var end = 0
        var written = 0
        switch _scan_json_string_copying_direct(p, position &+ 1, base.count, room.baseAddress, room.count, &end, &written) {
        case Int32(_scan_string_read):
            position = end
            return .read(count: written)
        case Int32(_scan_string_needs_room):
            return .needsRoom
        default:
            return .declined
        }
    }
}

@inline(__always)
func equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    return bytes.elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
}

extension Array where Element == UInt8 {
    /// Appends raw bytes with one copy (the generic `append(contentsOf:)`
    /// walks a raw buffer byte by byte).
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }
}
