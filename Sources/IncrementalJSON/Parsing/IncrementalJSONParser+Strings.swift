// Strings: the hot part of most documents. A string is read in runs by
// the shared `_JSONStringReader` (_JSONStringReader.swift): a fast loop
// skips bytes that need no attention, multi-byte characters are validated
// in place without leaving the run, and the whole run is appended to the
// string's storage with one copy. Only quotes, backslashes, control bytes,
// ill-formed UTF-8 and chunk ends stop a run. What is left here is the state
// a chunk end can cut: a character (`utf8Need`) or an escape (`escape`).
//
// A character cut by a chunk end is stored as far as it goes
// (``AppendOnlyText`` hides a cut character) and finished by the next chunk.
//
// Escapes decode into the same storage. `\uD83D\uDE00` pairs are joined; an
// unpaired surrogate escape is rejected (`loneSurrogate`), because the value
// is UTF-8, which cannot hold one (JSONTestSuite's i_ files leave this open).

import _ScanAcceleration

extension IncrementalJSONParser {
    /// Continues the current string from `p[i]`.
    mutating func scanString(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        if utf8Need > 0 || escape != .none { return try finishCutPiece(p, &i, n) }
        // A short plain string (most keys, many values) ends within two
        // 16-byte windows (ShortString.h): no call into the scans. One that
        // runs plain to the chunk's end is kept as it is.
        let quote = _scan_json_short_string(p, i, n)
        if quote < n {
            try endString(p + i, quote &- i, at: i)
            i = quote &+ 1
            return
        }
        if quote == n {
            try appendString(p + i, n &- i, at: i)
            i = n
            return
        }
        try readRuns(p, &i, n)
    }

    /// Finishes the character or escape a chunk end cut, then reads on.
    /// Out of line, as everything past a short plain string is: the
    /// buffers these paths pass by address would put a stack guard on
    /// every string read.
    @inline(never)
    mutating func finishCutPiece(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        if utf8Need > 0 {
            try continueCharacter(p, &i, n)
            if utf8Need > 0 { return }
        }
        if escape != .none {
            try continueEscape(p, &i, n)
            if escape != .none { return }
        }
        try scanString(p, &i, n)
    }

    /// Reads the string from `p[i]` run by run (`_JSONStringReader`).
    @inline(never)
    mutating func readRuns(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        while i < n {
            let start = i
            let run = _JSONStringReader.run(p, from: start, to: n)
            let j = run.end
            switch run.stop {
            case .special:
                break
            case .endOfInput:
                try appendString(p + start, n - start, at: start)
                i = n
                return
            case .cutCharacter(let need, let low, let high):
                // Cut by the chunk end: store what arrived, owe the rest.
                try appendString(p + start, n - start, at: start)
                utf8Need = need
                utf8Low = low
                utf8High = high
                i = n
                return
            case .invalidUTF8(let at):
                try appendString(p + start, j - start, at: start)
                throw fail(.invalidUTF8, at: at)
            }
            let b = p[j]
            if b == UInt8(ascii: "\"") {
                try endString(p + start, j - start, at: start)
                i = j + 1
                return
            }
            try appendString(p + start, j - start, at: start)
            if b == UInt8(ascii: "\\") {
                escape = .backslash
                i = j + 1
                try continueEscape(p, &i, n)
                if escape != .none { return }
                continue
            }
            throw fail(.controlCharacter(b), at: j)
        }
    }

    /// Finishes a character whose first bytes came in an earlier chunk.
    mutating func continueCharacter(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        while utf8Need > 0 && i < n {
            let c = p[i]
            guard c >= utf8Low && c <= utf8High else { throw fail(.invalidUTF8, at: i) }
            try appendString(p + i, 1, at: i)
            utf8Low = 0x80
            utf8High = 0xBF
            utf8Need -= 1
            i &+= 1
        }
    }

