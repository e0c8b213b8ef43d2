// The usual block, read in one step.
//
// Nearly every block of a Messages API stream is `event: …⏎data: …⏎⏎`
// with LF line ends (_SSEUsualBlock.swift gives the form), and a 16 KiB
// chunk holds dozens of them whole. The line-by-line path pays for
// generality on each line: the field switch, a field buffer per value, the
// block's start offset, the limits. When the parser holds nothing (no
// partial line, no field of an unfinished block, no last event ID, no
// pending retry) and the chunk holds such a block whole, `usualBlock` reads
// each value to its line's end with `_scan_line_end` (inlined SSE2, each
// byte once; it stops at a CR too, so a CR inside the block is seen in the
// same pass) and dispatches the block straight from the chunk; the
// parser's state is untouched, as the line-by-line path would leave it.
// Anything else (comments, `id`, `retry`, several `data` lines, CR line
// ends, a block cut by the chunk's end, a line over the limits) is
// declined before dispatching anything, and the block goes line by line,
// which also reports any error. Since the state is untouched, `wholeBlocks`
// reads one such block after another without checking it again; with a
// block reader (`readingBlocks`) each boundary is offered to it first, so
// `wholeBlock` reads one at a time. Had the type in `event: ping⍽⏎` ended
// in a CR, the scan would have stopped at the CR and the block gone line
// by line.

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
        let limits = activeLimits
        var p = p
        while true {
            let next = usualBlock(base, n, from: p, chunkOffset: chunkOffset, limits: limits, onEvent)
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
        let next = usualBlock(base, chunk.count, from: p, chunkOffset: chunkOffset, limits: activeLimits, onEvent)
        return next == p ? nil : next
    }
}

/// The usual block at `p` in base[0..<n]: dispatched, and where the next
/// block starts is returned; `p` (nothing done) when it is not one. Each
/// value runs to its line's end (`_scan_line_end` stops at LF or CR, and
/// `_SSEUsualBlock` takes the block only when it stopped at LF).
@inline(__always)
private func usualBlock(
    _ base: UnsafeRawPointer, _ n: Int, from p: Int, chunkOffset: Int, limits: SSELimits,
    _ onEvent: (borrowing SSEEventView) -> Void
) -> Int {
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    guard
        let block = _SSEUsualBlock.read(
            UnsafeRawBufferPointer(start: base, count: n), from: p, limits: limits,
            eventValue: { _scan_line_end(bytes, $0, n) }, dataValue: { _scan_line_end(bytes, $0, n) })
    else { return p }
    let type = block.eventType
    onEvent(
        SSEEventView(
            data: UnsafeRawBufferPointer(start: base + block.data.lowerBound, count: block.data.count),
            eventType: type.isEmpty ? nil : UnsafeRawBufferPointer(start: base + type.lowerBound, count: type.count),
            lastEventID: UnsafeRawBufferPointer(start: nil, count: 0), retry: nil,
            streamOffset: chunkOffset &+ block.blankLine))
    return block.end
}
