// Bedrock's InvokeModelWithResponseStream body, unwrapped into Messages API
// events for the accumulator.
//
//   bytes ─► AWSEventStreamParser ─► message view (`:message-type`)
//              event, `:event-type: chunk` ─► payload {"bytes":"<base64>","p":…}
//                                              └► base64 decoded into `event` ─► onEvent
//              exception / error ─► typed failure (`:exception-type`, message)
//
// The chunk payload is read by a small scanner that finds the `bytes`
// string among the object's members and decodes it in place: no JSON tree,
// no String. It falls back to the general JSON parser only for a member
// name written with escapes, which Bedrock does not send.

import AWSEventStream
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A `:message-type: exception` (or `error`) message from an AWS event
/// stream: Bedrock reports mid-stream failures this way
/// (`throttlingException`, `modelStreamErrorException`, `validationException`, …).
public struct EventStreamException: Sendable, Hashable {
    /// `:exception-type` (or `:error-code` for an `error` message), as sent.
    public var type: String
    /// The payload's `message` field, else the payload as text (or `:error-message`).
    public var message: String

    /// An exception of `type` with `message`.
    public init(type: String, message: String) {
        self.type = type
        self.message = message
    }
}

/// Why a Bedrock body could not be turned into events.
enum BedrockFailure: Error {
    case framing(AWSEventStreamError)
    case exception(EventStreamException, offset: Int)
    case invalidChunk(String, offset: Int)
}

struct BedrockEventDecoder: Sendable {
    var parser: AWSEventStreamParser
    /// The decoded event of the current chunk: its first bytes (the count
    /// `unwrapChunk` gives); only ever grown, so it is not refilled per event.
    var event: [UInt8] = []
    /// Whether chunks in Bedrock's own layout are read in one step (the
    /// usual message, `HotChunks.swift`, and the usual payload): off with
    /// `CLAUDE_STREAMING_GENERAL_PATH`, and for the general-path-only
    /// accumulator fuzzers compare with.
    let readsUsualChunks: Bool

    init(limits: AWSEventStreamLimits, readsUsualChunks: Bool) {
        parser = AWSEventStreamParser(limits: limits, readsWholeMessages: readsUsualChunks)
        self.readsUsualChunks = readsUsualChunks
    }

    var bytesConsumed: Int { parser.bytesConsumed }

