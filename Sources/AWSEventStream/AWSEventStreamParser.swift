// AWSEventStreamParser: the `application/vnd.amazon.eventstream` framing as
// a push parser over bytes.
//
// Wire form of a message (all integers big-endian):
//   total length (4) | headers length (4) | prelude CRC (4)   ← the prelude
//   headers (headers length bytes) | payload | message CRC (4)
// The prelude CRC covers bytes 0..<8; the message CRC covers 0..<total-4.
//
// Data structure. The parser holds only what a chunk boundary forces it to:
// `buffer` has the start of a message whose end has not arrived yet. A
// message that lies inside one chunk is never copied: its view points into
// the chunk. A split message is copied once into `buffer`.
//
// Checks, in order: the prelude CRC as soon as 12 bytes are in (so a
// corrupt length is rejected instead of waited on), then the lengths and
// limits (before a byte of the body is buffered), then the message CRC and
// the header block once the whole message is in. The message CRC continues
// from the prelude CRC (CRC-32 composes), so every byte is summed once.
//
// Offsets. `streamPosition` counts every byte fed; messages and errors carry
// offsets in that count, which never depend on chunking.

import _ScanAcceleration

/// The length of the prelude: total length, headers length, prelude CRC.
let preludeLength = 12
/// Prelude plus trailing message CRC: the smallest possible message.
let minimumMessageLength = 16

/// A push parser for AWS event-stream bytes (`application/vnd.amazon.eventstream`),
/// the framing of Amazon Bedrock's `InvokeModelWithResponseStream`.
///
/// Feed chunks of any size; the same messages come out whatever the
/// chunking. Every CRC is checked. After an ``AWSEventStreamError`` the
/// parser is unusable: later feeds rethrow it.
public struct AWSEventStreamParser: Sendable {
    let activeLimits: AWSEventStreamLimits
    /// The start of a message split across chunks.
    var buffer: [UInt8] = []
    /// The buffered message's total length once its prelude is in and
    /// checked; 0 while fewer than 12 bytes are buffered.
    var bufferedTotal = 0
    var bufferedPreludeCRC: UInt32 = 0
    var bufferStartOffset = 0
    var streamPosition = 0
    var messagesDelivered = 0
    var terminalError: AWSEventStreamError? = nil
    /// Whether ``feed(_:readingMessages:onMessage:)`` offers its reader the
    /// message boundaries (off with `CLAUDE_STREAMING_GENERAL_PATH`).
    let readsWholeMessages: Bool

    /// A parser at the start of a stream, bounded by `limits`.
    public init(limits: AWSEventStreamLimits = AWSEventStreamLimits()) {
        self.init(limits: limits, readsWholeMessages: _scan_general_path() == 0)
    }

    /// A parser whose message reader is offered boundaries only when
    /// `readsWholeMessages` (so a fuzzer can hold the two ways to each other
    /// in one process).
    package init(limits: AWSEventStreamLimits, readsWholeMessages: Bool) {
        activeLimits = limits
        self.readsWholeMessages = readsWholeMessages
    }

    /// Total bytes fed so far.
    public var bytesConsumed: Int { streamPosition }

    /// Messages handed out so far.
    public var messageCount: Int { messagesDelivered }

