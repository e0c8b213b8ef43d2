// MessageAccumulator: bytes in, cumulative snapshots out.
//
// Design
// ------
// A synchronous push pipeline with no per-byte calls across layers:
//
//   feed(bytes) ─► SSEParser ─► usual delta block? ─ yes ─► HotBlocks (framing and JSON in one step)
//                             └─► event view (data borrowed from the chunk)
//          or  ─► AWSEventStreamParser ─► usual chunk? ─ yes ─► HotChunks (framing, base64, event in one step)
//                             └─► BedrockEventDecoder ─► event (base64 decoded) ┤
//                                  │
//                 hot delta? ──────┼─ yes ─► HotDeltaScanner ─► append payload
//                 start/stop/ping? ┼─ yes ─► BoundaryEvent ─► apply (no tree)
//                                  └─ no ──► JSONValue.parse ─► apply by `type`
//
// State the snapshot does not need (the SSE parser, the block being
// streamed with its incremental JSON parser, the scanner's buffer) stays
// here; the snapshot holds only shared, append-only storage.
// After the first failure the accumulator is stopped: every later call
// reports the same error, which carries the snapshot built before it.

public import AWSEventStream
public import IncrementalJSON
public import ServerSentEvents
import _ScanAcceleration

/// Which text blocks carry structured output (JSON to parse as it streams).
public enum StructuredOutputSelection: Sendable, Hashable {
    /// No text block is parsed as JSON.
    case none
    /// Every text block is parsed (for `output_config.format` responses).
    case allTextBlocks
    /// Only the text blocks at these content indices.
    case blocks(Set<Int>)

    func includes(_ index: Int) -> Bool {
        switch self {
        case .none: false
        case .allTextBlocks: true
        case .blocks(let set): set.contains(index)
        }
    }
}

/// How a ``MessageAccumulator`` reads its stream.
public struct MessageAccumulatorOptions: Sendable, Hashable {
    /// Limits on SSE lines and events.
    public var sseLimits: SSELimits
    /// Options for every JSON text it parses (event data, tool input,
    /// structured output): nesting depth and size limits.
    public var json: JSONParserOptions
    /// Accept a new `message_start` after `message_stop` (recordings of
    /// multi-step runs). Without it that is a protocol violation.
    public var allowsSequentialMessages: Bool
    /// Which text blocks to parse as JSON.
    public var structuredOutput: StructuredOutputSelection
    /// Most content blocks one message may have, counting those that arrive
    /// already filled in `message_start`; more is a protocol violation.
    public var maxBlocks: Int
    /// Most bytes the deltas of one message may add; more is a protocol
    /// violation. Every delta counts, whatever its type: a text, input JSON,
    /// thinking or signature delta counts its payload (the text it appends);
    /// any other `content_block_delta` (citations, compaction, types this
    /// package does not know, which are kept) and every `message_delta`
    /// count the bytes of their event's data. Each event is bounded by the
    /// SSE limits, this bounds their sum, so a stream that never ends cannot
    /// grow a message without bound.
    public var maxMessageBytes: Int
    /// Given to every message's snapshots (``MessageSnapshot/metadata``).
    public var responseMetadata: ResponseMetadata
    /// How the events are framed: SSE (Anthropic API, Vertex AI) or the AWS
    /// event stream (Amazon Bedrock). See ``EventFraming/detect(_:)``.
    public var framing: EventFraming
    /// Limits on AWS event-stream messages (with `.awsEventStream` framing).
    public var eventStreamLimits: AWSEventStreamLimits

    /// Options with the given limits and choices; every default suits the Anthropic API over SSE.
    ///
    /// - Parameters:
    ///   - sseLimits: SSE line and event limits (16 MiB and 64 MiB).
    ///   - json: limits of every JSON text parsed.
    ///   - allowsSequentialMessages: accept several messages in one stream.
    ///   - structuredOutput: which text blocks to parse as JSON.
    ///   - maxBlocks: most content blocks a message may have (100,000).
    ///   - maxMessageBytes: most bytes the deltas of one message may add (256 MiB).
    ///   - responseMetadata: given to every snapshot.
    ///   - framing: SSE or the AWS event stream.
    ///   - eventStreamLimits: AWS event-stream limits (with `.awsEventStream`).
    public init(
        sseLimits: SSELimits = SSELimits(),
        json: JSONParserOptions = JSONParserOptions(),
        allowsSequentialMessages: Bool = false,
        structuredOutput: StructuredOutputSelection = .none,
        maxBlocks: Int = 100_000,
        maxMessageBytes: Int = 256 << 20,
        responseMetadata: ResponseMetadata = ResponseMetadata(),
        framing: EventFraming = .serverSentEvents,
        eventStreamLimits: AWSEventStreamLimits = AWSEventStreamLimits()
    ) {
        self.responseMetadata = responseMetadata
        self.sseLimits = sseLimits
        self.json = json
        self.allowsSequentialMessages = allowsSequentialMessages
        self.structuredOutput = structuredOutput
        self.maxBlocks = maxBlocks
        self.maxMessageBytes = maxMessageBytes
        self.framing = framing
        self.eventStreamLimits = eventStreamLimits
    }
}

