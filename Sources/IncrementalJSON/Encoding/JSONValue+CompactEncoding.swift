// Compact JSON output of a (possibly partial) value.
//
// Number text and member order are written as they are; strings are escaped
// minimally (quote, backslash, control characters), everything else is
// copied as UTF-8. A partial value is written as valid JSON by closing what
// is open: an incomplete string loses a character cut off at its end and
// gets its closing quote; open arrays and objects get their brackets.
// Invalid UTF-8 (possible only in text built by hand with
// `AppendOnlyText.append(utf8:)`) is written as U+FFFD so the output is
// always valid JSON.

import _ScanAcceleration

extension JSONValue {
    /// Appends compact JSON for this value to `out`, closing incomplete nodes.
    ///
    /// - Complexity: O(size of the value).
    public func encodeCompact(into out: inout [UInt8]) {
        encodeCompactChunked(into: &out, limit: .max) { _ in }
    }

    /// Writes compact JSON for this value through `out`, handing it to
    /// `drain` whenever it holds `limit` bytes or more (`drain` writes the
    /// bytes somewhere and empties the buffer), so a value of any size is
    /// written with a buffer of about `limit` bytes. What is left at the end
    /// stays in `out`.
    ///
    /// - Complexity: O(size of the value).
    public func encodeCompact(into out: inout [UInt8], drainingAt limit: Int, _ drain: (inout [UInt8]) -> Void) {
        encodeCompactChunked(into: &out, limit: Swift.max(limit, 16), drain)
    }

    func encodeCompactChunked(into out: inout [UInt8], limit: Int, _ drain: (inout [UInt8]) -> Void) {
        switch kind {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): number.withTextUTF8 { out.append(contentsOf: $0) }
        case .string(let text): encodeString(text, into: &out, limit: limit, drain)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.encodeCompactChunked(into: &out, limit: limit, drain)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                encodeString(AppendOnlyText(member.key), into: &out, limit: limit, drain)
                out.append(UInt8(ascii: ":"))
                member.value.encodeCompactChunked(into: &out, limit: limit, drain)
            }
            out.append(UInt8(ascii: "}"))
        }
        if out.count >= limit { drain(&out) }
    }

    /// Compact JSON for this value (incomplete nodes closed).
    public var compactJSON: String {
        var out: [UInt8] = []
        encodeCompact(into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Writes `text` as a JSON string literal.
func encodeString(_ text: AppendOnlyText, into out: inout [UInt8]) {
    encodeString(text, into: &out, limit: .max) { _ in }
}

/// Writes `text` as a JSON string literal, draining `out` between pieces of
/// at most `limit` bytes. Runs that need no escape, well-formed multi-byte
/// characters included, are found by the string reader's vector scan
/// (`_scan_json_string_run`); it stops at a character cut by the end of a
/// piece as at an ill-formed one, and `validSequenceLength` tells which.
/// (Skipping ASCII eight bytes at a time and validating each character
/// apart was a large share of `replay --final-json` on 20-byte text deltas;
/// Benchmarks/RESULTS-HISTORY.md, figures once in source comments.)
///
/// `windows`: false only in the tests, which hold the window-at-a-time
/// writer to the character-at-a-time one.
func encodeString(
    _ text: AppendOnlyText, into out: inout [UInt8], limit: Int, windows usesWindows: Bool = true, _ drain: (inout [UInt8]) -> Void
) {
    out.append(UInt8(ascii: "\""))
    text.withUTF8 { bytes in
        guard let p = bytes.baseAddress else { return }
        let end = completeCharacterPrefix(bytes)
        var runStart = 0
        var i = 0
        var windows = EscapeWindows()
        defer { windows.deallocate() }
        while i < end {
            // Long stretches a window at a time, whole escapes included.
            if usesWindows, i == runStart, i >= windows.retryAt, end &- i >= EscapeWindows.minimumInput {
                let from = i
                windows.escape(p, &i, end, into: &out)
                runStart = i
                if out.count >= limit { drain(&out) }
                if i != from { continue }
                // Ill-formed UTF-8 within a window: the next stretch is
                // written a character at a time.
                windows.retryAt = i &+ EscapeWindows.minimumInput
            }
            let stop = limit < end &- i ? i &+ limit : end
            i = _scan_json_string_run(p, i, stop)
            if i == stop {
                if i &- runStart >= limit {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                    runStart = i
                    if out.count >= limit { drain(&out) }
                }
                continue
            }
            let b = p[i]
            if b >= 0x80, let length = validSequenceLength(bytes, i, end) {
                i += length
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            encodeSpecial(b, into: &out)
            i += 1
            runStart = i
            if out.count >= limit { drain(&out) }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
    }
    out.append(UInt8(ascii: "\""))
}

/// The window-at-a-time writer of `encodeString` (`_json_escape_windows`),
/// with the buffer it writes into before the bytes join the output (an
/// array has no room that can be written before it is counted).
struct EscapeWindows {
    /// Input worth a window-at-a-time pass: shorter strings (keys, ids) go
    /// a character at a time.
    static let minimumInput = 64
    /// Most input one pass takes, so the buffer stays small.
    static let pieceInput = 1 << 16

    private var buffer: UnsafeMutableBufferPointer<UInt8>?
    /// Where the next pass may start after one that wrote nothing.
    var retryAt = 0

    /// Writes what the windows take of p[i..<end] to `out`, advancing `i`.
    mutating func escape(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, into out: inout [UInt8]) {
        let room = Self.pieceInput + Self.pieceInput / 8 + 64
        let buffer = self.buffer ?? UnsafeMutableBufferPointer<UInt8>.allocate(capacity: room)
        self.buffer = buffer
        guard let base = buffer.baseAddress else { return }
        var at = i
        let written = _json_escape_windows(p, &at, Swift.min(end, i &+ Self.pieceInput), base, buffer.count)
        i = at
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<written]))
    }

    func deallocate() { buffer?.deallocate() }
}

/// Escapes a quote, backslash or control byte; an invalid UTF-8 byte becomes U+FFFD.
/// Byte by byte: appending a string literal's UTF-8 view copied it through
/// the string's storage on every escape, a large share of the final JSON of
/// a stream of short text deltas (Benchmarks/RESULTS-HISTORY.md, figures
/// once in source comments).
private func encodeSpecial(_ b: UInt8, into out: inout [UInt8]) {
    let letter: UInt8
    switch b {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): letter = b
    case 0x0A: letter = UInt8(ascii: "n")
    case 0x0D: letter = UInt8(ascii: "r")
    case 0x09: letter = UInt8(ascii: "t")
    case 0x08: letter = UInt8(ascii: "b")
    case 0x0C: letter = UInt8(ascii: "f")
    case 0..<0x20:
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        out.append(UInt8(ascii: "0"))
        out.append(UInt8(ascii: "0"))
        out.append(hexDigit(b >> 4))
        out.append(hexDigit(b & 0xF))
        return
    default:
        out.append(0xEF)
        out.append(0xBF)
        out.append(0xBD)
        return
    }
    out.append(UInt8(ascii: "\\"))
    out.append(letter)
}

/// The lowercase hexadecimal digit of `nibble` (0...15).
private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
}

/// Length of the well-formed UTF-8 sequence at `i` (within `end`), or nil.
func validSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
    guard let (length, low, high) = _JSONStringReader.utf8Lead(bytes[i]), end - i >= length else { return nil }
    var lowBound = low
    var highBound = high
    for k in 1..<length {
        let c = bytes[i + k]
        guard c >= lowBound && c <= highBound else { return nil }
        lowBound = 0x80
        highBound = 0xBF
    }
    return length
}
