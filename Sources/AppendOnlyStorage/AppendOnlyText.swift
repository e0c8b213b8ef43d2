// AppendOnlyText: UTF-8 text that grows while snapshots of it stay cheap.
//
// Streamed text (a block's text, a JSON string value as it arrives) is kept as
// UTF-8 bytes in an ``AppendOnlyArray``: a snapshot is O(1) and holding every
// snapshot of a stream holds one copy of the text, not one per snapshot.
// Decoding to `String` happens only when a caller asks for it; a chunk may end
// inside a multi-byte character, so `string` decodes a trailing partial
// character as nothing (it appears once its last byte has arrived) rather
// than as U+FFFD.
//
// Representation: text of up to 15 bytes (most keys' values, enum cases,
// short names) lives inline in two words (the bytes, then the count in the
// last byte), so it costs no allocation at all; a copy of it is a copy of
// the bytes, which is as cheap as sharing. The first append past 15 bytes
// moves the text into shared storage, where it stays.
//
// A string parsed from a JSON document is a third form, a slice of the
// document's byte storage (see Node.swift): the parser writes each string's
// bytes once, and every value read from the document shares them. Appending
// to a slice first copies it into storage of its own.
//
// The reads and the inline/slice constructors are `@inlinable`: the JSON
// parser's values build and read these in their hot paths, from another
// module. Invariants (`_checkInvariants()`, debug builds): inline text holds
// at most 15 bytes, a slice lies within the bytes its storage has claimed,
// and shared text satisfies ``AppendOnlyArray``'s own.

/// UTF-8 text that only grows, whose copies share storage.
///
/// - Complexity: Copying O(1); `append` amortised O(bytes); `string` O(count).
public struct AppendOnlyText: Sendable {
    @usableFromInline package var _storage: _TextStorage

    /// The UTF-8 bytes of the text.
    ///
    /// - Complexity: O(1) for shared text; inline text (up to 15 bytes) and
    ///   text parsed from a document are copied into a new array. ``withUTF8(_:)`` never copies.
    @inlinable
    public var utf8: AppendOnlyArray<UInt8> {
        switch _storage {
        case .shared(let bytes): bytes
        case .inline, .slice: withUTF8 { AppendOnlyArray($0) }
        }
    }

    /// Empty text.
    @inlinable public init() { _storage = .inline(0, 0) }

    @inlinable init(_storage: _TextStorage) { self._storage = _storage }

    /// Text whose bytes are `utf8`, sharing its storage (a writer that keeps
    /// growing text as bytes, like a snapshot's live block, hands it out so).
    @inlinable
    package init(_sharing utf8: AppendOnlyArray<UInt8>) {
        self.init(_storage: .shared(utf8))
    }

    /// Bytes `start..<start+count` of a document's byte storage, shared when
    /// longer than the inline form (copied when too far in to pack).
    @inlinable @inline(__always)
    package init(_slice storage: _AppendOnlyStorage<UInt8>?, start: Int, count: Int) {
        guard let storage, count > 0 else {
            self.init()
            return
        }
        if count > _TextStorage.inlineCapacity, start <= Int(UInt32.max), count <= Int(UInt32.max) {
            self.init(_storage: .slice(storage, UInt64(start) << 32 | UInt64(count)))
            _checkInvariants()
        } else {
            self.init()
            append(utf8: UnsafeBufferPointer(start: storage.base + start, count: count))
        }
    }

