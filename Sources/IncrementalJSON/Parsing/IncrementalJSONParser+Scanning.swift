// The byte loop of the parser: structure, numbers and literals. Strings are
// in IncrementalJSONParser+Strings.swift.
//
// Each state consumes as many bytes as it can in a tight loop over the raw
// pointer (whitespace runs, digit runs, string runs) before returning to the
// dispatch, so the per-byte cost is a compare or two, not a function call.

import _ScanAcceleration

extension IncrementalJSONParser {
    /// Parses `p[0..<n]`, continuing from the saved state.
    mutating func scanChunk(_ p: UnsafePointer<UInt8>, _ n: Int) throws(JSONParseError) {
        var i = 0
        while i < n {
            switch parserState {
            case .value, .valueOrArrayEnd:
                i = skipWhitespace(p, i, n)
                if i < n { try beginValue(p, &i, n) }
            case .afterValue:
                i = skipWhitespace(p, i, n)
                guard i < n else { break }
                let b = p[i]
                let inObject = frameStack.last?.isObject ?? false
                if b == UInt8(ascii: ",") {
                    parserState = inObject ? .key : .value
                    // The next member's key, straight on when it is short.
                    if inObject {
                        i = skipWhitespace(p, i &+ 1, n)
                        if i < n && p[i] == UInt8(ascii: "\"") { i = try beginKey(p, i, n) }
                        continue
                    }
                } else if b == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    close()
                } else {
                    throw fail(.unexpectedByte(b), at: i)
                }
                i &+= 1
            case .keyOrObjectEnd, .key:
                i = skipWhitespace(p, i, n)
                guard i < n else { break }
                let b = p[i]
                if b == UInt8(ascii: "\"") {
                    i = try beginKey(p, i, n)
                    continue
                } else if b == UInt8(ascii: "}") && parserState == .keyOrObjectEnd {
                    close()
                } else {
                    throw fail(.unexpectedByte(b), at: i)
                }
                i &+= 1
            case .colon:
                i = skipWhitespace(p, i, n)
                guard i < n else { break }
                guard p[i] == UInt8(ascii: ":") else { throw fail(.unexpectedByte(p[i]), at: i) }
                parserState = .value
                i &+= 1
            case .string:
                try scanString(p, &i, n)
            case .number:
                try scanNumber(p, &i, n)
            case .literal:
                try scanLiteral(p, &i, n)
            case .done:
                i = skipWhitespace(p, i, n)
                if i < n { throw fail(.trailingContent, at: i) }
            }
        }
        consumed &+= n
    }

    /// Starts the key whose opening quote is `p[quote]`; returns where
    /// reading goes on. A key of at most `Node.maxInlineBytes` plain bytes
    /// that ends in this chunk (most keys) is read here, and its colon and
    /// the start of its value when they follow: what `scanString`,
    /// `endString` and the `.colon` and `.value` states would do, without a
    /// trip through the state loop for each. Any other key goes to the
    /// `.string` state.
    @inline(__always)
    mutating func beginKey(_ p: UnsafePointer<UInt8>, _ quote: Int, _ n: Int) throws(JSONParseError) -> Int {
        let start = quote &+ 1
        let end = _scan_json_short_string(p, start, n)
        let count = end &- start
        guard end < n, count <= Node.maxInlineBytes, count <= stringByteLimit else {
            parserState = .string
            stringIsKey = true
            keyBytes.removeAll()
            return start
        }
        // With eight bytes of chunk left, the key loads into its node at once.
        let key =
            n &- start >= 8
            ? Node(.shortString, firstBytesOf: UnsafeRawPointer(p + start).loadUnaligned(as: UInt64.self), count: count)
            : Node(.shortString, inline: UnsafeBufferPointer(start: p + start, count: count))
        if !frameStack.isEmpty { frameStack[frameStack.count &- 1].key = key }
        parserState = .colon
        let colon = skipWhitespace(p, end &+ 1, n)
        guard colon < n && p[colon] == UInt8(ascii: ":") else { return colon }
        parserState = .value
        var i = skipWhitespace(p, colon &+ 1, n)
        if i < n { try beginValue(p, &i, n) }
        return i
    }

    /// Starts the value whose first byte is `p[i]`.
    @inline(__always)
    mutating func beginValue(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        let b = p[i]
        switch b {
        case UInt8(ascii: "\""):
            // Each kind of value is read on at once, not after a trip
            // through the state loop.
            parserState = .string
            stringIsKey = false
            stringStart = chunkBytes.count
            i &+= 1
            try scanString(p, &i, n)
        case UInt8(ascii: "{"):
            try push(isObject: true, at: i)
            parserState = .keyOrObjectEnd
            i &+= 1
        case UInt8(ascii: "["):
            try push(isObject: false, at: i)
            parserState = .valueOrArrayEnd
            i &+= 1
        case UInt8(ascii: "]") where parserState == .valueOrArrayEnd:
            close()
            i &+= 1
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // The number scanner consumes from this byte on.
            parserState = .number
            jsonNumber = .start
            tokenBytes.removeAll()
            try scanNumber(p, &i, n)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            pendingLiteral = b == UInt8(ascii: "t") ? .true : (b == UInt8(ascii: "f") ? .false : .null)
            matched = 0
            parserState = .literal
            try scanLiteral(p, &i, n)
        default:
            throw fail(.unexpectedByte(b), at: i)
        }
    }

    @inline(__always)
    func skipWhitespace(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int { Self.whitespaceEnd(p, start, n) }

    /// The first index at or after `start` that is not JSON whitespace
    /// (space, tab, LF, CR), or `n`. Both parsers skip whitespace with this.
    @inline(__always)
    static func whitespaceEnd(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        var i = start
        while i < n {
            let b = p[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            i &+= 1
        }
        return i
    }

    /// Reads number bytes; the number ends at the first byte that cannot
    /// continue it (which is then parsed as whatever follows a value).
    mutating func scanNumber(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        let start = i
        let (end, state) = jsonNumber.scan(p, from: i, to: n)
        i = end
        jsonNumber = state
        let run = UnsafeBufferPointer(start: p + start, count: i - start)
        if i == n {
            // The chunk ended: the number may go on in the next one.
            tokenBytes.append(run)
            return
        }
        guard state.isTerminal else { throw fail(.invalidNumber, at: i) }
        if tokenBytes.isEmpty {
            emitNumber(run)
        } else {
            tokenBytes.append(run)
            let token = tokenBytes
            token.withBytes { emitNumber($0) }
        }
    }

    /// Matches `true`, `false` or `null`, possibly across chunks.
    mutating func scanLiteral(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        let word = pendingLiteral.word
        let length = word.utf8CodeUnitCount
        let letters = word.utf8Start
        while matched < length && i < n {
            guard p[i] == letters[matched] else { throw fail(.unexpectedByte(p[i]), at: i) }
            matched &+= 1
            i &+= 1
        }
        if matched == length { emit(pendingLiteral.node) }
    }
}
