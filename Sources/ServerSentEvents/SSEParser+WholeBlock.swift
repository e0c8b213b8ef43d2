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
// whole, `usualBlock` finds its two line ends with `_scan_line_end`
// (inlined SSE2, each byte once; it stops at a CR too, so a CR inside the
// block is seen in the same pass), checks that both are LF and that the
// block is within the limits, and dispatches it straight from the chunk;
// the parser's state is untouched, as the line-by-line path would leave
// it. Anything else (comments, `id`, `retry`, several `data` lines, CR
// line ends, a block cut by the chunk's end, a line over the limits) is
// declined before dispatching anything, and the block goes line by line,
// which also reports any error. Since the state is untouched, `wholeBlocks`
// reads one such block after another without checking it again; with a
// block reader (`readingBlocks`) each boundary is offered to it first, so
// `wholeBlock` reads one at a time.
//
// Worked example: from `p`, `event: ping⏎data: {}⏎⏎…`: `event:` and its
// space, the scan finds the LF at p+11 (type `ping`); `data:` and its
// space at p+12, the scan finds the LF at p+20 (data `{}`); p+21 is LF: a
// blank line. The event goes out with stream offset chunkOffset+p+21 (the
// blank line's end), and reading goes on at p+22. Had the type been
// `ping⍽` (a CR before the LF), the scan would have stopped at the CR and
// the block gone line by line.

import _ScanAcceleration

extension SSEParser {
    /// Dispatches the usual blocks (file comment) from `p` on, one after
    /// another, and returns where the first other block starts (`p` when
    /// there is none). The caller has checked that the parser holds
    /// nothing and has no last event ID.
    func wholeBlocks(
        _ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int,
        _ onEvent: (borrowing SSEEventView) -> Void
    ) -> Int {
        guard let base = chunk.baseAddress else { return p }
        let n = chunk.count
        let maxLine = activeLimits.maxLineBytes
        let maxEvent = activeLimits.maxEventBytes
        var p = p
        while true {
            let next = usualBlock(base, n, from: p, chunkOffset: chunkOffset, maxLine: maxLine, maxEvent: maxEvent, onEvent)
            if next == p { return p }
            p = next
        }
    }

    /// Dispatches the block at `p` if it is the usual one (file comment) and
    /// returns where the next block starts; nil (nothing done) otherwise.
    /// The caller has checked that the parser holds nothing.
    @inline(__always)
    func wholeBlock(
        _ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int,
        _ onEvent: (borrowing SSEEventView) -> Void
    ) -> Int? {
        guard let base = chunk.baseAddress, lastEventIDBytes.isEmpty else { return nil }
        let next = usualBlock(
            base, chunk.count, from: p, chunkOffset: chunkOffset,
            maxLine: activeLimits.maxLineBytes, maxEvent: activeLimits.maxEventBytes, onEvent)
        return next == p ? nil : next
    }
}

/// The usual block at `p` in base[0..<n]: dispatched, and where the next
/// block starts is returned; `p` (nothing done) when it is not one.
@inline(__always)
private func usualBlock(
    _ base: UnsafeRawPointer, _ n: Int, from p: Int, chunkOffset: Int, maxLine: Int, maxEvent: Int,
    _ onEvent: (borrowing SSEEventView) -> Void
) -> Int {
    guard n &- p >= 8 else { return p }
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    var q = p
    var type = q..<q
    if base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == eventHead,
        base.loadUnaligned(fromByteOffset: q &+ 4, as: UInt16.self) == eventTail
    {
        var value = q &+ 6
        if value < n && base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
        let lineEnd = _scan_line_end(bytes, value, n)
        guard lineEnd < n, base.load(fromByteOffset: lineEnd, as: UInt8.self) == _LF, lineEnd &- q <= maxLine else { return p }
        type = value..<lineEnd
        q = lineEnd &+ 1
    }
    guard n &- q >= 6, base.loadUnaligned(fromByteOffset: q, as: UInt32.self) == dataHead,
        base.load(fromByteOffset: q &+ 4, as: UInt8.self) == UInt8(ascii: ":")
    else { return p }
    var value = q &+ 5
    if base.load(fromByteOffset: value, as: UInt8.self) == 0x20 { value &+= 1 }
    let lineEnd = _scan_line_end(bytes, value, n)
    // The blank line's LF must be in the chunk too, and no CR before it.
    guard n &- lineEnd >= 2, base.load(fromByteOffset: lineEnd, as: UInt8.self) == _LF,
        base.load(fromByteOffset: lineEnd &+ 1, as: UInt8.self) == _LF, lineEnd &- q <= maxLine, lineEnd &- value <= maxEvent
    else { return p }
    onEvent(
        SSEEventView(
            data: UnsafeRawBufferPointer(start: base + value, count: lineEnd &- value),
            eventType: type.isEmpty ? nil : UnsafeRawBufferPointer(start: base + type.lowerBound, count: type.count),
            lastEventID: UnsafeRawBufferPointer(start: nil, count: 0), retry: nil,
            streamOffset: chunkOffset &+ lineEnd &+ 1))
    return lineEnd &+ 2
}

// `even`, `t:`, `data` as words in memory order. Computed, not stored: a
// stored global is initialised lazily, a check on every read.
@inline(__always) private var eventHead: UInt32 { UInt32(littleEndian: 0x6E65_7665) }
@inline(__always) private var eventTail: UInt16 { UInt16(littleEndian: 0x3A74) }
@inline(__always) private var dataHead: UInt32 { UInt32(littleEndian: 0x6174_6164) }
