// HotDeltaScanner: reads a text or JSON delta without building a JSON tree.
//
// Nine events in ten are `content_block_delta`s shaped like
//   {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"…"}}
// (keys in any order, any JSON whitespace). The scanner reads exactly that
// shape: the two `type` strings, the index as a plain non-negative integer,
// and the one payload string, unescaped into a reused buffer. Anything else —
// another key, a duplicate, an escape in a key, a surrogate escape, a number
// it does not expect, invalid UTF-8, a syntax error — makes it answer nil and
// the event goes to the full parser, which either handles it or reports the
// error with its offset. So the fast path never accepts what the full parser
// would reject, and never has to know how to explain a failure.

/// The delta kinds the scanner reads.
enum _HotDeltaKind: UInt8 {
    case text, inputJSON, thinking, signature

    init?(deltaType: UnsafeRawBufferPointer) {
        if _equals(deltaType, "text_delta") { self = .text }
        else if _equals(deltaType, "input_json_delta") { self = .inputJSON }
        else if _equals(deltaType, "thinking_delta") { self = .thinking }
        else if _equals(deltaType, "signature_delta") { self = .signature }
        else { return nil }
    }

    func isPayloadKey(_ key: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .text: _equals(key, "text")
        case .inputJSON: _equals(key, "partial_json")
        case .thinking: _equals(key, "thinking")
        case .signature: _equals(key, "signature")
        }
    }
}

/// A decoded hot delta; `payload` is valid UTF-8, unescaped.
struct _HotDelta {
    var index: Int
    var kind: _HotDeltaKind
}

struct _HotDeltaScanner {
    /// The unescaped payload of the last successful scan.
    private(set) var payload: [UInt8] = []

    /// Reads `data` as a hot delta, or returns nil (use the full parser).
    ///
    /// - Complexity: O(`data.count`), one pass.
    mutating func scan(_ data: UnsafeRawBufferPointer) -> _HotDelta? {
        payload.removeAll(keepingCapacity: true)
        var reader = _ByteReader(data)
        guard reader.consume(0x7B) else { return nil }  // {
        var sawType = false
        var index: Int?
        var delta: _HotDeltaKind?
        var first = true
        while true {
            reader.skipWhitespace()
            if reader.consume(0x7D) { break }  // }
            if !first { guard reader.consume(0x2C) else { return nil } ; reader.skipWhitespace() }
            first = false
            guard let key = reader.plainString(), reader.colon() else { return nil }
            if _equals(key, "type") {
                guard !sawType, let value = reader.plainString(), _equals(value, "content_block_delta") else { return nil }
                sawType = true
            } else if _equals(key, "index") {
                guard index == nil, let value = reader.smallInteger() else { return nil }
                index = value
            } else if _equals(key, "delta") {
                guard delta == nil, let kind = readDelta(&reader) else { return nil }
                delta = kind
            } else {
                return nil
            }
        }
        reader.skipWhitespace()
        guard reader.atEnd, sawType, let index, let delta else { return nil }
        return _HotDelta(index: index, kind: delta)
    }

    /// Reads the `delta` object: its `type` and its one payload string.
    private mutating func readDelta(_ reader: inout _ByteReader) -> _HotDeltaKind? {
        reader.skipWhitespace()
        guard reader.consume(0x7B) else { return nil }
        var kind: _HotDeltaKind?
        var payloadKey: UnsafeRawBufferPointer?
        var first = true
        while true {
            reader.skipWhitespace()
            if reader.consume(0x7D) { break }
            if !first { guard reader.consume(0x2C) else { return nil } ; reader.skipWhitespace() }
            first = false
            guard let key = reader.plainString(), reader.colon() else { return nil }
            if _equals(key, "type") {
                guard kind == nil, let value = reader.plainString(), let k = _HotDeltaKind(deltaType: value) else { return nil }
                kind = k
            } else if payloadKey == nil {
                payloadKey = key
                guard reader.unescapedString(into: &payload) else { return nil }
            } else {
                return nil
            }
        }
        guard let kind, let payloadKey, kind.isPayloadKey(payloadKey) else { return nil }
        return kind
    }
}

/// A cursor over bytes with the few JSON reads the scanner needs.
struct _ByteReader {
    let base: UnsafeRawBufferPointer
    var position = 0

    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    var atEnd: Bool { position >= base.count }

    @inline(__always) func peek() -> UInt8? { position < base.count ? base[position] : nil }

    @inline(__always) mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    @inline(__always) mutating func skipWhitespace() {
        while let b = peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 }
    }

    mutating func colon() -> Bool {
        skipWhitespace()
        guard consume(0x3A) else { return false }
        skipWhitespace()
        return true
    }

    /// A string without escapes or non-ASCII bytes, returned in place.
    mutating func plainString() -> UnsafeRawBufferPointer? {
        guard consume(0x22) else { return nil }
        let start = position
        while let b = peek() {
            if b == 0x22 {
                position += 1
                return UnsafeRawBufferPointer(rebasing: base[start..<(position - 1)])
            }
            if b == 0x5C || b < 0x20 || b >= 0x80 { return nil }
            position += 1
        }
        return nil
    }

    /// A non-negative integer without sign, fraction or exponent, < 10^15.
    mutating func smallInteger() -> Int? {
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

    /// A string, unescaped into `out`; false on anything the scanner leaves
    /// to the full parser (surrogate escapes, invalid UTF-8, bad escapes).
    mutating func unescapedString(into out: inout [UInt8]) -> Bool {
        guard consume(0x22) else { return false }
        var sawNonASCII = false
        while position < base.count {
            let runStart = position
            while position < base.count {
                let b = base[position]
                if b == 0x22 || b == 0x5C || b < 0x20 { break }
                sawNonASCII = sawNonASCII || b >= 0x80
                position += 1
            }
            if position > runStart {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: base[runStart..<position]))
            }
            guard let b = peek() else { return false }
            if b == 0x22 {
                position += 1
                return !sawNonASCII || String(validating: out, as: UTF8.self) != nil
            }
            guard b == 0x5C else { return false }  // control byte
            position += 1
            guard let e = peek() else { return false }
            position += 1
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard let scalar = hex4(), !(0xD800...0xDFFF).contains(scalar),
                      let unicode = Unicode.Scalar(scalar) else { return false }
                out.append(contentsOf: unicode.utf8)
            default: return false
            }
        }
        return false
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= base.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = base[position]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

@inline(__always)
func _equals(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    return bytes.elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
}