/// Turns the bytes of a Messages API stream into cumulative snapshots.
///
/// Feed chunks of any size as they arrive; after every event that changes
/// the message you get the whole message as it stands. Bad input never
/// traps: it throws a ``MessageStreamError`` saying where and what, carrying
/// the snapshot built so far.
///
/// - Complexity: O(n) over the whole stream; a snapshot costs O(open blocks).
public struct MessageAccumulator: Sendable {
    /// The options the accumulator was made with.
    public let options: MessageAccumulatorOptions
    var sse: SSEParser
    var bedrock: BedrockEventDecoder
    var state: AccumulatorState

    /// An accumulator at the start of a stream, reading it as `options` says.
    public init(options: MessageAccumulatorOptions = MessageAccumulatorOptions()) {
        self.init(options: options, readsUsualEvents: _scan_general_path() == 0)
    }

    /// For fuzzers and tests: an accumulator whose SSE events all go
    /// through the SSE parser's lines and the full JSON parser (no usual
    /// block, delta or boundary event read in one step), whatever the
    /// general-path switch says, so that one process can hold the fast
    /// readers to the general path on the same bytes. Not API: behind the
    /// `FuzzTesting` SPI.
    @_spi(FuzzTesting) public static func _generalPathOnly(options: MessageAccumulatorOptions) -> MessageAccumulator {
        MessageAccumulator(options: options, readsUsualEvents: false)
    }

    private init(options: MessageAccumulatorOptions, readsUsualEvents: Bool) {
        self.options = options
        sse = SSEParser(limits: options.sseLimits, readsWholeBlocks: readsUsualEvents)
        bedrock = BedrockEventDecoder(limits: options.eventStreamLimits, readsUsualChunks: readsUsualEvents)
        state = AccumulatorState(options: options, readsUsualEvents: readsUsualEvents)
    }

    /// The message as it stands (nil before `message_start`).
    public var snapshot: MessageSnapshot? { state.current }

    /// Messages that reached `message_stop`, in order (with
    /// ``MessageAccumulatorOptions/allowsSequentialMessages``, several).
    public var completedMessages: [MessageSnapshot] { state.completed }

    /// Number of events dispatched so far (SSE events, or Bedrock chunks).
    public var eventCount: Int { state.eventIndex }