    /// The usual chunk's header block (`chunkHeaderBlock`) as bytes.
    static var usualHeaderBlock: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: chunkHeaderBlock.utf8Start, count: chunkHeaderBlock.utf8CodeUnitCount)
    }

    /// Feeds body bytes; at each message boundary offers the rest of the
    /// chunk and the event buffer to `readChunks`, which returns the bytes
    /// and messages it took (see `AWSEventStreamParser`'s
    /// `feed(_:readingMessages:onMessage:)`); calls `onEvent` with the JSON
    /// of each other event and the stream offset of the end of its message.
    /// Stops at the first failure.
    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, options: JSONParserOptions,
        readingChunks readChunks: (UnsafeRawBufferPointer, Int, inout [UInt8]) -> (bytes: Int, messages: Int),
        onEvent: (UnsafeRawBufferPointer, Int) -> Void
    ) throws(BedrockFailure) {
        var failure: BedrockFailure?
        // Move the parts out so the callback may use them while the parser runs.
        var decoded = event
        event = []
        var framing = parser
        parser = AWSEventStreamParser()
        defer {
            event = decoded
            parser = framing
        }
        let readsLayout = readsUsualChunks
        do throws(AWSEventStreamError) {
            try framing.feed(bytes) { rest, offset in
                failure == nil ? readChunks(rest, offset, &decoded) : (0, 0)
            } onMessage: { message in
                guard failure == nil else { return }
                let end = message.streamOffset + message.totalLength
                switch BedrockEventDecoder.classify(of: message) {
                case .chunk:
                    switch unwrapChunk(message.payload, into: &decoded, options: options, readsLayout: readsLayout) {
                    case .event(let count):
                        // Exclusive access, not a shared borrow: reading a captured
                        // array through `withUnsafeBytes` retained and released its
                        // storage around every event (two atomic operations each).
                        decoded.withUnsafeMutableBytes { onEvent(UnsafeRawBufferPointer(rebasing: $0[0..<count]), end) }
                    case .invalid(let problem):
                        failure = .invalidChunk(problem, offset: message.streamOffset)
                    }
                case .otherEvent:
                    return  // event types other than chunk carry nothing for the message
                case .exception(let exception):
                    failure = .exception(exception, offset: message.streamOffset)
                }
            }
        } catch {
            // The parser reads on to the chunk's end after a chunk or an
            // exception failed: the failure that came first is the one, as
            // when the chunk ends between them.
            if let failure { throw failure }
            throw .framing(error)
        }
        if let failure { throw failure }
    }

    enum Kind {
        case chunk, otherEvent
        case exception(EventStreamException)
    }

    /// The header block Bedrock gives every chunk, byte for byte: the
    /// `:event-type`, `:content-type` and `:message-type` string headers in
    /// this order (all 1,531 messages of the recorded Bedrock streams in
    /// the shared corpus carry exactly this). One compare then replaces two
    /// header lookups per event; any other block takes the lookups.
    static let chunkHeaderBlock: StaticString =
        "\u{0B}:event-type\u{07}\u{00}\u{05}chunk\u{0D}:content-type\u{07}\u{00}\u{10}application/json\u{0D}:message-type\u{07}\u{00}\u{05}event"

    @inline(__always)
    static func classify(of message: borrowing AWSEventStreamMessageView) -> Kind {
        let usual = chunkHeaderBlock
        if message.headerBytes.count == usual.utf8CodeUnitCount, let base = message.headerBytes.baseAddress,
            memcmp(base, usual.utf8Start, usual.utf8CodeUnitCount) == 0
        {
            return .chunk
        }
        return otherKind(of: message)
    }

    /// `classify` for any header block but Bedrock's usual one, by lookups
    /// (kept out of line: the hot path is the compare above).
    @inline(never)
    static func otherKind(of message: borrowing AWSEventStreamMessageView) -> Kind {
        let type = message.stringHeader(":message-type")
        if type == nil || isLiteral(type, "event") {
            return isLiteral(message.stringHeader(":event-type"), "chunk") ? .chunk : .otherEvent
        }
        let payloadText = decodedText(message.payload)
        if isLiteral(type, "error") {
            let code = decodedText(message.stringHeader(":error-code"))
            let text = decodedText(message.stringHeader(":error-message"))
            return .exception(EventStreamException(type: code ?? "error", message: text ?? payloadText ?? ""))
        }
        // "exception", and any message type this package does not know, end the stream.
        let exceptionType = decodedText(message.stringHeader(":exception-type"))
        let payload = try? JSONValue.parse(message.payload)
        let text = payload?["message"]?.stringValue ?? payload?["Message"]?.stringValue
        return .exception(
            EventStreamException(
                type: exceptionType ?? decodedText(type) ?? "exception", message: text ?? payloadText ?? ""))
    }
}

private func isLiteral(_ bytes: UnsafeRawBufferPointer?, _ literal: StaticString) -> Bool {
    guard let bytes, bytes.count == literal.utf8CodeUnitCount else { return false }
    guard let base = bytes.baseAddress else { return bytes.isEmpty }
    return memcmp(base, literal.utf8Start, bytes.count) == 0
}

private func decodedText(_ bytes: UnsafeRawBufferPointer?) -> String? {
    guard let bytes, !bytes.isEmpty else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

extension AccumulatorState {
    /// Records a Bedrock failure in its place (an exception or malformed
    /// chunk takes the next event number).
    mutating func fail(_ failure: BedrockFailure) {
        switch failure {
        case .framing(let framing):
            fail(.eventStreamFraming(framing), eventIndex: nil, byteOffset: framing.offset)
        case .exception(let exception, let offset):
            fail(.eventStreamException(exception), eventIndex: eventIndex, byteOffset: offset)
        case .invalidChunk(let what, let offset):
            fail(.invalidChunkPayload(what), eventIndex: eventIndex, byteOffset: offset)
        }
    }
}
