// The payload of a Bedrock `chunk` message: a JSON object whose `bytes`
// member is the base64 of one Messages API event, beside a random-length
// `p` padding member (absent in older captures) and possibly others.
//
// The scanner walks the object's members once: a member name is compared
// as raw bytes, a value other than `bytes` is skipped (strings by their
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

/// Decodes the `bytes` member of `payload` into `event`. Returns nil on
/// success, else what is wrong with the payload.
func _unwrapChunk(_ payload: UnsafeRawBufferPointer, into event: inout [UInt8], options: JSONParserOptions) -> String? {
    var scanner = _ChunkScanner(bytes: payload)
    switch scanner.findBytesMember() {
    case .found(let range):
        let text = UnsafeRawBufferPointer(rebasing: payload[range])
        guard let bad = _decodeBase64(text, into: &event) else { return nil }
        // Only a JSON escape ("\/") can make valid base64 fail here: unescape and retry.
        guard text.contains(UInt8(ascii: "\\")) else { return "chunk bytes are not base64 (at character \(bad))" }
        var unescaped: [UInt8] = []
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "\\") {
                guard i + 1 < text.count, text[i + 1] == UInt8(ascii: "/") else { return "chunk bytes hold an escape other than \\/" }
                i += 1
            }
            unescaped.append(text[i])
            i += 1
        }
        return unescaped.withUnsafeBytes { _decodeBase64($0, into: &event) }.map { "chunk bytes are not base64 (at character \($0))" }
    case .missing:
        return "chunk payload has no \"bytes\" member"
    case .malformed(let offset):
        return "chunk payload is not a JSON object (byte \(offset) of the payload)"
    case .escapedName:
        guard let value = try? JSONValue.parse(payload, options: options) else { return "chunk payload is not valid JSON" }
        guard let text = value["bytes"]?.stringValue else { return "chunk payload has no \"bytes\" string" }
        return Array(text.utf8).withUnsafeBytes { _decodeBase64($0, into: &event) }
            .map { "chunk bytes are not base64 (at character \($0))" }
    }
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
