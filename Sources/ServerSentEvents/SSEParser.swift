// SSEParser: the WHATWG event-stream algorithm as a push parser over bytes.
//
// Data structure. The parser holds only what a chunk boundary forces it to:
// - `lineBuffer`: the start of a line whose end has not arrived yet. Bytes
//   are appended once; when the line ends it is interpreted from there (and,
//   for a first `data` line, moved whole into the data buffer).
// - `dataField`, `eventTypeField` (`FieldBuffer`): the block's field values. A value
//   that lies inside the chunk being fed is only a range of that chunk; it is
//   copied out only if the chunk ends before the event is dispatched. So a
//   typical one-line event inside a chunk is handed to the callback without
//   a single copy.
// - `pendingCR`: the chunk ended in CR, so an LF starting the next chunk
//   belongs to the same line end.
// - `bomState`: how many bytes of a leading UTF-8 BOM were seen at stream
//   start (a BOM may be split across chunks too).
//
// Scanning. Line by line, the LF is found with memchr, then a CR with
// memchr only up to that LF. Each search remembers where it stopped
// (`nextLF`; `nextCR`, the first CR before `nextLF`, or `nextLF` when
// there is none), so every byte is looked at by each search at most once,
// whatever the chunking. No search runs ahead over the chunk for a CR
// that may never come: on a stream larger than the cache it would pull
// the whole chunk from memory before any parsing, a wait that the parsing
// would otherwise hide. Short tails use a byte loop, which beats two calls
// into libc for a few bytes (feeding byte by byte). The usual block is
// read in one step instead (SSEParser+WholeBlock.swift), with one inlined
// scan that stops at LF or CR.
//
// Offsets. `streamPosition` counts every byte fed (BOM included); errors and
// events carry offsets in that count, which never depend on chunking.

import _ScanAcceleration

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

@usableFromInline let _LF: UInt8 = 0x0A
@usableFromInline let _CR: UInt8 = 0x0D

/// A push parser for `text/event-stream` bytes (WHATWG HTML §9.2.6).
///
/// Feed chunks of any size; the same events come out whatever the chunking.
/// After an ``SSEError`` the parser is unusable: later feeds rethrow it.
public struct SSEParser: Sendable {
    let activeLimits: SSELimits
    /// Whether usual blocks are read in one step (SSEParser+WholeBlock.swift),
    /// or every block line by line (`CLAUDE_STREAMING_GENERAL_PATH`).
    let readsWholeBlocks: Bool
    var lineBuffer: [UInt8] = []
    var lineStartOffset = 0
    var pendingCR = false
    var bomState = 0
    var streamStartOffset = 0
    var dataField = FieldBuffer()
    var eventTypeField = FieldBuffer()
    var lastEventIDBytes: [UInt8] = []
    var pendingRetry: Int? = nil
    /// Offset of the first non-blank line of the current block, -1 if none.
    var blockStartOffset = -1
    var streamPosition = 0
    var terminalError: SSEError? = nil

    /// A parser at the start of a stream, within `limits`.
    public init(limits: SSELimits = SSELimits()) {
        self.init(limits: limits, readsWholeBlocks: _scan_general_path() == 0)
    }

    /// A parser that reads the usual block in one step or not, whatever
    /// the general-path switch says: for checks that hold the two ways to
    /// the same events in one process.
    package init(limits: SSELimits, readsWholeBlocks: Bool) {
        activeLimits = limits
        self.readsWholeBlocks = readsWholeBlocks
    }

    /// Total bytes fed so far.
    public var bytesConsumed: Int { streamPosition }

    /// The WHATWG last event ID string (persists across events and streams).
    public var lastEventID: String { String(decoding: lastEventIDBytes, as: UTF8.self) }