    /// Reads escape bytes until the escape is complete or the chunk ends.
    mutating func continueEscape(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) throws(JSONParseError) {
        while i < n {
            let b = p[i]
            switch escape {
            case .none:
                return
            case .backslash:
                if b == UInt8(ascii: "u") {
                    escape = .hex
                    hexText = 0
                    hexCount = 0
                    i &+= 1
                    continue
                }
                guard var byte = _JSONStringReader.escapedByte(b) else { throw fail(.invalidEscape, at: i) }
                try appendString(&byte, 1, at: i)
                escape = .none
                i &+= 1
                return
            case .hex, .lowHex:
                guard let digit = _JSONStringReader.hexDigit(b) else { throw fail(.invalidEscape, at: i) }
                hexText = hexText << 4 | digit
                hexCount += 1
                i &+= 1
                guard hexCount == 4 else { continue }
                if escape == .hex {
                    if hexText >= 0xD800 && hexText <= 0xDBFF {
                        highSurrogate = hexText
                        escape = .lowBackslash
                        continue
                    }
                    if hexText >= 0xDC00 && hexText <= 0xDFFF { throw fail(.loneSurrogate, at: i - 1) }
                    try appendScalar(hexText, at: i - 1)
                } else {
                    guard hexText >= 0xDC00 && hexText <= 0xDFFF else { throw fail(.loneSurrogate, at: i - 1) }
                    try appendScalar(0x10000 + ((highSurrogate - 0xD800) << 10) + (hexText - 0xDC00), at: i - 1)
                }
                escape = .none
                return
            case .lowBackslash:
                guard b == UInt8(ascii: "\\") else { throw fail(.loneSurrogate, at: i) }
                escape = .lowU
                i &+= 1
            case .lowU:
                guard b == UInt8(ascii: "u") else { throw fail(.loneSurrogate, at: i) }
                escape = .lowHex
                hexText = 0
                hexCount = 0
                i &+= 1
            }
        }
    }

    /// Appends the UTF-8 encoding of a scalar (never a surrogate here).
    mutating func appendScalar(_ scalar: UInt32, at index: Int) throws(JSONParseError) {
        try _JSONStringReader.withUTF8(of: scalar) { (bytes) throws(JSONParseError) in
            guard let base = bytes.baseAddress else { return }
            try appendString(base, bytes.count, at: index)
        }
    }

    /// Appends decoded bytes to the current key or value, within the limit.
    @inline(__always)
    mutating func appendString(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) throws(JSONParseError) {
        guard count > 0 else { return }
        let current = stringIsKey ? keyBytes.count : chunkBytes.count &- stringStart
        let limit = stringByteLimit
        if count > limit - current {
            try failLongString(at: index + Swift.max(0, limit - current))
        }
        let run = UnsafeBufferPointer(start: bytes, count: count)
        if stringIsKey { keyBytes.append(run) } else { chunkBytes._append(contentsOf: run, following: replaying) }
    }

    /// The node of a key that a chunk end cut, whose last run is
    /// `bytes[0..<count]`. Out of line, as `finishCutPiece` is: it passes
    /// the key's bytes by address.
    @inline(never)
    mutating func endCutKey(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) throws(JSONParseError) -> Node {
        try appendString(bytes, count, at: index)
        let key = keyBytes
        return key.withBytes { keyCache.node(for: $0, in: &chunkBytes, following: replaying) }
    }

    /// Fails with `stringLimitExceeded` at chunk position `index`. Out of
    /// line, so that the string reads do not make and keep the error on
    /// their own stack.
    @inline(never)
    mutating func failLongString(at index: Int) throws(JSONParseError) -> Never {
        throw fail(.stringLimitExceeded(stringByteLimit), at: index)
    }

    /// Ends the current string with its last run `bytes[0..<count]`.
    mutating func endString(_ bytes: UnsafePointer<UInt8>, _ count: Int, at index: Int) throws(JSONParseError) {
        if !stringIsKey {
            try appendString(bytes, count, at: index)
            emit(Node(.string, start: stringStart, count: chunkBytes.count &- stringStart))
            return
        }
        let node: Node
        if keyBytes.isEmpty {
            // The whole key is in this chunk: store it from the input.
            if count > stringByteLimit { try failLongString(at: index + stringByteLimit) }
            node = keyCache.node(for: UnsafeBufferPointer(start: bytes, count: count), in: &chunkBytes, following: replaying)
        } else {
            node = try endCutKey(bytes, count, at: index)
        }
        if !frameStack.isEmpty { frameStack[frameStack.count &- 1].key = node }
        parserState = .colon
    }
}
