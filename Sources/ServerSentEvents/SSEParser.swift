// SSEParser: the WHATWG event-stream algorithm as a push parser over bytes.
//
// Data structure. The parser holds only what a chunk boundary forces it to:
// - `_lineBuffer`: the start of a line whose end has not arrived yet. Bytes
//   are appended once; when the line ends it is interpreted from there (and,
//   for a first `data` line, moved whole into the data buffer).
// - `_data`, `_eventType` (`_FieldBuffer`): the block's field values. A value
//   that lies inside the chunk being fed is only a range of that chunk; it is
//   copied out only if the chunk ends before the event is dispatched. So a
//   typical one-line event inside a chunk is handed to the callback without
//   a single copy.
// - `_pendingCR`: the chunk ended in CR, so an LF starting the next chunk
//   belongs to the same line end.
// - `_bomState`: how many bytes of a leading UTF-8 BOM were seen at stream
//   start (a BOM may be split across chunks too).
//
// Scanning. Line ends are found with memchr for LF and for CR separately.
// Each search remembers where it stopped (`nextLF`, `nextCR`), so a chunk
// without CR is searched for CR once, and every byte is looked at by each
// search at most once, whatever the chunking. Short tails use a byte loop,
// which beats two calls into libc for a few bytes (feeding byte by byte).
//
// Offsets. `_offset` counts every byte fed (BOM included); errors and
// events carry offsets in that count, which never depend on chunking.

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
    let _limits: SSELimits
    var _lineBuffer: [UInt8] = []
    var _lineStartOffset = 0
    var _pendingCR = false
    var _bomState = 0
    var _streamStartOffset = 0
    var _data = _FieldBuffer()
    var _eventType = _FieldBuffer()
    var _lastEventID: [UInt8] = []
    var _retry: Int? = nil
    /// Offset of the first non-blank line of the current block, -1 if none.
    var _blockStartOffset = -1
    var _offset = 0
    var _failure: SSEError? = nil

    /// A parser at the start of a stream, within `limits`.
    public init(limits: SSELimits = SSELimits()) {
        _limits = limits
    }

    /// Total bytes fed so far.
    public var bytesConsumed: Int { _offset }

    /// The WHATWG last event ID string (persists across events and streams).
    public var lastEventID: String { String(decoding: _lastEventID, as: UTF8.self) }

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
        if let failure = _failure { throw failure }
        guard chunk.count > 0 else { return }
        do throws(SSEError) {
            try _consume(chunk, onEvent)
        } catch {
            _failure = error
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
        guard _failure == nil else { return 0 }
        var start = _blockStartOffset
        if start < 0 {
            if !_lineBuffer.isEmpty {
                start = _lineStartOffset
            } else if _bomState > 0 && _bomState < 3 {
                start = _streamStartOffset
            }
        }
        let pending = _data.lineCount > 0 || _eventType.lineCount > 0 || _retry != nil
            || !_lineBuffer.isEmpty || (_bomState > 0 && _bomState < 3)
        let discarded = pending && start >= 0 ? _offset - start : 0
        _lineBuffer.removeAll(keepingCapacity: false)
        _pendingCR = false
        _bomState = 0
        _streamStartOffset = _offset
        _data = _FieldBuffer()
        _eventType = _FieldBuffer()
        _retry = nil
        _blockStartOffset = -1
        return discarded
    }

    // MARK: - Line splitting

    mutating func _consume(_ chunk: UnsafeRawBufferPointer, _ onEvent: (borrowing SSEEventView) -> Void) throws(SSEError) {
        let n = chunk.count
        let chunkOffset = _offset
        defer { _offset = chunkOffset + n }
        var p = 0
        if _bomState < 3 {
            p = _skipBOM(chunk)
            if p == n { return }
        }
        if _pendingCR {
            _pendingCR = false
            if chunk[p] == _LF { p += 1 }
        }
        var nextLF = -1
        var nextCR = -1
        while p < n {
            let end: Int
            if n - p <= 16 {
                end = _byteScan(chunk, from: p)
            } else {
                if nextLF < p { nextLF = _memchr(chunk, _LF, from: p) }
                if nextCR < p { nextCR = _memchr(chunk, _CR, from: p) }
                end = min(nextLF, nextCR)
            }
            if end == n {
                try _bufferPartialLine(chunk, from: p, chunkOffset: chunkOffset)
                break
            }
            if _lineBuffer.isEmpty {
                try _chunkLine(chunk, start: p, end: end, chunkOffset: chunkOffset, onEvent)
            } else {
                try _appendToLineBuffer(chunk, p..<end)
                try _bufferedLine(chunk, lineEndOffset: chunkOffset + end)
            }
            if chunk[end] == _CR {
                if end + 1 == n {
                    _pendingCR = true
                    p = n
                } else {
                    p = chunk[end + 1] == _LF ? end + 2 : end + 1
                }
            } else {
                p = end + 1
            }
        }
        _data.materialize(chunk)
        _eventType.materialize(chunk)
    }

    /// Consumes the start of a BOM at stream start. Returns where parsing
    /// goes on in `chunk` (`chunk.count` when every byte was a BOM byte).
    mutating func _skipBOM(_ chunk: UnsafeRawBufferPointer) -> Int {
        var i = 0
        let heldFromEarlierChunks = _bomState
        while _bomState < 3 && i < chunk.count {
            let expected: UInt8 = _bomState == 0 ? 0xEF : (_bomState == 1 ? 0xBB : 0xBF)
            if chunk[i] != expected {
                // Not a BOM: the bytes held from earlier chunks start a line;
                // this chunk's bytes are parsed from its start as usual.
                _bomState = 3
                if heldFromEarlierChunks > 0 {
                    _lineStartOffset = _streamStartOffset
                    _lineBuffer.append(0xEF)
                    if heldFromEarlierChunks > 1 { _lineBuffer.append(0xBB) }
                }
                return 0
            }
            _bomState += 1
            i += 1
        }
        return i == chunk.count && _bomState < 3 ? chunk.count : i
    }

    mutating func _bufferPartialLine(_ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int) throws(SSEError) {
        if _lineBuffer.isEmpty { _lineStartOffset = chunkOffset + p }
        try _appendToLineBuffer(chunk, p..<chunk.count)
    }

    @inline(__always)
    mutating func _appendToLineBuffer(_ chunk: UnsafeRawBufferPointer, _ range: Range<Int>) throws(SSEError) {
        if _lineBuffer.count + range.count > _limits.maxLineBytes {
            throw SSEError(reason: .lineTooLong(limit: _limits.maxLineBytes), offset: _lineStartOffset + _limits.maxLineBytes)
        }
        if range.count <= 8 {
            // Tiny pieces (a stream fed byte by byte): the generic bulk
            // append costs more than the bytes themselves.
            for index in range { _lineBuffer.append(chunk[index]) }
        } else {
            _lineBuffer.append(contentsOf: _bytes(chunk, range))
        }
    }
}

/// Index of the first `byte` in `chunk[from...]`, or `chunk.count`.
@inline(__always)
func _memchr(_ chunk: UnsafeRawBufferPointer, _ byte: UInt8, from: Int) -> Int {
    guard let base = chunk.baseAddress, from < chunk.count else { return chunk.count }
    guard let hit = memchr(base + from, Int32(byte), chunk.count - from) else { return chunk.count }
    return UnsafeRawPointer(hit) - base
}

/// Index of the first CR or LF in `chunk[from...]`, or `chunk.count`.
@inline(__always)
func _byteScan(_ chunk: UnsafeRawBufferPointer, from: Int) -> Int {
    var i = from
    while i < chunk.count {
        let byte = chunk[i]
        if byte == _LF || byte == _CR { return i }
        i += 1
    }
    return chunk.count
}
