import IncrementalJSON

// Block-level events, derived from consecutive cumulative snapshots: what is
// new in each block is the tail of its append-only text past what the last
// snapshot had, so nothing is parsed a second time and a consumer that skips
// snapshots (a slow reader of a newest-only stream) still sees every byte.

/// Something that happened to a message's content.
public enum BlockEvent: Sendable, Hashable {
    /// Block `index` began; `type` is its `type`.
    case blockStarted(index: Int, type: String)
    /// Text added to text block `index`.
    case text(index: Int, String)
    /// Thinking text added to block `index`.
    case thinking(index: Int, String)
    /// Input JSON text added to tool call block `index`.
    case inputJSON(index: Int, String)
    /// A citation added to text block `index`.
    case citation(index: Int, Citation)
    /// Block `index` stopped.
    case blockStopped(index: Int)
    /// The message stopped, with its stop reason.
    case messageStopped(stopReason: String?)
}

/// Turns successive snapshots into the events between them; the snapshots
/// may belong to several messages, one after another (the rounds of a
/// session mapped to their messages, a recording of several responses).
///
/// A snapshot continues the message of the one before it when it has the
/// same ``MessageSnapshot/messageIndex`` and ``MessageSnapshot/id``, the one
/// before was not complete, and nothing in it is shorter than what was
/// reported: at least as many blocks, each of the same type, with at least
/// as much text, thinking, input JSON and citations. (A copy of a complete
/// snapshot, handed over again, adds nothing.) Any other snapshot
/// begins a new message: its events start again at block 0, after the
/// previous message's ``BlockEvent/messageStopped(stopReason:)`` when that
/// message had one. So the text of every message comes out once, as long
/// as each message's last snapshot is in the sequence.
public struct BlockEventDeriver: Sendable {
    /// Per block: its type, bytes of text reported, citations reported, whether it stopped.
    private var seen: [(type: String, bytes: Int, citations: Int, stopped: Bool)] = []
    private var messageStopped = false
    /// The header of the snapshot the events were last derived from (not
    /// the snapshot: holding its content would make the accumulator copy
    /// the live block's storage at its next event).
    private var lastHeader: MessageHeaderBox?

    /// A deriver that has seen no snapshot yet.
    public init() {}

    /// The events from the previous snapshot to `snapshot`.
    ///
    /// - Complexity: O(blocks + new bytes).
    public mutating func events(to snapshot: MessageSnapshot) -> [BlockEvent] {
        if !continuesMessage(snapshot) {
            seen = []
            messageStopped = false
        }
        lastHeader = snapshot.header
        var events: [BlockEvent] = []
        for (index, block) in snapshot.content.enumerated() {
            if index >= seen.count {
                seen.append((block.type, 0, 0, false))
                events.append(.blockStarted(index: index, type: block.type))
            }
            switch block {
            case .text(let b):
                if let new = Self.tail(b.text, after: &seen[index].bytes) { events.append(.text(index: index, new)) }
                while seen[index].citations < b.citations.count {
                    events.append(.citation(index: index, b.citations[seen[index].citations]))
                    seen[index].citations += 1
                }
            case .thinking(let b):
                if let new = Self.tail(b.thinking, after: &seen[index].bytes) { events.append(.thinking(index: index, new)) }
            case .toolUse(let b):
                if let new = Self.tail(b.inputJSON, after: &seen[index].bytes) { events.append(.inputJSON(index: index, new)) }
            default:
                break
            }
            if block.isComplete, !seen[index].stopped {
                seen[index].stopped = true
                events.append(.blockStopped(index: index))
            }
        }
        if snapshot.isComplete, !messageStopped {
            messageStopped = true
            events.append(.messageStopped(stopReason: snapshot.stopReason))
        }
        return events
    }

    /// Whether `snapshot` continues the message of the previous one (see the type's rule).
    ///
    /// - Complexity: O(blocks); O(1) for a repeat of a complete snapshot.
    private func continuesMessage(_ snapshot: MessageSnapshot) -> Bool {
        guard let lastHeader else { return false }
        let last = lastHeader.value
        guard snapshot.messageIndex == last.messageIndex, snapshot.id == last.start["id"]?.stringValue ?? "" else { return false }
        // A complete message never changes: only a copy of its snapshot (the
        // same header box) continues it; an equal message built anew is another.
        if last.isComplete { return snapshot.header === lastHeader }
        guard snapshot.content.count >= seen.count else { return false }
        for (index, reported) in seen.enumerated() {
            guard let block = snapshot.content.block(at: index), block.type == reported.type,
                !(reported.stopped && !block.isComplete)
            else { return false }
            switch block {
            case .text(let b):
                if b.text.utf8Count < reported.bytes || b.citations.count < reported.citations { return false }
            case .thinking(let b):
                if b.thinking.utf8Count < reported.bytes { return false }
            case .toolUse(let b):
                if b.inputJSON.utf8Count < reported.bytes { return false }
            default:
                break
            }
        }
        return true
    }

    /// The text past `offset` up to the last whole character, advancing `offset`.
    static func tail(_ text: AppendOnlyText, after offset: inout Int) -> String? {
        text.withUTF8 { bytes -> String? in
            guard bytes.count > offset else { return nil }
            var end = bytes.count
            // Hold back a character whose bytes have not all arrived.
            var back = end - 1
            while back > offset, bytes[back] & 0xC0 == 0x80 { back -= 1 }
            let lead = bytes[back]
            let width = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if end - back < width { end = back }
            guard end > offset else { return nil }
            let new = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            offset = end
            return new
        }
    }
}

/// The block events of a sequence of snapshots of one or more messages.
public struct BlockEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == MessageSnapshot {
    public typealias Element = BlockEvent
    public typealias Failure = Base.Failure

    let base: Base

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Reads the base's snapshots and hands out the events between them.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var deriver = BlockEventDeriver()
        var pending: [BlockEvent] = []
        var next = 0

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Base.Failure) -> BlockEvent? {
            while next == pending.count {
                guard let snapshot = try await base.next(isolation: actor) else { return nil }
                pending = deriver.events(to: snapshot)
                next = 0
            }
            defer { next += 1 }
            return pending[next]
        }
    }
}

extension BlockEventSequence: Sendable where Base: Sendable {}

/// The text of a sequence of snapshots as it arrives, one piece per new tail.
public struct TextDeltaSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == MessageSnapshot {
    public typealias Element = String
    public typealias Failure = Base.Failure

    let base: BlockEventSequence<Base>

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Reads block events and hands out the text pieces among them.
    public struct Iterator: AsyncIteratorProtocol {
        var base: BlockEventSequence<Base>.Iterator

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Base.Failure) -> String? {
            while let event = try await base.next(isolation: actor) {
                if case .text(_, let text) = event { return text }
            }
            return nil
        }
    }
}

extension TextDeltaSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element == MessageSnapshot {
    /// Block started, text, input JSON, citation, block stopped, message
    /// stopped; over snapshots of several messages, each message's events
    /// in turn, from block 0 (``BlockEventDeriver`` says when a snapshot
    /// begins a new message).
    public var blockEvents: BlockEventSequence<Self> { BlockEventSequence(base: self) }
    /// The text of the text blocks as it arrives, of every message in the
    /// sequence (the rounds of a tool loop, the final answer included).
    public var textDeltas: TextDeltaSequence<Self> { TextDeltaSequence(base: BlockEventSequence(base: self)) }
}
