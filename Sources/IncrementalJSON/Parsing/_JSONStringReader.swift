// _JSONStringReader: the one reader of the bytes inside a JSON string.
//
// Two callers read JSON strings: the resumable parser, whose string may be
// cut anywhere by a chunk end (IncrementalJSONParser+Strings.swift keeps
// that state), and ClaudeStreaming's hot delta scanner, which reads one
// whole event and declines anything unusual. Both read a string the same
// way, so the Swift side of the way is written once, here. The C scans
// (ByteRuns.c) apply the same rules sixteen or thirty-two bytes a step;
// `StringRulesAgreementTests` holds the two to each other over every
// escape and every UTF-8 lead byte. The rules:
//
// - A *run* is everything up to the next byte that needs attention. Plain
//   ASCII and well-formed multi-byte characters (checked in place against
//   the Unicode table of well-formed sequences: no overlong forms, no
//   encoded surrogates ED A0..BF, nothing above U+10FFFF) are skipped
//   sixteen bytes a step by `_scan_json_string_run` (C, for pmovmskb;
//   `slowRun` is the same in Swift, a character at a time, and says why a
//   character could not be passed). A run stops at a quote, a
//   backslash or a control byte (`.special`), at the input's end, at the
//   first byte that makes a sequence ill-formed, or at a character cut by
//   the input's end, reporting what that character still needs.
// - After a backslash, `escapedByte` decodes the one-character escapes and
//   `hexDigit` the four digits of `\u`; `withUTF8(of:)` encodes the scalar.
//   Joining surrogate pairs across chunks is the parser's state; the
//   scanner declines surrogate escapes.
//
// Worked example: the bytes after the opening quote of `"café \"x\""`,
// that is `c a f C3 A9 ␠ \ " x \ " "`:
//   run(from: 0) skips `caf`, checks `C3 A9` (lead C3 wants one
//   continuation in 80...BF), skips the space and stops at index 6, the
//   backslash (.special). escapedByte(`"`) gives `"`; run(from: 8) skips
//   `x` and stops at the next backslash; after that escape, run(from: 11)
//   stops at once on the closing quote. The caller saw three runs and two
//   escapes and copied `café "x"` once.
//
// Everything is `@inlinable` and `@inline(__always)`: this is the innermost
// loop of a whole-document parse and of every streamed text delta. The types
// are also `@usableFromInline`: without it this toolchain (6.3) neither
// checks nor serialises the bodies of a `package` type's inlinable members,
// so ClaudeStreaming called each one (hexDigit included) as a function.

public import _ScanAcceleration

/// Where and why a run of string bytes ended (see ``_JSONStringReader``).
@usableFromInline
package struct _JSONStringRun {
    /// Why the run stopped.
    @usableFromInline
    package enum Stop {
        /// `p[end]` is a quote, a backslash or a control byte.
        case special
        /// The run reached the end of the input (`end == n`).
        case endOfInput
        /// The character led by `p[end]` is ill-formed; `p[at]` is the
        /// first byte that makes it so (the lead itself or a continuation).
        case invalidUTF8(at: Int)
        /// A character that is well-formed so far is cut by the end of the
        /// input (`end == n`): `need` more continuation bytes, the first in
        /// `low...high`.
        case cutCharacter(need: Int, low: UInt8, high: UInt8)
    }

    /// The first byte not in the run.
    @usableFromInline package var end: Int
    /// Why it stopped there.
    @usableFromInline package var stop: Stop

    @inlinable @inline(__always)
    init(end: Int, stop: Stop) {
        self.end = end
        self.stop = stop
    }
}

/// The byte-level reads of a JSON string's contents, shared by the parser
/// and the hot delta scanner (file comment).
@usableFromInline
package enum _JSONStringReader {
    /// Reads the run of bytes from `p[start]` that need no attention: plain
    /// ASCII and well-formed multi-byte characters.
    ///
    /// - Complexity: O(run length), sixteen bytes per step.
    @inlinable @inline(__always)
    package static func run(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> _JSONStringRun {
        // The scan skips plain ASCII and well-formed characters 16 bytes a
        // step; it stops at a quote, backslash or control byte, or at the
        // lead of a character it cannot pass, which the loop below reads
        // again to say why (ill-formed, or cut by the input's end).
        let j = _scan_json_string_run(p, start, n)
        if j < n && p[j] >= 0x80 { return slowRun(p, from: j, to: n) }
        return _JSONStringRun(end: j, stop: j == n ? .endOfInput : .special)
    }

    /// ``run(_:from:to:)`` one character at a time: where the scan stopped
    /// at a character it could not pass.
    @inlinable @inline(never)
    package static func slowRun(_ p: UnsafePointer<UInt8>, from start: Int, to n: Int) -> _JSONStringRun {
        var j = skipPlain(p, start, n)
        while j < n && p[j] >= 0x80 {
            guard let (length, low, high) = utf8Lead(p[j]) else {
                return _JSONStringRun(end: j, stop: .invalidUTF8(at: j))
            }
            let available = Swift.min(length, n &- j)
            var k = 1
            var lower = low
            var upper = high
            while k < available {
                let c = p[j &+ k]
                if c < lower || c > upper { return _JSONStringRun(end: j, stop: .invalidUTF8(at: j &+ k)) }
                lower = 0x80
                upper = 0xBF
                k &+= 1
            }
            if available < length {
                return _JSONStringRun(end: n, stop: .cutCharacter(need: length &- available, low: lower, high: upper))
            }
            j = skipPlain(p, j &+ length, n)
        }
        return _JSONStringRun(end: j, stop: j == n ? .endOfInput : .special)
    }

    /// Index of the first byte at or after `start` that is a quote, a
    /// backslash, a control byte or non-ASCII (`n` when there is none).
    ///
    /// - Complexity: O(distance), eight bytes per step.
    @inlinable @inline(__always)
    package static func skipPlain(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int) -> Int {
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

    /// Length of the UTF-8 sequence led by `lead` (2...4) and the allowed
    /// range of its first continuation byte; nil for a byte that cannot lead one.
    @inlinable @inline(__always)
    package static func utf8Lead(_ lead: UInt8) -> (Int, UInt8, UInt8)? {
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

    /// The byte a one-character escape `\e` stands for; nil for `u` (four
    /// hex digits follow) and for anything that is not an escape.
    @inlinable @inline(__always)
    package static func escapedByte(_ e: UInt8) -> UInt8? {
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): e
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of one hex digit of a `\u` escape, either case.
    @inlinable @inline(__always)
    package static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// Calls `body` with the UTF-8 encoding of `scalar`, a value up to
    /// U+10FFFF that is not a surrogate (callers check: escapes are read
    /// as four hex digits, pairs joined or declined first).
    ///
    /// - Complexity: O(1).
    @inlinable
    package static func withUTF8<R, E: Error>(
        of scalar: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count: Int
        if scalar < 0x80 {
            bytes.0 = UInt8(truncatingIfNeeded: scalar)
            count = 1
        } else if scalar < 0x800 {
            bytes.0 = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            bytes.1 = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count = 2
        } else if scalar < 0x10000 {
            bytes.0 = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            bytes.1 = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            bytes.2 = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count = 3
        } else {
            bytes.0 = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18 & 0x07)
            bytes.1 = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            bytes.2 = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            bytes.3 = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            count = 4
        }
        return try _withInlineBytes(of: bytes, count: count, body)
    }
}
