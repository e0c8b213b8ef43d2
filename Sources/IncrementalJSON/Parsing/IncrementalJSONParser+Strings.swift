// Strings: the hot part of most documents. A string is read in runs: a fast
// loop skips bytes that need no attention (8 at a time, then one by one),
// multi-byte characters are validated in place without leaving the run, and
// the whole run is appended to the string's storage with one copy. Only
// quotes, backslashes, control bytes and chunk ends stop a run.
//
// UTF-8 validation follows the Unicode table of well-formed sequences, so
// overlong forms, encoded surrogates (ED A0..BF) and values above U+10FFFF
// are rejected. A character cut by a chunk end is stored as far as it goes
// (``AppendOnlyText`` hides a cut character) and finished by the next chunk.
//
// Escapes decode into the same storage. `\uD83D\uDE00` pairs are joined; an
// unpaired surrogate escape is rejected (`loneSurrogate`), because the value
// is UTF-8, which cannot hold one (JSONTestSuite's i_ files leave this open).

extension IncrementalJSONParser {
    /// Continues the current string from `p[i]`.
    mutating func _scanString(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        if _utf8Need > 0 {
            try _continueCharacter(p, &i, n)
            if _utf8Need > 0 { return }
        }
        if _escape != .none {
            try _continueEscape(p, &i, n)
            if _escape != .none { return }
        }
        while i < n {
            let start = i
            var j = _skipPlain(p, i, n)
            while j < n && p[j] >= 0x80 {
                guard let (length, low, high) = _utf8Lead(p[j]) else {
                    try _appendString(p + start, j - start, at: start)
                    throw _fail(.invalidUTF8, at: j)
                }
                if n - j < length {
                    // Cut by the chunk end: store what arrived, owe the rest.
                    try _checkRange(p, j, n, low, high, start: start)
                    try _appendString(p + start, n - start, at: start)
                    let seen = n - j - 1
                    _utf8Need = length - 1 - seen
                    _utf8Low = seen == 0 ? low : 0x80
                    _utf8High = seen == 0 ? high : 0xBF
                    i = n
                    return
                }
                try _checkRange(p, j, j + length, low, high, start: start)
                j = _skipPlain(p, j + length, n)
            }
            if j == n {
                try _appendString(p + start, n - start, at: start)
                i = n
                return
            }
            let b = p[j]
            if b == UInt8(ascii: "\"") {
                try _endString(p + start, j - start, at: start)
                i = j + 1
                return
            }
            try _appendString(p + start, j - start, at: start)
            if b == UInt8(ascii: "\\") {
                _escape = .backslash
                i = j + 1
                try _continueEscape(p, &i, n)
                if _escape != .none { return }
                continue
            }
            throw _fail(.controlCharacter(b), at: j)
        }
    }

    /// Index of the first byte at or after `start` that is a quote, a
    /// backslash, a control byte or non-ASCII.
    @inline(__always)
    func _skipPlain(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while n &- i >= 8 {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            // Per byte: high bit set, < 0x20, == '"', == '\\' (classic zero-byte
            // tests; a false positive only stops the fast loop early).
            let quote = word ^ (ones &* 0x22)
            let slash = word ^ (ones &* 0x5C)
            let special = (word | (word &- ones &* 0x20)) | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
            if special & highs != 0 { break }
            i &+= 8
        }
        while i < n {
            let b = p[i]
            if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { break }
            i &+= 1
        }
        return i
    }

    /// Checks the continuation bytes `p[lead+1..<end]` of the character at `lead`.
    @inline(__always)
    mutating func _checkRange(
        _ p: UnsafePointer<UInt8>, _ lead: Int, _ end: Int, _ low: UInt8, _ high: UInt8, start: Int
    ) throws(JSONParseError) {
        var k = lead + 1
        var low = low, high = high
        while k < end {
            let c = p[k]
            if c < low || c > high {
                try _appendString(p + start, lead - start, at: start)
                throw _fail(.invalidUTF8, at: k)
            }
            low = 0x80
            high = 0xBF
            k &+= 1
        }
    }

    /// Finishes a character whose first bytes came in an earlier chunk.
    mutating func _continueCharacter(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        while _utf8Need > 0 && i < n {
            let c = p[i]
            guard c >= _utf8Low && c <= _utf8High else { throw _fail(.invalidUTF8, at: i) }
            try _appendString(p + i, 1, at: i)
            _utf8Low = 0x80
            _utf8High = 0xBF
            _utf8Need -= 1
            i &+= 1
        }
    }