    /// Text holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.init()
        append(string)
    }

    /// The shared buffer behind this text (nil for inline text), so tests
    /// can check that snapshots share rather than copy.
    package var storageIdentity: ObjectIdentifier? {
        switch _storage {
        case .shared(let bytes): bytes._storage.map(ObjectIdentifier.init)
        case .slice(let storage, _): ObjectIdentifier(storage)
        case .inline: nil
        }
    }

    /// Number of UTF-8 bytes.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var utf8Count: Int {
        switch _storage {
        case .shared(let bytes): bytes.count
        case .inline(let low, let high): _TextStorage.inlineCount(low, high)
        case .slice(_, let packed): _TextStorage.sliceCount(packed)
        }
    }

    /// True when the text has no bytes.
    @inlinable public var isEmpty: Bool { utf8Count == 0 }

    /// Calls `body` with the UTF-8 bytes, without copying.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable
    public func withUTF8<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        switch _storage {
        case .shared(let bytes):
            return try bytes.withUnsafeBufferPointer(body)
        case .slice(let storage, let packed):
            return try body(UnsafeBufferPointer(start: storage.base + _TextStorage.sliceStart(packed), count: _TextStorage.sliceCount(packed)))
        case .inline(let low, let high):
            return try _withInlineBytes(of: (low, high), count: _TextStorage.inlineCount(low, high), body)
        }
    }

    /// Appends UTF-8 bytes (which may end inside a character).
    ///
    /// - Complexity: Amortised O(`bytes.count`); the first append past the
    ///   inline form or to a slice copies the text once.
    @inlinable
    public mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        switch _storage {
        case .shared(var shared):
            // Drop this value's reference first so the array is not copied.
            _storage = .inline(0, 0)
            shared.append(contentsOf: bytes)
            _storage = .shared(shared)
            _checkInvariants()
            return
        case .slice:
            break
        case .inline(let low, let high):
            let count = _TextStorage.inlineCount(low, high)
            let total = count + bytes.count
            var words = (low, high)
            if total <= _TextStorage.inlineCapacity {
                withUnsafeMutableBytes(of: &words) { raw in
                    guard let base = raw.baseAddress else { return }
                    (base + count).copyMemory(from: source, byteCount: bytes.count)
                    raw[_TextStorage.inlineCapacity] = UInt8(total)
                }
                _storage = .inline(words.0, words.1)
                _checkInvariants()
                return
            }
        }
        _moveToOwnStorage(appending: bytes)
    }

    /// Inline text that outgrew its two words, or a slice of a document:
    /// moves into storage of its own, with room for `bytes`, and appends them.
    @usableFromInline
    mutating func _moveToOwnStorage(appending bytes: UnsafeBufferPointer<UInt8>) {
        var own = AppendOnlyArray<UInt8>()
        withUTF8 {
            own.reserveCapacity($0.count + bytes.count)
            own.append(contentsOf: $0)
        }
        own.append(contentsOf: bytes)
        _storage = .shared(own)
        _checkInvariants()
    }

    /// Appends UTF-8 bytes (which may end inside a character).
    ///
    /// - Complexity: Amortised O(`bytes.count`).
    public mutating func append(utf8 bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { append(utf8: $0) }
        if done != nil { return }
        let copy = Array(bytes)
        copy.withUnsafeBufferPointer { append(utf8: $0) }
    }

    /// Appends a string.
    ///
    /// - Complexity: Amortised O(`string.utf8.count`).
    public mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(utf8: $0) }
    }

    /// The text, decoded. A character cut off at the end (its last bytes not
    /// yet arrived) is left out; any other invalid sequence becomes U+FFFD.
    ///
    /// - Complexity: O(`utf8Count`).
    public var string: String {
        withUTF8 { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<completeCharacterPrefix(bytes)]), as: UTF8.self)
        }
    }

    /// True when the text ends in the middle of a UTF-8 sequence.
    ///
    /// - Complexity: O(1).
    public var endsInsideCharacter: Bool {
        withUTF8 { completeCharacterPrefix($0) != $0.count }
    }
}

/// Inline bytes (up to 15, then the count in memory byte 15) or shared storage.
@usableFromInline
package enum _TextStorage: Sendable {
    case inline(UInt64, UInt64)
    case shared(AppendOnlyArray<UInt8>)
    /// Bytes `start..<start+count` of a parsed document's byte storage, with
    /// start and count packed as two 32-bit halves.
    case slice(_AppendOnlyStorage<UInt8>, UInt64)

    @inlinable @inline(__always) static func sliceStart(_ packed: UInt64) -> Int { Int(truncatingIfNeeded: packed >> 32) }
    @inlinable @inline(__always) static func sliceCount(_ packed: UInt64) -> Int { Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) }

    /// Bytes the inline form holds (the 16th byte is the count).
    @inlinable static var inlineCapacity: Int { 15 }

    @inlinable @inline(__always)
    static func inlineCount(_ low: UInt64, _ high: UInt64) -> Int {
        var words = (low, high)
        return withUnsafeBytes(of: &words) { Int($0[inlineCapacity]) }
    }
}

extension AppendOnlyText: Hashable {
    public static func == (lhs: AppendOnlyText, rhs: AppendOnlyText) -> Bool {
        if case .shared(let a) = lhs._storage, case .shared(let b) = rhs._storage { return a == b }
        return lhs.withUTF8 { a in rhs.withUTF8 { b in a.elementsEqual(b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}
extension AppendOnlyText {
    #if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
    /// Traps when the text breaks an invariant of the file comment.
    /// Compiled in only with APPEND_ONLY_STORAGE_INTERNAL_CHECKS.
    ///
    /// - Complexity: O(1).
    @inline(never) @usableFromInline
    package func _checkInvariants() {
        switch _storage {
        case .inline(let low, let high):
            precondition(_TextStorage.inlineCount(low, high) <= _TextStorage.inlineCapacity, "inline text over 15 bytes")
        case .shared(let bytes):
            bytes._checkInvariants()
        case .slice(let storage, let packed):
            let end = _TextStorage.sliceStart(packed) + _TextStorage.sliceCount(packed)
            precondition(end <= storage.claimed.load(ordering: .acquiring), "a slice past its storage's claimed bytes")
        }
    }
    #else
    /// Does nothing: invariant checks are compiled out of this build.
    @inlinable @inline(__always)
    package func _checkInvariants() {}
    #endif
}

/// Length of `bytes` without a trailing, possibly-unfinished UTF-8 sequence.
package func completeCharacterPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let n = bytes.count
    // Walk back over at most 3 continuation bytes to the lead byte.
    var i = n
    var continuations = 0
    while i > 0 && continuations < 3 {
        let b = bytes[i - 1]
        if b & 0xC0 == 0x80 {
            continuations += 1
            i -= 1
            continue
        }
        let need: Int
        if b < 0x80 {
            return n
        } else if b & 0xE0 == 0xC0 {
            need = 1
        } else if b & 0xF0 == 0xE0 {
            need = 2
        } else if b & 0xF8 == 0xF0 {
            need = 3
        } else {
            return n
        }  // invalid lead byte: leave it to the decoder
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
