// The usual block, read in one step.
//
// Nearly every block of a Messages API stream is
//
//   event: content_block_delta⏎
//   data: {"type":"content_block_delta","index":0,…}⏎
//   ⏎
//
// with LF line ends, and a 16 KiB chunk holds dozens of them whole. The
// line-by-line path pays for generality on each line: the field switch, a
// field buffer per value, the block's start offset, the limits. When the
// parser holds nothing (no partial line, no field of an unfinished block,
// no last event ID, no pending retry) and the chunk holds such a block
// whole, `wholeBlock` finds its two line ends (memchr, each byte once),
// checks that no CR lies inside it and that it is within the limits, and
// dispatches it straight from the chunk; the parser's state is untouched,
// as the line-by-line path would leave it. Anything else (comments, `id`,
// `retry`, several `data` lines, CR line ends, a block cut by the chunk's
// end, a line over the limits) returns nil before dispatching anything,
// and the block goes line by line, which also reports any error.
//
// Worked example: from `p`, `event: ping⏎data: {}⏎⏎…`: `event:` and its
// space, memchr finds the LF at p+11 (type `ping`); `data:` and its space
// at p+12, memchr finds the LF at p+20 (data `{}`); p+21 is LF: a blank
// line. With no CR before p+22, the event goes out with stream offset
// chunkOffset+p+21 (the blank line's end), and reading goes on at p+22.

extension SSEParser {
    /// Dispatches the block at `p` if it is the usual one (file comment) and
    /// returns where the next block starts; nil (nothing done) otherwise.
    /// `nextCR` is the caller's cached index of the next CR at or after its
    /// position (or less than `p`: not searched yet).
    @inline(__always)
    mutating func wholeBlock(
        _ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int, nextCR: inout Int,
        _ onEvent: (borrowing SSEEventView) -> Void
    ) -> Int? {
        let n = chunk.count
        // (The caller checked that no block is begun and no line is partial,
        // so no field or retry is pending either.)
        guard let base = chunk.baseAddress, n &- p >= 8, lastEventIDBytes.isEmpty else { return nil }
        var q = p
        var type = q..<q
        if base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == eventHead,
            base.loadUnaligned(fromByteOffset: q &+ 4, as: UInt16.self) == eventTail
        {
            var value = q &+ 6
            if value < n && base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
            let lineEnd = findByte(chunk, _LF, from: value)
            guard lineEnd < n, lineEnd &- q <= activeLimits.maxLineBytes else { return nil }
            type = value..<lineEnd
            q = lineEnd &+ 1
        }
        guard n &- q >= 6, base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == dataHead,
            base.load(fromByteOffset: q &+ 4, as: UInt8.self) == UInt8(ascii: ":")
        else { return nil }
        var value = q &+ 5
        if base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
        let lineEnd = findByte(chunk, _LF, from: value)
        // The blank line's LF must be in the chunk too.
        guard n &- lineEnd >= 2, base.load(fromByteOffset: lineEnd &+ 1, as: UInt8.self) == _LF,
            lineEnd &- q <= activeLimits.maxLineBytes, lineEnd &- value <= activeLimits.maxEventBytes
        else { return nil }
        if nextCR < p { nextCR = findByte(chunk, _CR, from: p) }
        guard nextCR > lineEnd &+ 1 else { return nil }
        onEvent(
            SSEEventView(
                data: UnsafeRawBufferPointer(rebasing: chunk[value..<lineEnd]),
                eventType: type.isEmpty ? nil : UnsafeRawBufferPointer(rebasing: chunk[type]),
                lastEventID: UnsafeRawBufferPointer(start: nil, count: 0), retry: nil,
                streamOffset: chunkOffset &+ lineEnd &+ 1))
        return lineEnd &+ 2
    }
}

// `even`, `t:`, `data` as words in memory order. Computed, not stored: a
// stored global is initialised lazily, a check on every read.
@inline(__always) private var eventHead: UInt32 { UInt32(littleEndian: 0x6E65_7665) }
@inline(__always) private var eventTail: UInt16 { UInt16(littleEndian: 0x3A74) }
@inline(__always) private var dataHead: UInt32 { UInt32(littleEndian: 0x6174_6164) }