    /// Feeds a chunk; calls `onMessage` for each complete message, in order.
    ///
    /// The view passed to `onMessage` borrows the parser's buffer or `chunk`
    /// itself; it is valid only during the call.
    /// - Throws: ``AWSEventStreamError`` for the first fault in the stream
    ///   (messages before it were already handed to `onMessage`), and the
    ///   same error on every later call.
    /// - Complexity: O(chunk.count) plus O(length) for the part of a
    ///   message that must outlive the chunk.
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        _ onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) {
        try feed(chunk, readingMessages: { _, _ in (0, 0) }, readsMessages: false, onMessage)
    }

    /// Feeds a chunk like ``feed(_:_:)``, and at each message boundary
    /// inside it where nothing is buffered first offers the rest of the
    /// chunk to `readMessages`, with the stream offset of its first byte.
    /// `readMessages` may read whole messages there itself and returns the
    /// bytes and the messages they took ((0, 0) leaves them to the parser);
    /// it must take only messages the parser would have delivered, every
    /// check passed (`_AWSUsualMessage` makes them). For a consumer in this
    /// package (the message accumulator) that reads its usual Bedrock chunk
    /// in one step. With `CLAUDE_STREAMING_GENERAL_PATH` set,
    /// `readMessages` is never offered a boundary.
    package mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        readingMessages readMessages: (UnsafeRawBufferPointer, Int) -> (bytes: Int, messages: Int),
        onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) {
        try feed(chunk, readingMessages: readMessages, readsMessages: readsWholeMessages, onMessage)
    }

    /// Both `feed`s: a stopped parser rethrows its error; a new error
    /// stops it.
    private mutating func feed(
        _ chunk: UnsafeRawBufferPointer, readingMessages readMessages: (UnsafeRawBufferPointer, Int) -> (bytes: Int, messages: Int),
        readsMessages: Bool, _ onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) {
        if let failure = terminalError { throw failure }
        guard chunk.count > 0 else { return }
        do throws(AWSEventStreamError) {
            try scanChunk(chunk, readingMessages: readMessages, readsMessages: readsMessages, onMessage)
        } catch {
            terminalError = error
            throw error
        }
    }

    /// Feeds a chunk and returns the messages it completed, copied out.
    /// - Throws: ``AWSEventStreamError`` for the first fault in the stream,
    ///   and the same error on every later call.
    /// - Complexity: O(chunk.count) plus the copies of the messages.
    public mutating func feed(_ chunk: [UInt8]) throws(AWSEventStreamError) -> [AWSEventStreamMessage] {
        var messages: [AWSEventStreamMessage] = []
        let result: Result<Void, AWSEventStreamError> = chunk.withUnsafeBytes { raw in
            do throws(AWSEventStreamError) {
                try feed(raw) { messages.append($0.makeMessage()) }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return messages
    }

    /// Ends the stream. Returns nil when it ended on a message boundary,
    /// else the ``AWSEventStreamError/Reason/truncatedMessage(missing:)``
    /// error for the unfinished message (whose bytes are discarded). The
    /// parser is then ready for a new stream.
    public mutating func finish() -> AWSEventStreamError? {
        guard terminalError == nil, !buffer.isEmpty else { return nil }
        let declared = bufferedTotal > 0 ? bufferedTotal : minimumMessageLength
        let error = AWSEventStreamError(
            reason: .truncatedMessage(missing: max(1, declared - buffer.count)), offset: bufferStartOffset)
        buffer.removeAll(keepingCapacity: false)
        bufferedTotal = 0
        return error
    }

    // MARK: - Framing

    mutating func scanChunk(
        _ chunk: UnsafeRawBufferPointer, readingMessages readMessages: (UnsafeRawBufferPointer, Int) -> (bytes: Int, messages: Int),
        readsMessages: Bool, _ onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) {
        let n = chunk.count
        let chunkOffset = streamPosition
        defer { streamPosition = chunkOffset + n }
        var p = 0
        if !buffer.isEmpty {
            p = try continueBuffered(chunk, chunkOffset: chunkOffset, onMessage)
        }
        while p < n {
            // At a boundary with nothing buffered, the reader takes the run
            // of usual messages it can; what it declines is read below.
            if readsMessages {
                let taken = readMessages(UnsafeRawBufferPointer(rebasing: chunk[p...]), chunkOffset &+ p)
                if taken.bytes > 0 {
                    p &+= Swift.min(taken.bytes, n &- p)
                    messagesDelivered &+= taken.messages
                    continue
                }
            }
            let remaining = n - p
            guard remaining >= preludeLength else {
                startBuffer(chunk, from: p, chunkOffset: chunkOffset, total: 0, preludeCRC: 0)
                return
            }
            let message = UnsafeRawBufferPointer(rebasing: chunk[p...])
            let prelude = try checkPrelude(message, streamOffset: chunkOffset + p)
            guard remaining >= prelude.total else {
                startBuffer(chunk, from: p, chunkOffset: chunkOffset, total: prelude.total, preludeCRC: prelude.crc)
                return
            }
            try deliver(
                UnsafeRawBufferPointer(rebasing: chunk[p..<(p + prelude.total)]),
                prelude: prelude, streamOffset: chunkOffset + p, onMessage)
            p += prelude.total
        }
    }

    /// Adds the chunk's first bytes to the buffered message; delivers it when
    /// complete. Returns where the chunk's own messages start.
    mutating func continueBuffered(
        _ chunk: UnsafeRawBufferPointer, chunkOffset: Int, _ onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) -> Int {
        var p = 0
        if bufferedTotal == 0 {
            let take = min(preludeLength - buffer.count, chunk.count)
            appendToBuffer(chunk, 0..<take)
            p = take
            guard buffer.count == preludeLength else { return p }
            let prelude = try withBuffer { raw throws(AWSEventStreamError) in
                try checkPrelude(raw, streamOffset: bufferStartOffset)
            }
            bufferedTotal = prelude.total
            bufferedPreludeCRC = prelude.crc
            buffer.reserveCapacity(prelude.total)
        }
        let take = min(bufferedTotal - buffer.count, chunk.count - p)
        appendToBuffer(chunk, p..<(p + take))
        p += take
        guard buffer.count == bufferedTotal else { return p }
        // Move the buffer out so `deliver` may mutate self while it is read.
        var message: [UInt8] = []
        swap(&message, &buffer)
        let preludeCRC = bufferedPreludeCRC
        let start = bufferStartOffset
        bufferedTotal = 0
        let result: Result<Void, AWSEventStreamError> = message.withUnsafeBytes { raw in
            do throws(AWSEventStreamError) {
                let prelude = Prelude(total: raw.count, headers: intLength(readUInt32(raw, at: 4)), crc: preludeCRC)
                try deliver(raw, prelude: prelude, streamOffset: start, onMessage)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        message.removeAll(keepingCapacity: true)
        buffer = message
        try result.get()
        return p
    }

    /// Runs `body` over the buffered bytes (`withUnsafeBytes` rethrows
    /// untyped, so the typed error rides out in a Result).
    func withBuffer<T>(_ body: (UnsafeRawBufferPointer) throws(AWSEventStreamError) -> T) throws(AWSEventStreamError) -> T {
        let result: Result<T, AWSEventStreamError> = buffer.withUnsafeBytes { raw in
            do throws(AWSEventStreamError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    mutating func startBuffer(_ chunk: UnsafeRawBufferPointer, from p: Int, chunkOffset: Int, total: Int, preludeCRC: UInt32) {
        bufferStartOffset = chunkOffset + p
        bufferedTotal = total
        bufferedPreludeCRC = preludeCRC
        if total > 0 { buffer.reserveCapacity(total) }
        appendToBuffer(chunk, p..<chunk.count)
    }

    @inline(__always)
    mutating func appendToBuffer(_ chunk: UnsafeRawBufferPointer, _ range: Range<Int>) {
        if range.count <= 8 {
            // Tiny pieces (a stream fed byte by byte): the bulk append costs more.
            for index in range { buffer.append(chunk[index]) }
        } else {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[range]))
        }
    }

    struct Prelude {
        var total: Int
        var headers: Int
        var crc: UInt32
    }

    /// Checks the 12-byte prelude at the start of `bytes`: its CRC first,
    /// then the lengths and limits.
    @inline(__always)
    func checkPrelude(_ bytes: UnsafeRawBufferPointer, streamOffset: Int) throws(AWSEventStreamError) -> Prelude {
        let declared = readUInt32(bytes, at: 8)
        let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<8]))
        guard declared == computed else {
            throw AWSEventStreamError(reason: .preludeChecksumMismatch(declared: declared, computed: computed), offset: streamOffset + 8)
        }
        let total = intLength(readUInt32(bytes, at: 0))
        let headers = intLength(readUInt32(bytes, at: 4))
        guard total >= minimumMessageLength else {
            throw AWSEventStreamError(reason: .totalLengthTooSmall(total), offset: streamOffset)
        }
        guard total <= activeLimits.maxMessageBytes else {
            throw AWSEventStreamError(reason: .messageTooLarge(length: total, limit: activeLimits.maxMessageBytes), offset: streamOffset)
        }
        guard headers <= total - minimumMessageLength else {
            throw AWSEventStreamError(reason: .headersLengthTooLarge(headers: headers, total: total), offset: streamOffset + 4)
        }
        guard headers <= activeLimits.maxHeaderBytes else {
            throw AWSEventStreamError(reason: .headersTooLarge(length: headers, limit: activeLimits.maxHeaderBytes), offset: streamOffset + 4)
        }
        return Prelude(total: total, headers: headers, crc: computed)
    }

    /// Checks the message CRC and the header block of a whole message, then
    /// hands it out.
    @inline(__always)
    mutating func deliver(
        _ message: UnsafeRawBufferPointer, prelude: Prelude, streamOffset: Int,
        _ onMessage: (borrowing AWSEventStreamMessageView) -> Void
    ) throws(AWSEventStreamError) {
        let crcStart = prelude.total - 4
        let declared = readUInt32(message, at: crcStart)
        let computed = CRC32.update(prelude.crc, UnsafeRawBufferPointer(rebasing: message[8..<crcStart]))
        guard declared == computed else {
            throw AWSEventStreamError(
                reason: .messageChecksumMismatch(declared: declared, computed: computed), offset: streamOffset + crcStart)
        }
        let headerEnd = preludeLength + prelude.headers
        let headers = UnsafeRawBufferPointer(rebasing: message[preludeLength..<headerEnd])
        var i = 0
        while i < headers.count {
            do throws(HeaderFault) {
                i = try readHeader(headers, at: i).value.upperBound
            } catch {
                throw AWSEventStreamError(reason: error.reason, offset: streamOffset + preludeLength + error.offset)
            }
        }
        messagesDelivered += 1
        onMessage(
            AWSEventStreamMessageView(
                headerBytes: headers, payload: UnsafeRawBufferPointer(rebasing: message[headerEnd..<crcStart]),
                streamOffset: streamOffset, totalLength: prelude.total))
    }
}

/// The big-endian UInt32 at `offset`.
@inline(__always)
func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
}