    /// Reads escape bytes until the escape is complete or the chunk ends.
    mutating func _continueEscape(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        while i < n {
            let b = p[i]
            switch _escape {
            case .none:
                return
            case .backslash:
                let decoded: UInt8
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = b
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                case UInt8(ascii: "u"):
                    _escape = .hex
                    _hex = 0
                    _hexCount = 0
                    i &+= 1
                    continue
                default:
                    throw _fail(.invalidEscape, at: i)
                }
                var byte = decoded
                try _appendString(&byte, 1, at: i)
                _escape = .none
                i &+= 1
                return
            case .hex, .lowHex:
                guard let digit = _hexDigit(b) else { throw _fail(.invalidEscape, at: i) }
                _hex = _hex << 4 | digit
                _hexCount += 1
                i &+= 1
                guard _hexCount == 4 else { continue }
                if _escape == .hex {
                    if _hex >= 0xD800 && _hex <= 0xDBFF {
                        _highSurrogate = _hex
                        _escape = .lowBackslash
                        continue
                    }
                    if _hex >= 0xDC00 && _hex <= 0xDFFF { throw _fail(.loneSurrogate, at: i - 1) }
                    try _appendScalar(_hex, at: i - 1)
                } else {
                    guard _hex >= 0xDC00 && _hex <= 0xDFFF else { throw _fail(.loneSurrogate, at: i - 1) }
                    try _appendScalar(0x10000 + ((_highSurrogate - 0xD800) << 10) + (_hex - 0xDC00), at: i - 1)
                }
                _escape = .none
                return
            case .lowBackslash:
                guard b == UInt8(ascii: "\\") else { throw _fail(.loneSurrogate, at: i) }
                _escape = .lowU
                i &+= 1
            case .lowU:
                guard b == UInt8(ascii: "u") else { throw _fail(.loneSurrogate, at: i) }
                _escape = .lowHex
                _hex = 0
                _hexCount = 0
                i &+= 1
            }
        }
    }

    /// Appends the UTF-8 encoding of a scalar (never a surrogate here).
    mutating func _appendScalar(_ scalar: UInt32, at index: Int) throws(JSONParseError) {
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count: Int
        if scalar < 0x80 {
            bytes.0 = UInt8(scalar)
            count = 1
        } else if scalar < 0x800 {
            bytes.0 = UInt8(0xC0 | scalar >> 6)
            bytes.1 = UInt8(0x80 | scalar & 0x3F)
            count = 2
        } else if scalar < 0x10000 {
            bytes.0 = UInt8(0xE0 | scalar >> 12)
            bytes.1 = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes.2 = UInt8(0x80 | scalar & 0x3F)
            count = 3
        } else {
            bytes.0 = UInt8(0xF0 | scalar >> 18)
            bytes.1 = UInt8(0x80 | scalar >> 12 & 0x3F)
            bytes.2 = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes.3 = UInt8(0x80 | scalar & 0x3F)
            count = 4
        }
        try withUnsafeBytes(of: &bytes) { (raw) throws(JSONParseError) in
            guard let base = raw.baseAddress else { return }
            try _appendString(base.assumingMemoryBound(to: UInt8.self), count, at: index)
        }
    }

    /// Appends decoded bytes to the current key or value, within the limit.
    @inline(__always)
    mutating func _appendString(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) throws(JSONParseError) {
        guard count > 0 else { return }
        let current = _stringIsKey ? _key.count : _bytes.count &- _stringStart
        let limit = _maxStringBytes
        if count > limit - current {
            throw _fail(.stringLimitExceeded(limit), at: index + Swift.max(0, limit - current))
        }
        let run = UnsafeBufferPointer(start: bytes, count: count)
        if _stringIsKey { _key.append(contentsOf: run) } else { _bytes.append(contentsOf: run) }
    }

    /// Ends the current string with its last run `bytes[0..<count]`.
    mutating func _endString(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) throws(JSONParseError) {
        if !_stringIsKey {
            try _appendString(bytes, count, at: index)
            _emit(_Node(.string, start: _stringStart, count: _bytes.count &- _stringStart))
            return
        }
        let node: _Node
        if _key.isEmpty {
            // The whole key is in this chunk: store it from the input.
            if count > _maxStringBytes { throw _fail(.stringLimitExceeded(_maxStringBytes), at: index + _maxStringBytes) }
            node = _keyCache.node(for: UnsafeBufferPointer(start: bytes, count: count), in: &_bytes)
        } else {
            try _appendString(bytes, count, at: index)
            let key = _key
            node = key.withUnsafeBufferPointer { _keyCache.node(for: $0, in: &_bytes) }
        }
        if !_stack.isEmpty { _stack[_stack.count &- 1].key = node }
        _state = .colon
    }
}

/// Length of the UTF-8 sequence led by `lead` (2...4) and the allowed range
/// of its first continuation byte; nil for a byte that cannot lead one.
@inline(__always)
func _utf8Lead(_ lead: UInt8) -> (Int, UInt8, UInt8)? {
    switch lead {
    case 0xC2...0xDF: (2, 0x80, 0xBF)
    case 0xE0: (3, 0xA0, 0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
    case 0xED: (3, 0x80, 0x9F)
    case 0xF0: (4, 0x90, 0xBF)
    case 0xF1...0xF3: (4, 0x80, 0xBF)
    case 0xF4: (4, 0x80, 0x8F)
    default: nil
    }
}

@inline(__always)
func _hexDigit(_ b: UInt8) -> UInt32? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b &- UInt8(ascii: "a") &+ 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b &- UInt8(ascii: "A") &+ 10)
    default: nil
    }
}
