// AppendOnlyText: UTF-8 text that grows while snapshots of it stay cheap.
//
// Streamed text (a block's text, a JSON string value as it arrives) is kept as
// UTF-8 bytes in an ``AppendOnlyArray``: a snapshot is O(1) and holding every
// snapshot of a stream holds one copy of the text, not one per snapshot.
// Decoding to `String` happens only when a caller asks for it; a chunk may end
// inside a multi-byte character, so `string` decodes a trailing partial
// character as nothing (it appears once its last byte has arrived) rather
// than as U+FFFD.

/// UTF-8 text that only grows, whose copies share storage.
///
/// - Complexity: Copying O(1); `append` amortised O(bytes); `string` O(count).
public struct AppendOnlyText: Sendable, Hashable {
    /// The UTF-8 bytes of the text.
    public private(set) var utf8: AppendOnlyArray<UInt8>

    /// Empty text.
    public init() { utf8 = AppendOnlyArray() }

    /// Text holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        utf8 = AppendOnlyArray()
        append(string)
    }

    /// Number of UTF-8 bytes.
    public var utf8Count: Int { utf8.count }
    public var isEmpty: Bool { utf8.count == 0 }

    /// Appends UTF-8 bytes (which may end inside a character).
    public mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        utf8.append(contentsOf: bytes)
    }

    /// Appends UTF-8 bytes (which may end inside a character).
    public mutating func append(utf8 bytes: some Sequence<UInt8>) {
        utf8.append(contentsOf: bytes)
    }

    /// Appends a string.
    public mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { utf8.append(contentsOf: $0) }
    }

    /// The text, decoded. A character cut off at the end (its last bytes not
    /// yet arrived) is left out; any other invalid sequence becomes U+FFFD.
    public var string: String {
        utf8.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<_completeCharacterPrefix(bytes)]), as: UTF8.self)
        }
    }

    /// True when the text ends in the middle of a UTF-8 sequence.
    public var endsInsideCharacter: Bool {
        utf8.withUnsafeBufferPointer { _completeCharacterPrefix($0) != $0.count }
    }
}

/// Length of `bytes` without a trailing, possibly-unfinished UTF-8 sequence.
func _completeCharacterPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let n = bytes.count
    // Walk back over at most 3 continuation bytes to the lead byte.
    var i = n
    var continuations = 0
    while i > 0 && continuations < 3 {
        let b = bytes[i - 1]
        if b & 0xC0 == 0x80 { continuations += 1; i -= 1; continue }
        let need: Int
        if b < 0x80 { return n }
        else if b & 0xE0 == 0xC0 { need = 1 }
        else if b & 0xF0 == 0xE0 { need = 2 }
        else if b & 0xF8 == 0xF0 { need = 3 }
        else { return n }  // invalid lead byte: leave it to the decoder
        return continuations < need ? i - 1 : n
    }
    return n
}

extension AppendOnlyText: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { string }
    public var debugDescription: String { string.debugDescription }
}

extension AppendOnlyText: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}

extension AppendOnlyText: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
