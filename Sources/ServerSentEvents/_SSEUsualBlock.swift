// _SSEUsualBlock: the grammar of the usual block, written once for every
// reader that takes it in one step.
//
// Nearly every block of a Messages API stream is
//
//   event: TYPE⏎
//   data: DATA⏎
//   ⏎
//
// with LF line ends (the `event` line may be missing). Two readers take
// such a block whole, straight from the chunk: the parser itself
// (SSEParser+WholeBlock.swift, any TYPE and DATA, found with the inlined
// line-end scan), and the message accumulator, which reads DATA as the
// usual delta's JSON while it matches the block (HotBlocks.swift). Both
// must accept only blocks that the line-by-line path would dispatch as one
// event with no other effect, and report the same offsets; so the form,
// its line ends and the limits are checked here, and each caller supplies
// only how a field's value is read. A value reader returns the index of
// the byte just past the value (it must be the line's end: the block is
// declined unless that byte is LF) and vouches that no CR or LF lies
// inside the value; `_scan_line_end` stops at either, and the JSON string
// scan stops at every control byte.
//
// Worked example: from p, `event: ping⏎data: {}⏎⏎…`. `event:` and its
// optional space give the type's first byte, p+7; the event value reader
// returns p+11, an LF: the event line is p..<p+11, within maxLineBytes.
// `data:` and its space give p+18; the data value reader returns p+20, an
// LF, and p+21 is LF too: a blank line. The block is type p+7..<p+11, data
// p+18..<p+20, and it ends at p+22, where the next block starts. Its
// stream offset is that of its blank line's LF (p+21), as the line-by-line
// path gives it.

