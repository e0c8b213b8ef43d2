// The payload of a Bedrock `chunk` message: a JSON object whose `bytes`
// member is the base64 of one Messages API event, beside a random-length
// `p` padding member (absent in older captures) and possibly others.
//
// Bedrock's own layout is recognised first, by memchr alone. Any other
// payload goes to a scanner that walks the object's members once: a member
// name is compared as raw bytes, a value other than `bytes` is skipped (strings by their
// closing quote, nested values by depth), and the `bytes` string is
// base64-decoded straight into the event buffer. JSON lets a writer escape
// '/' as "\/" inside the base64 text; that (rare) form is unescaped into a
// scratch copy first. A member name with escapes sends the whole payload to
// the general JSON parser instead.

import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What `_unwrapChunk` made of a payload.
enum _ChunkOutcome: Equatable {
    /// The event is the first `count` bytes of the buffer.
    case event(count: Int)
    /// What is wrong with the payload.
    case invalid(String)
}

/// Decodes the `bytes` member of `payload` into the start of `event`.
/// - Complexity: O(`payload.count`).
func _unwrapChunk(_ payload: UnsafeRawBufferPointer, into event: inout [UInt8], options: JSONParserOptions) -> _ChunkOutcome {
    // Bedrock's own layout, {"bytes":"…"} or {"bytes":"…","p":"…"}, is
    // recognised by memchr alone; a text that then fails to decode
    // (an escape, say) is read again by the general scanner below.
    if let range = _bedrockLayoutBytesMember(payload),
       case .decoded(let count) = _decodeBase64(UnsafeRawBufferPointer(rebasing: payload[range]), into: &event) {
        return .event(count: count)
    }
    var scanner = _ChunkScanner(bytes: payload)
    switch scanner.findBytesMember() {
    case .found(let range):
        let text = UnsafeRawBufferPointer(rebasing: payload[range])
        let bad: Int
        switch _decodeBase64(text, into: &event) {
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
        return _decodedOrInvalid(unescaped, into: &event)
    case .missing:
        return .invalid("chunk payload has no \"bytes\" member")
    case .malformed(let offset):
        return .invalid("chunk payload is not a JSON object (byte \(offset) of the payload)")
    case .escapedName:
        guard let value = try? JSONValue.parse(payload, options: options) else { return .invalid("chunk payload is not valid JSON") }
        guard let text = value["bytes"]?.stringValue else { return .invalid("chunk payload has no \"bytes\" string") }
        return _decodedOrInvalid(Array(text.utf8), into: &event)
    }
}

private func _decodedOrInvalid(_ text: [UInt8], into event: inout [UInt8]) -> _ChunkOutcome {
    switch text.withUnsafeBytes({ _decodeBase64($0, into: &event) }) {
    case .decoded(let count): return .event(count: count)
    case .invalid(let at): return .invalid("chunk bytes are not base64 (at character \(at))")
    }
}

/// The range of the `bytes` string when `payload` is exactly
/// `{"bytes":"…"}` or `{"bytes":"…","p":"…"}` with no backslash in the
/// padding, else nil (the general scanner then decides).
/// - Complexity: O(`payload.count`), in memchr passes.
func _bedrockLayoutBytesMember(_ payload: UnsafeRawBufferPointer) -> Range<Int>? {
    let opening: StaticString = #"{"bytes":""#
    let padding: StaticString = #","p":""#
    let count = payload.count
    guard let base = payload.baseAddress, count >= opening.utf8CodeUnitCount + 2,
          memcmp(base, opening.utf8Start, opening.utf8CodeUnitCount) == 0 else { return nil }
    let start = opening.utf8CodeUnitCount
    guard let quote = memchr(base + start, 0x22, count - start) else { return nil }
    let end = UnsafeRawPointer(quote) - base
    let rest = end + 1
    if rest == count - 1 { return payload[rest] == UInt8(ascii: "}") ? start..<end : nil }
    let paddingStart = rest + padding.utf8CodeUnitCount
    guard paddingStart + 2 <= count, memcmp(base + rest, padding.utf8Start, padding.utf8CodeUnitCount) == 0,
          payload[count - 1] == UInt8(ascii: "}"), payload[count - 2] == 0x22 else { return nil }
    // The padding's closing quote must be the one before the brace, with no escape in between.
    let paddingLength = count - 2 - paddingStart
    guard memchr(base + paddingStart, 0x22, paddingLength) == nil,
          memchr(base + paddingStart, 0x5C, paddingLength) == nil else { return nil }
    return start..<end
}

struct _ChunkScanner {
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
            if _isBytesName(UnsafeRawBufferPointer(rebasing: bytes[name])) {
                guard let value = string() else { return .malformed(i) }
                found = value
            } else {
                guard skipValue() else { return .malformed(i) }
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { skipSpace(); continue }
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
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    /// A string at `i`: returns its contents' range and moves past the closing quote.
    private mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        // Fast path (base64, padding): the first quote, with no backslash before it.
        if let base = bytes.baseAddress, i < bytes.count,
           let quote = memchr(base + i, 0x22, bytes.count - i) {
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
                    if depth == 0 { i += 1; return true }
                default: break
                }
                i += 1
            }
            return false
        default:
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"),
                  bytes[i] != 0x20, bytes[i] != 0x0A, bytes[i] != 0x0D, bytes[i] != 0x09 { i += 1 }
            return i > start
        }
    }
}

private func _isBytesName(_ name: UnsafeRawBufferPointer) -> Bool {
    name.count == 5 && name[0] == 0x62 && name[1] == 0x79 && name[2] == 0x74 && name[3] == 0x65 && name[4] == 0x73
}
