// Strings: the hot part of most documents. A string is read in runs by
// the shared `_JSONStringReader` (_JSONStringReader.swift): a fast loop
// skips bytes that need no attention, multi-byte characters are validated
// in place without leaving the run, and the whole run is appended to the
// string's storage with one copy. Only quotes, backslashes, control bytes,
// ill-formed UTF-8 and chunk ends stop a run. What is left here is the state
// a chunk end can cut: a character (`_utf8Need`) or an escape (`_escape`).
//
// A character cut by a chunk end is stored as far as it goes
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
            let run = _JSONStringReader.run(p, from: start, to: n)
            let j = run.end
            switch run.stop {
            case .special:
                break
            case .endOfInput:
                try _appendString(p + start, n - start, at: start)
                i = n
                return
            case .cutCharacter(let need, let low, let high):
                // Cut by the chunk end: store what arrived, owe the rest.
                try _appendString(p + start, n - start, at: start)
                _utf8Need = need
                _utf8Low = low
                _utf8High = high
                i = n
                return
            case .invalidUTF8(let at):
                try _appendString(p + start, j - start, at: start)
                throw _fail(.invalidUTF8, at: at)
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
                if b == UInt8(ascii: "u") {
                    _escape = .hex
                    _hex = 0
                    _hexCount = 0
                    i &+= 1
                    continue
                }
                guard var byte = _JSONStringReader.escapedByte(b) else { throw _fail(.invalidEscape, at: i) }
                try _appendString(&byte, 1, at: i)
                _escape = .none
                i &+= 1
                return
            case .hex, .lowHex:
                guard let digit = _JSONStringReader.hexDigit(b) else { throw _fail(.invalidEscape, at: i) }
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
        try _JSONStringReader.withUTF8(of: scalar) { (bytes) throws(JSONParseError) in
            guard let base = bytes.baseAddress else { return }
            try _appendString(base, bytes.count, at: index)
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