/// One usual block (file comment), as offsets into the chunk it was read
/// from.
///
/// `@usableFromInline` with `@inlinable` members: the readers are closures
/// that must inline into the caller's loop, in this module and in
/// ClaudeStreaming.
@usableFromInline
package struct _SSEUsualBlock {
    /// The `event` field's value; empty when there is no `event` line (or
    /// its value is empty: both dispatch with no type).
    @usableFromInline package var eventType: Range<Int>
    /// The `data` field's value.
    @usableFromInline package var data: Range<Int>
    /// Just past the blank line: where the next block starts.
    @usableFromInline package var end: Int

    @usableFromInline
    init(eventType: Range<Int>, data: Range<Int>, end: Int) {
        self.eventType = eventType
        self.data = data
        self.end = end
    }

    /// The offset of the blank line's LF, which the event's stream offset
    /// counts from.
    @inlinable @inline(__always) package var blankLine: Int { end &- 1 }

    /// Reads the block at `chunk[start...]` if it is the usual one, within
    /// `limits`; nil (nothing read) otherwise.
    ///
    /// - Parameters:
    ///   - eventValue: from the `event` value's first byte, the index just
    ///     past the value, or nil to decline the block.
    ///   - dataValue: from the `data` value's first byte, the index just
    ///     past the value, or nil to decline.
    /// - Complexity: O(size of the block), plus what the readers take.
    @inlinable @inline(__always)
    package static func read(
        _ chunk: UnsafeRawBufferPointer, from start: Int, limits: SSELimits,
        eventValue: (Int) -> Int?, dataValue: (Int) -> Int?
    ) -> _SSEUsualBlock? {
        guard let base = chunk.baseAddress else { return nil }
        let n = chunk.count
        guard n &- start >= 8 else { return nil }
        var q = start
        var type = q..<q
        if base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == Self.eventHead,
            base.loadUnaligned(fromByteOffset: q &+ 4, as: UInt16.self) == Self.eventTail
        {
            var value = q &+ 6
            if value < n && base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
            guard let lineEnd = eventValue(value), lineEnd < n, base.load(fromByteOffset: lineEnd, as: UInt8.self) == _LF,
                lineEnd &- q <= limits.maxLineBytes
            else { return nil }
            type = value..<lineEnd
            q = lineEnd &+ 1
        }
        guard n &- q >= 6, base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == Self.dataHead,
            base.load(fromByteOffset: q &+ 4, as: UInt8.self) == UInt8(ascii: ":")
        else { return nil }
        var value = q &+ 5
        if base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
        guard let end = dataValue(value), endsBlock(base, n, dataLine: q, data: value, dataEnd: end, limits: limits) else { return nil }
        return _SSEUsualBlock(eventType: type, data: value..<end, end: end &+ 2)
    }

    /// ``read(_:from:limits:eventValue:dataValue:)`` for the form exactly
    /// as the Messages API writes it, `event: TYPE⏎data: DATA⏎⏎` (one
    /// space after each colon) or `data: DATA⏎⏎`, where the caller knows
    /// the one TYPE it takes: each head is a word compare, no scan. A block
    /// in any other form is declined, and the parser reads it. Returns
    /// where the block ends (just past its blank line), or nil; what the
    /// reader made of the data is the reader's to keep.
    ///
    /// - Parameter dataValue: from the `data` value's first byte, the index
    ///   just past the value, or nil to decline.
    /// - Complexity: O(size of the block), plus what `dataValue` takes.
    @inlinable @inline(__always)
    package static func readExact(
        _ chunk: UnsafeRawBufferPointer, from start: Int, eventType: StaticString, limits: SSELimits,
        dataValue: (Int) -> Int?
    ) -> Int? {
        guard let base = chunk.baseAddress else { return nil }
        let n = chunk.count
        let typeBytes = eventType.utf8CodeUnitCount
        guard n &- start >= 8, typeBytes > 0 else { return nil }
        var q = start
        // `event: ` and the type's first byte are one word; the type's last
        // byte and `⏎data: ` another; the type's bytes between are compared
        // a word at a time. (The type is a literal: the compiler folds its
        // bytes into the compares.)
        let type = UnsafeRawPointer(eventType.utf8Start)
        let head = eventSpace | UInt64(type.load(as: UInt8.self)) << 56
        if word(base, q) == head {
            let lineEnd = q &+ 7 &+ typeBytes
            let tail = UInt64(type.load(fromByteOffset: typeBytes &- 1, as: UInt8.self)) | newlineDataSpace << 8
            guard n &- lineEnd >= 8, word(base, lineEnd &- 1) == tail,
                bytesEqual(base + (q &+ 8), type + 1, typeBytes &- 1), lineEnd &- q <= limits.maxLineBytes
            else { return nil }
            q = lineEnd &+ 1
        } else if word(base, q) & sixBytes != dataSpace {
            return nil
        }
        let value = q &+ 6
        guard let end = dataValue(value), endsBlock(base, n, dataLine: q, data: value, dataEnd: end, limits: limits) else { return nil }
        return end &+ 2
    }

    /// Whether the data value ending at `dataEnd` ends its line and the
    /// block (LF, then the blank line's LF, both in the chunk), within the
    /// limits.
    @inlinable @inline(__always)
    static func endsBlock(_ base: UnsafeRawPointer, _ n: Int, dataLine: Int, data: Int, dataEnd: Int, limits: SSELimits) -> Bool {
        n &- dataEnd >= 2 && base.loadUnaligned(fromByteOffset: dataEnd, as: UInt16.self) == Self.blankLineEnd
            && dataEnd &- dataLine <= limits.maxLineBytes && dataEnd &- data <= limits.maxEventBytes
    }

    // `even`, `t:`, `data` as words in memory order. Computed, not stored:
    // a stored global is initialised lazily, a check on every read.
    @inlinable @inline(__always) static var eventHead: UInt32 { UInt32(littleEndian: 0x6E65_7665) }
    @inlinable @inline(__always) static var eventTail: UInt16 { UInt16(littleEndian: 0x3A74) }
    @inlinable @inline(__always) static var dataHead: UInt32 { UInt32(littleEndian: 0x6174_6164) }
    // `event: ` and `⏎data: ` as the low seven bytes of the word
    // `word(_:_:)` reads (first byte lowest), `data: ` as the low six; the
    // blank line's `⏎⏎` as a half word.
    @inlinable @inline(__always) static var sixBytes: UInt64 { 0x0000_FFFF_FFFF_FFFF }
    @inlinable @inline(__always) static var eventSpace: UInt64 { 0x0020_3A74_6E65_7665 }
    @inlinable @inline(__always) static var newlineDataSpace: UInt64 { 0x0020_3A61_7461_640A }
    @inlinable @inline(__always) static var dataSpace: UInt64 { 0x0000_203A_6174_6164 }
    @inlinable @inline(__always) static var blankLineEnd: UInt16 { 0x0A0A }

    /// The eight bytes at `base + offset` as a word whose lowest byte is
    /// the first, on any byte order.
    @inlinable @inline(__always)
    static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