/// A declared length as an Int; where Int is 32 bits (arm64_32) a length
/// above Int.max becomes Int.max, which every limit then rejects.
@inline(__always)
func intLength(_ value: UInt32) -> Int {
    Int(exactly: value) ?? Int.max
}

extension AWSEventStreamParser {
    /// Whether `prefix` (the first bytes of a body) starts with a valid
    /// event-stream prelude: true when its first 12 bytes carry a matching
    /// prelude CRC and sane lengths, false when they do not, nil when fewer
    /// than 12 bytes are given and none of them rules it out.
    ///
    /// A text stream (SSE, JSON) cannot pass: its first byte would have to be
    /// a length byte and its bytes 8..<12 the CRC of the first 8.
    /// - Complexity: O(1).
    public static func startsWithPrelude(_ prefix: UnsafeRawBufferPointer) -> Bool? {
        guard prefix.count >= preludeLength else {
            // Messages above 16 MiB are not allowed, so the first byte of a
            // real prelude is 0.
            return prefix.isEmpty || prefix[0] == 0 ? nil : false
        }
        let parser = AWSEventStreamParser(limits: AWSEventStreamLimits(maxMessageBytes: Int.max, maxHeaderBytes: Int.max))
        do throws(AWSEventStreamError) {
            _ = try parser.checkPrelude(prefix, streamOffset: 0)
            return true
        } catch {
            return false
        }
    }
}