    /// Feeds a chunk; calls `onEvent` for each dispatched event, in order.
    ///
    /// The view passed to `onEvent` borrows the parser's buffers or `chunk`
    /// itself; it is valid only during the call.
    /// - Complexity: O(chunk.count) plus O(length) for the part of a line or
    ///   event that must outlive the chunk.
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        onEvent: (borrowing SSEEventView) -> Void
    ) throws(SSEError) {
        try feed(chunk, readingBlocks: { _, _ in 0 }, readsBlocks: false, onEvent)
    }

    /// Feeds a chunk like ``feed(_:onEvent:)``, and at each block boundary
    /// inside it where the parser holds nothing (no partial line, no field
    /// of a block begun, no pending retry) first offers the rest of the
    /// chunk to `readBlocks`, with the stream offset of its first byte.
    /// `readBlocks` may read whole blocks there itself and returns how many
    /// bytes they took (0 leaves them to the parser); it must take only
    /// blocks the parser would have dispatched as events without any other
    /// effect (no `id` or `retry` field, every line ended by LF, the last
    /// one blank), so that the parser's state after them is as it was.
    /// For a consumer in this package (the message accumulator) that reads
    /// its usual event in one step, framing and JSON together. With
    /// `CLAUDE_STREAMING_GENERAL_PATH` set, `readBlocks` is never offered a
    /// boundary: every block goes line by line.
    package mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        readingBlocks readBlocks: (UnsafeRawBufferPointer, Int) -> Int,
        onEvent: (borrowing SSEEventView) -> Void
    ) throws(SSEError) {
        try feed(chunk, readingBlocks: readBlocks, readsBlocks: true, onEvent)
    }

    /// Both `feed`s: a stopped parser rethrows its error; a new error
    /// stops it.
    private mutating func feed(
        _ chunk: UnsafeRawBufferPointer, readingBlocks readBlocks: (UnsafeRawBufferPointer, Int) -> Int,
        readsBlocks: Bool, _ onEvent: (borrowing SSEEventView) -> Void
    ) throws(SSEError) {
        if let failure = terminalError { throw failure }
        guard chunk.count > 0 else { return }
        do throws(SSEError) {
            try scanChunk(chunk, readingBlocks: readBlocks, readsBlocks: readsBlocks, onEvent)
        } catch {
            terminalError = error
            throw error
        }
    }

    /// Feeds a chunk and returns the events it completed, copied out.
    public mutating func feed(_ chunk: [UInt8]) throws(SSEError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        // `withUnsafeBytes` rethrows untyped, so the typed error rides out in a Result.
        let result: Result<Void, SSEError> = chunk.withUnsafeBytes { raw in
            do throws(SSEError) {
                try feed(raw) { view in events.append(view.makeEvent()) }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return events
    }

    /// Ends the stream: an unfinished event is discarded (WHATWG). Returns how
    /// many bytes were discarded (0 when the stream ended on an event
    /// boundary, or with only comments or blank lines pending), so a caller
    /// can report truncation. The parser is then ready for a new stream
    /// (a reconnection: BOM allowed again, last event ID kept).
    public mutating func finish() -> Int {
        guard terminalError == nil else { return 0 }
        var start = blockStartOffset
        if start < 0 {
            if !lineBuffer.isEmpty {
                start = lineStartOffset
            } else if bomState > 0 && bomState < 3 {
                start = streamStartOffset
            }
        }
        let pending =
            dataField.lineCount > 0 || eventTypeField.lineCount > 0 || pendingRetry != nil
            || !lineBuffer.isEmpty || (bomState > 0 && bomState < 3)
        let discarded = pending && start >= 0 ? streamPosition - start : 0
        lineBuffer.removeAll(keepingCapacity: false)
        pendingCR = false
        bomState = 0
        streamStartOffset = streamPosition
        dataField = FieldBuffer()
        eventTypeField = FieldBuffer()
        pendingRetry = nil
        blockStartOffset = -1
        return discarded
    }

    // MARK: - Line splitting

    mutating func scanChunk(
        _ chunk: UnsafeRawBufferPointer, readingBlocks readBlocks: (UnsafeRawBufferPointer, Int) -> Int,
        readsBlocks: Bool, _ onEvent: (borrowing SSEEventView) -> Void
    ) throws(SSEError) {
        let n = chunk.count
        let chunkOffset = streamPosition
        defer { streamPosition = chunkOffset + n }
        var p = 0
        if bomState < 3 {
            p = skipBOM(chunk)
            if p == n { return }
        }
        if pendingCR {
            pendingCR = false
            if chunk[p] == _LF { p += 1 }
        }
        var nextLF = -1
        var nextCR = -1
        while p < n {
            // Between blocks with nothing pending, the usual block
            // (`event:`, `data:`, blank line, LF ends, inside this chunk)
            // is read in one step, a run of them in one call unless a
            // block reader takes its turn at each boundary; anything else
            // goes line by line below.
            if blockStartOffset < 0 && lineBuffer.isEmpty && readsWholeBlocks {
                if readsBlocks {
                    let taken = readBlocks(UnsafeRawBufferPointer(rebasing: chunk[p...]), chunkOffset &+ p)
                    if taken > 0 {
                        p &+= Swift.min(taken, n &- p)
                        continue
                    }
                    if let next = wholeBlock(chunk, from: p, chunkOffset: chunkOffset, onEvent) {
                        p = next
                        continue
                    }
                } else if lastEventIDBytes.isEmpty {
                    p = wholeBlocks(chunk, from: p, chunkOffset: chunkOffset, onEvent)
                    if p == n { break }
                }
            }
            let end: Int
            if n - p <= 16 {
                end = byteScan(chunk, from: p)
            } else {
                if nextLF < p { nextLF = findByte(chunk, _LF, from: p) }
                // A CR only up to the LF: no search runs ahead over the
                // chunk (file comment).
                if nextCR < p { nextCR = findByte(chunk, _CR, from: p, to: nextLF) }
                end = min(nextLF, nextCR)
            }
            if end == n {
                try bufferPartialLine(chunk, from: p, chunkOffset: chunkOffset)
                break
            }
            if lineBuffer.isEmpty {
                try chunkLine(chunk, start: p, end: end, chunkOffset: chunkOffset, onEvent)
            } else {
                try appendToLineBuffer(chunk, p..<end)
                try bufferedLine(chunk, lineEndOffset: chunkOffset + end)
            }
            if chunk[end] == _CR {
                if end + 1 == n {
                    pendingCR = true
                    p = n
                } else {
                    p = chunk[end + 1] == _LF ? end + 2 : end + 1
                }
            } else {
                p = end + 1
            }
        }
        dataField.materialize(chunk)
        eventTypeField.materialize(chunk)
    }

    /// Consumes the start of a BOM at stream start. Returns where parsing
    /// goes on in `chunk` (`chunk.count` when every byte was a BOM byte).
    mutating func skipBOM(_ chunk: UnsafeRawBufferPointer) -> Int {
        var i = 0
        let heldFromEarlierChunks = bomState
        while bomState < 3 && i < chunk.count {
            let expected: UInt8 = bomState == 0 ? 0xEF : (bomState == 1 ? 0xBB : 0xBF)
            if chunk[i] != expected {
                // Not a BOM: the bytes held from earlier chunks start a line;
                // this chunk's bytes are parsed from its start as usual.
                bomState = 3
                if heldFromEarlierChunks > 0 {
                    lineStartOffset = streamStartOffset
                    lineBuffer.append(0xEF)
                    if heldFromEarlierChunks > 1 { lineBuffer.append(0xBB) }
                }
                return 0
            }
            bomState += 1
            i += 1
        }
        return i == chunk.count && bomState < 3 ? chunk.count : i
    }

    mutating func bufferPartialLine(_ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int) throws(SSEError) {
        if lineBuffer.isEmpty { lineStartOffset = chunkOffset + p }
        try appendToLineBuffer(chunk, p..<chunk.count)
    }

    @inline(__always)
    mutating func appendToLineBuffer(_ chunk: UnsafeRawBufferPointer, _ range: Range<Int>) throws(SSEError) {
        if lineBuffer.count + range.count > activeLimits.maxLineBytes {
            throw SSEError(reason: .lineTooLong(limit: activeLimits.maxLineBytes), offset: lineStartOffset + activeLimits.maxLineBytes)
        }
        if range.count <= 8 {
            // Tiny pieces (a stream fed byte by byte): the generic bulk
            // append costs more than the bytes themselves.
            for index in range { lineBuffer.append(chunk[index]) }
        } else {
            lineBuffer.append(contentsOf: chunkBytes(chunk, range))
        }
    }
}

/// Index of the first `byte` in `chunk[from..<to]`, or `to`.
@inline(__always)
func findByte(_ chunk: UnsafeRawBufferPointer, _ byte: UInt8, from: Int, to: Int? = nil) -> Int {
    let to = to ?? chunk.count
    guard let base = chunk.baseAddress, from < to else { return to }
    guard let hit = memchr(base + from, Int32(byte), to - from) else { return to }
    return UnsafeRawPointer(hit) - base
}

/// Index of the first CR or LF in `chunk[from...]`, or `chunk.count`.
@inline(__always)
func byteScan(_ chunk: UnsafeRawBufferPointer, from: Int) -> Int {
    var i = from
    while i < chunk.count {
        let byte = chunk[i]
        if byte == _LF || byte == _CR { return i }
        i += 1
    }
    return chunk.count
}
