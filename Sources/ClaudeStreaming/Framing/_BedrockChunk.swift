// The payload of a Bedrock `chunk` message: a JSON object whose `bytes`
// member is the base64 of one Messages API event, beside a random-length
// `p` padding member (absent in older captures) and possibly others.
//
// Bedrock's own layout is recognised first, in one C call: the head, the
// base64 decoded straight up to its closing quote, and the few bytes after
// it. Any other payload goes to a scanner that walks the object's
// members once: a member name is compared as raw bytes, a value other than
// `bytes` is skipped (strings by their closing quote, nested values by
// depth), and the `bytes` string is base64-decoded straight into the event
// buffer. JSON lets a writer escape
// '/' as "\/" inside the base64 text; that (rare) form is unescaped into a
// scratch copy first. A member name with escapes sends the whole payload to
// the general JSON parser instead.

import IncrementalJSON
import _Base64Acceleration
import _ScanAcceleration

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `unwrapChunk` made of a payload.
enum ChunkOutcome: Equatable {
    /// The event is the first `count` bytes of the buffer.
    case event(count: Int)
    /// What is wrong with the payload.
    case invalid(String)
}

/// Decodes the `bytes` member of `payload` into the start of `event`;
/// Bedrock's own layout is tried first when `readsLayout`.
/// - Complexity: O(`payload.count`).
func unwrapChunk(
    _ payload: UnsafeRawBufferPointer, into event: inout [UInt8], options: JSONParserOptions, readsLayout: Bool
) -> ChunkOutcome {
    // Bedrock's own layout, {"bytes":"…"} or {"bytes":"…","p":"…"}, in one
    // pass; anything else (an escape, another member, bad base64) is read
    // again by the general scanner below, which also says what is wrong.
    // (Not with `CLAUDE_STREAMING_GENERAL_PATH`: the scanner reads every payload.)
    if readsLayout, let count = decodeBedrockLayout(payload, into: &event) { return .event(count: count) }
    var scanner = ChunkScanner(bytes: payload)
    switch scanner.findBytesMember() {
    case .found(let range):
        let text = UnsafeRawBufferPointer(rebasing: payload[range])
        let bad: Int
        switch decodeBase64(text, into: &event) {
        case .decoded(let count): return .event(count: count)
        case .invalid(let at): bad = at
        }
        // Only a JSON escape ("\/") can make valid base64 fail here: unescape and retry.
        guard text.contains(UInt8(ascii: "\\")) else { return .invalid("chunk bytes are not base64 (at character \(bad))") }
        var unescaped: [UInt8] = []
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "\\") {
                guard i + 1 < text.count, text[i + 1] == UInt8(ascii: "/") else { return .invalid("chunk bytes hold an escape other than \\/") }
                i += 1
            }
            unescaped.append(text[i])
            i += 1
        }
        return decodedOrInvalid(unescaped, into: &event)
    case .missing:
        return .invalid("chunk payload has no \"bytes\" member")
    case .malformed(let offset):
        return .invalid("chunk payload is not a JSON object (byte \(offset) of the payload)")
    case .escapedName:
        guard let value = try? JSONValue.parse(payload, options: options) else { return .invalid("chunk payload is not valid JSON") }
        guard let text = value["bytes"]?.stringValue else { return .invalid("chunk payload has no \"bytes\" string") }
        return decodedOrInvalid(Array(text.utf8), into: &event)
    }
}

private func decodedOrInvalid(_ text: [UInt8], into event: inout [UInt8]) -> ChunkOutcome {
    switch text.withUnsafeBytes({ decodeBase64($0, into: &event) }) {
    case .decoded(let count): return .event(count: count)
    case .invalid(let at): return .invalid("chunk bytes are not base64 (at character \(at))")
    }
}

/// The event's length when `payload` is exactly `{"bytes":"<base64>"}` or
/// `{"bytes":"<base64>","p":"<padding>"}` with no quote or backslash in the
/// padding, decoded into the start of `event`; else nil (the general
/// scanner then decides, and `event` holds nothing of value). One C call
/// (`_base64_decode_bedrock_payload`, BedrockPayload.c) reads all of it.
/// The decoding leaves at least 32 bytes of `event` past the result.
/// - Complexity: O(`payload.count`), one pass over the base64 and one over the padding.
@inline(__always)
func decodeBedrockLayout(_ payload: UnsafeRawBufferPointer, into event: inout [UInt8]) -> Int? {
    makeRoom(&event, toDecode: payload.count)
    var result = 0
    let status = event.withUnsafeMutableBufferPointer { buffer in
        _base64_decode_bedrock_payload(payload.baseAddress, payload.count, buffer.baseAddress, buffer.count, &result)
    }
    // The C code keeps the count inside `event`; checked, not trusted.
    guard Int(status) == Int(_base64_decode_ok), result <= event.count else { return nil }
    return result
}

struct ChunkScanner {
    let bytes: UnsafeRawBufferPointer
    var i = 0

    enum Result {
        /// The range of the `bytes` string's contents (without quotes).
        case found(Range<Int>)
        case missing
        case malformed(Int)
        case escapedName
    }

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func findBytesMember() -> Result {
        var found: Range<Int>? = nil
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return .malformed(i) }
        skipSpace()
        if take(UInt8(ascii: "}")) { return end(found) }
        while true {
            guard let name = string() else { return .malformed(i) }
            if bytes[name].contains(UInt8(ascii: "\\")) { return .escapedName }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return .malformed(i) }
            skipSpace()
            if isBytesName(UnsafeRawBufferPointer(rebasing: bytes[name])) {
                guard let value = string() else { return .malformed(i) }
                found = value
            } else {
                guard skipValue() else { return .malformed(i) }
            }
            skipSpace()
            if take(UInt8(ascii: ",")) {
                skipSpace()
                continue
            }
            guard take(UInt8(ascii: "}")) else { return .malformed(i) }
            return end(found)
        }
    }

    private mutating func end(_ found: Range<Int>?) -> Result {
        skipSpace()
        guard i == bytes.count else { return .malformed(i) }
        return found.map { .found($0) } ?? .missing
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    private mutating func skipSpace() {
        while i < bytes.count, ByteReader.isWhitespace(bytes[i]) { i += 1 }
    }

    /// A string at `i`: returns its contents' range and moves past the closing quote.
    private mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        // Fast path (base64, padding): the first quote, with no backslash before it.
        if let base = bytes.baseAddress, i < bytes.count,
            let quote = memchr(base + i, 0x22, bytes.count - i)
        {
            let end = UnsafeRawPointer(quote) - base
            if memchr(base + i, 0x5C, end - i) == nil {
                i = end + 1
                return start..<end
            }
        }
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                return start..<(i - 1)
            case UInt8(ascii: "\\"): i += 2
            default: i += 1
            }
        }
        return nil
    }

    /// Skips one value of any kind (not validated beyond its extent).
    private mutating func skipValue() -> Bool {
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        i += 1
                        return true
                    }
                default: break
                }
                i += 1
            }
            return false
        default:
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"),
                bytes[i] != 0x20, bytes[i] != 0x0A, bytes[i] != 0x0D, bytes[i] != 0x09
            { i += 1 }
            return i > start
        }
    }
}

private func isBytesName(_ name: UnsafeRawBufferPointer) -> Bool {
    name.count == 5 && name[0] == 0x62 && name[1] == 0x79 && name[2] == 0x74 && name[3] == 0x65 && name[4] == 0x73
}
