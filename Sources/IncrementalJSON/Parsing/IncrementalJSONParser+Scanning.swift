// The byte loop of the parser: structure, numbers and literals. Strings are
// in IncrementalJSONParser+Strings.swift.
//
// Each state consumes as many bytes as it can in a tight loop over the raw
// pointer (whitespace runs, digit runs, string runs) before returning to the
// dispatch, so the per-byte cost is a compare or two, not a function call.

extension IncrementalJSONParser {
    /// Parses `p[0..<n]`, continuing from the saved state.
    mutating func _consume(_ p: UnsafePointer<UInt8>, _ n: Int) throws(JSONParseError) {
        var i = 0
        while i < n {
            switch _state {
            case .value, .valueOrArrayEnd:
                i = _skipWhitespace(p, i, n)
                if i < n { try _beginValue(p, &i) }
            case .afterValue:
                i = _skipWhitespace(p, i, n)
                guard i < n else { break }
                let b = p[i]
                let inObject = _stack.last?.isObject ?? false
                if b == UInt8(ascii: ",") {
                    _state = inObject ? .key : .value
                } else if b == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    _close()
                } else {
                    throw _fail(.unexpectedByte(b), at: i)
                }
                i &+= 1
            case .keyOrObjectEnd, .key:
                i = _skipWhitespace(p, i, n)
                guard i < n else { break }
                let b = p[i]
                if b == UInt8(ascii: "\"") {
                    _state = .string
                    _stringIsKey = true
                    // Usually empty already (a key is collected only when
                    // a chunk cuts it or it has escapes); clearing an empty
                    // array still costs a uniqueness check and a release.
                    if !_key.isEmpty { _key.removeAll(keepingCapacity: true) }
                } else if b == UInt8(ascii: "}") && _state == .keyOrObjectEnd {
                    _close()
                } else {
                    throw _fail(.unexpectedByte(b), at: i)
                }
                i &+= 1
            case .colon:
                i = _skipWhitespace(p, i, n)
                guard i < n else { break }
                guard p[i] == UInt8(ascii: ":") else { throw _fail(.unexpectedByte(p[i]), at: i) }
                _state = .value
                i &+= 1
            case .string:
                try _scanString(p, &i, n)
            case .number:
                try _scanNumber(p, &i, n)
            case .literal:
                try _scanLiteral(p, &i, n)
            case .done:
                i = _skipWhitespace(p, i, n)
                if i < n { throw _fail(.trailingContent, at: i) }
            }
        }
        _consumed &+= n
    }

    /// Starts the value whose first byte is `p[i]`.
    @inline(__always)
    mutating func _beginValue(_ p: UnsafePointer<UInt8>, _ i: inout Int) throws(JSONParseError) {
        let b = p[i]
        switch b {
        case UInt8(ascii: "\""):
            _state = .string
            _stringIsKey = false
            _stringStart = _bytes.count
            i &+= 1
        case UInt8(ascii: "{"):
            try _push(isObject: true, at: i)
            _state = .keyOrObjectEnd
            i &+= 1
        case UInt8(ascii: "["):
            try _push(isObject: false, at: i)
            _state = .valueOrArrayEnd
            i &+= 1
        case UInt8(ascii: "]") where _state == .valueOrArrayEnd:
            _close()
            i &+= 1
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // The number scanner consumes from this byte on.
            _state = .number
            _number = .start
            if !_token.isEmpty { _token.removeAll(keepingCapacity: true) }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _literal = b == UInt8(ascii: "t") ? .true : (b == UInt8(ascii: "f") ? .false : .null)
            _matched = 0
            _state = .literal
        default:
            throw _fail(.unexpectedByte(b), at: i)
        }
    }

    @inline(__always)
    func _skipWhitespace(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        var i = start
        while i < n {
            let b = p[i]
            // Space, tab, LF, CR.
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            i &+= 1
        }
        return i
    }

    /// Reads number bytes; the number ends at the first byte that cannot
    /// continue it (which is then parsed as whatever follows a value).
    mutating func _scanNumber(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        let start = i
        var state = _number
        while i < n {
            let b = p[i]
            if b &- UInt8(ascii: "0") < 10, state == .integer || state == .fraction || state == .exponent {
                i &+= 1
                continue
            }
            guard let next = state.next(b) else { break }
            state = next
            i &+= 1
        }
        _number = state
        let run = UnsafeBufferPointer(start: p + start, count: i - start)
        if i == n {
            // The chunk ended: the number may go on in the next one.
            _token.append(contentsOf: run)
            return
        }
        guard state.isTerminal else { throw _fail(.invalidNumber, at: i) }
        if _token.isEmpty {
            _emitNumber(run)
        } else {
            _token.append(contentsOf: run)
            let token = _token
            token.withUnsafeBufferPointer { _emitNumber($0) }
        }
    }

    /// Matches `true`, `false` or `null`, possibly across chunks.
    mutating func _scanLiteral(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        let word = _literal.word
        let length = word.utf8CodeUnitCount
        let letters = word.utf8Start
        while _matched < length && i < n {
            guard p[i] == letters[_matched] else { throw _fail(.unexpectedByte(p[i]), at: i) }
            _matched &+= 1
            i &+= 1
        }
        if _matched == length { _emit(_literal.node) }
    }
}