    /// Feeds a chunk and calls `onSnapshot` after each event that changed
    /// the message.
    ///
    /// - Complexity: O(`bytes.count`) plus O(open blocks) per snapshot.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, onSnapshot: (MessageSnapshot) -> Void
    ) throws(MessageStreamError) {
        try feedBytes(bytes, emitsSnapshots: true, onSnapshot: onSnapshot)
    }

    /// Feeds a chunk without handing out snapshots (read ``snapshot`` when
    /// you need one).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(MessageStreamError) {
        try feedBytes(bytes, emitsSnapshots: false) { _ in }
    }

    private mutating func feedBytes(
        _ bytes: UnsafeRawBufferPointer, emitsSnapshots: Bool, onSnapshot: (MessageSnapshot) -> Void
    ) throws(MessageStreamError) {
        if state.hasFailed, let failure = state.failure { throw failure }
        // The framing is moved out (its placeholder holds nothing) so that
        // the event closures can change `state` while it runs; `state`
        // itself stays in place. (Moving it out too needed a placeholder
        // state, whose snapshot, shared, took two atomic retains on every
        // feed from every thread.) The closures use `self.state` directly: a
        // local function capturing state from inside a closure made the
        // compiler box it and check exclusivity at run time.
        switch options.framing {
        case .serverSentEvents:
            var parser = sse
            sse = SSEParser(limits: options.sseLimits)
            defer { sse = parser }
            do {
                // The usual delta blocks are read whole (HotBlocks.swift);
                // every other block comes through the parser's events.
                try parser.feed(bytes) { rest, offset in
                    guard !state.hasFailed else { return 0 }
                    return state.readHotBlocks(rest, at: offset, emitsSnapshots: emitsSnapshots, onSnapshot: onSnapshot)
                } onEvent: { view in
                    guard !state.hasFailed, state.apply(view), emitsSnapshots, state.hasMessage else { return }
                    onSnapshot(state.message)
                }
            } catch {
                state.fail(.framing(error), eventIndex: nil, byteOffset: error.offset)
            }
        case .awsEventStream:
            var decoder = bedrock
            bedrock = BedrockEventDecoder(limits: options.eventStreamLimits, readsUsualChunks: false)
            defer { bedrock = decoder }
            do throws(BedrockFailure) {
                // The usual chunks are read whole (HotChunks.swift); every
                // other message comes through the decoder's events.
                try decoder.feed(bytes, options: options.json) { rest, offset, event in
                    guard !state.hasFailed else { return (0, 0) }
                    return state.readHotChunks(rest, at: offset, event: &event, emitsSnapshots: emitsSnapshots, onSnapshot: onSnapshot)
                } onEvent: { event, end in
                    guard !state.hasFailed, state.apply(event, streamOffset: end), emitsSnapshots, state.hasMessage
                    else { return }
                    onSnapshot(state.message)
                }
            } catch {
                state.fail(error)
            }
        }
        if state.hasFailed, let failure = state.failure { throw failure }
    }

    /// Feeds a chunk; returns the latest snapshot if any event changed it.
    public mutating func feed(_ bytes: [UInt8]) throws(MessageStreamError) -> MessageSnapshot? {
        var latest: MessageSnapshot?
        var failure: MessageStreamError?
        bytes.withUnsafeBytes { raw in
            do throws(MessageStreamError) { try feed(raw) { latest = $0 } } catch { failure = error }
        }
        if let failure { throw failure }
        return latest
    }

    /// Ends the stream. Returns the last message when it reached
    /// `message_stop`; otherwise throws ``MessageStreamError/Kind/incomplete``
    /// with the snapshot as it stands.
    public mutating func finish() throws(MessageStreamError) -> MessageSnapshot {
        if let failure = state.failure { throw failure }
        var consumed = sse.bytesConsumed
        if options.framing == .awsEventStream {
            consumed = bedrock.bytesConsumed
            if let truncated = bedrock.parser.finish() {
                state.fail(.eventStreamFraming(truncated), eventIndex: nil, byteOffset: truncated.offset)
                throw state.failure ?? MessageStreamError(kind: .eventStreamFraming(truncated), eventIndex: nil, byteOffset: 0, snapshot: nil)
            }
        } else {
            _ = sse.finish()
        }
        guard let current = state.current, current.isComplete else {
            state.fail(.incomplete, eventIndex: nil, byteOffset: consumed)
            throw state.failure ?? MessageStreamError(kind: .incomplete, eventIndex: nil, byteOffset: 0, snapshot: nil)
        }
        return current
    }
}

/// Everything the accumulator knows besides SSE framing.
struct AccumulatorState: Sendable {
    enum Phase: Sendable { case beforeMessage, streaming, stopped }

    let options: MessageAccumulatorOptions
    /// The message being built, valid when `hasMessage` (before the first
    /// `message_start` it is an empty placeholder). Not an optional: a
    /// snapshot handed out of an optional is a copy, four retains and four
    /// releases an event; the stored value is lent as it is.
    var message = MessageSnapshot(start: .null, messageIndex: 0)
    var hasMessage = false
    /// The message, or nil before the first `message_start`.
    var current: MessageSnapshot? { hasMessage ? message : nil }
    var completed: [MessageSnapshot] = []
    var phase: Phase = .beforeMessage
    var eventIndex = 0
    /// Bytes the deltas of the current message have added.
    var messageBytes = 0
    /// Data bytes of the event being applied (what a non-hot delta counts).
    var eventDataBytes = 0
    var failure: MessageStreamError? {
        didSet { hasFailed = failure != nil }
    }
    /// `failure != nil`, kept apart: the event loops ask it on every event,
    /// and comparing the optional error with nil copied it out each time.
    private(set) var hasFailed = false
    /// The block being streamed, the one writer of its state.
    var streaming = StreamingBlocks()
    var scanner = HotDeltaScanner()

    /// Whether any text block is structured output (`options`' selection
    /// is not `.none`), asked once here rather than on every text delta.
    let parsesStructuredOutput: Bool

    /// Whether the usual deltas and the block starts, stops and pings are
    /// read without a tree (off with `CLAUDE_STREAMING_GENERAL_PATH`:
    /// every event is parsed).
    let readsUsualEvents: Bool

    init(options: MessageAccumulatorOptions, readsUsualEvents: Bool) {
        self.options = options
        parsesStructuredOutput = options.structuredOutput != .none
        self.readsUsualEvents = readsUsualEvents
    }

    mutating func fail(_ kind: MessageStreamError.Kind, eventIndex: Int?, byteOffset: Int) {
        guard !hasFailed else { return }
        failure = MessageStreamError(
            kind: kind, eventIndex: eventIndex, byteOffset: byteOffset,
            snapshot: current, completedMessages: completed)
    }

    /// Applies one SSE event; returns true when the message changed.
    mutating func apply(_ view: borrowing SSEEventView) -> Bool {
        apply(view.data, streamOffset: view.streamOffset)
    }

    /// Applies one event's JSON, from either framing; `streamOffset` is
    /// where its frame ends. Returns true when the message changed.
    mutating func apply(_ data: UnsafeRawBufferPointer, streamOffset: Int) -> Bool {
        // The usual delta first, then the block starts, stops and pings
        // (BoundaryEvents.swift); only what neither reads is parsed into a
        // tree.
        if readsUsualEvents, let delta = scanCanonicalDelta(data) {
            return applyEventDelta(delta, data: data, streamOffset: streamOffset)
        }
        let index = eventIndex
        eventIndex += 1
        do throws(EventFailure) {
            eventDataBytes = data.count
            if readsUsualEvents, let changed = try applyBoundary(data) { return changed }
            let event: JSONValue
            do throws(JSONParseError) {
                event = try JSONValue.parse(data, options: options.json)
            } catch {
                throw .kind(.invalidEventJSON(error))
            }
            return try applyParsed(event)
        } catch {
            switch error {
            case .kind(let kind): fail(kind, eventIndex: index, byteOffset: streamOffset)
            }
            return false
        }
    }
}

extension AccumulatorState {
    /// Applies a delta the scanner read as a whole event (`data`) as the next
    /// event, a failure recorded at `streamOffset`; returns whether it applied.
    @inline(__always)
    mutating func applyEventDelta(_ delta: HotDelta, data: UnsafeRawBufferPointer, streamOffset: Int) -> Bool {
        let index = eventIndex
        eventIndex &+= 1
        do throws(EventFailure) {
            try applyHotDelta(delta, data: data)
        } catch {
            switch error {
            case .kind(let kind): fail(kind, eventIndex: index, byteOffset: streamOffset)
            }
            return false
        }
        return true
    }

    /// Applies a delta the scanner read from `data` (its payload lies in
    /// `data`, in the scanner's buffer, or in the live block's room).
    @inline(__always)
    mutating func applyHotDelta(_ delta: HotDelta, data: UnsafeRawBufferPointer) throws(EventFailure) {
        switch delta.place {
        case .data:
            let payload = UnsafeRawBufferPointer(rebasing: data[delta.payloadRange])
            try applyDelta(delta.kind, payload: payload.bindMemory(to: UInt8.self), at: delta.index)
            return
        case .room(let start):
            try applyDeltaInRoom(UnsafeBufferPointer(start: start, count: delta.payloadRange.count))
            return
        case .scratch:
            break
        }
        let unescaped = scanner.unescapedBuffer
        var failure: EventFailure?
        unescaped.withUnsafeBufferPointer { buffer in
            do throws(EventFailure) {
                try applyDelta(delta.kind, payload: UnsafeBufferPointer(rebasing: buffer[delta.payloadRange]), at: delta.index)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

/// A failure inside one event, before it gets its place.
enum EventFailure: Error {
    case kind(MessageStreamError.Kind)

    static func violation(_ what: String) -> EventFailure { .kind(.protocolViolation(what)) }
}
