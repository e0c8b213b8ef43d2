// MessageSnapshot: the whole response as it stands after one event.
//
// Snapshots are cumulative (never deltas) and cheap: every field is either
// small or shared with the accumulator through append-only storage, so taking
// one after every event costs O(open blocks), and holding all of them holds
// the text once.

public import IncrementalJSON

/// The message as built so far.
public struct MessageSnapshot: Sendable, Hashable {
    /// Fields that change a few times per message live in one shared box, so
    /// a snapshot is the box and the content list: 40 bytes to copy or hold (x86_64).
    var header: MessageHeaderBox
    /// The content blocks so far, in index order.
    public internal(set) var content: ContentList

    /// True once `message_stop` arrived.
    public internal(set) var isComplete: Bool {
        get { header.value.isComplete }
        set { mutateHeader { $0.isComplete = newValue } }
    }
    /// Position of this message in its stream (0 unless the caller allowed
    /// several messages in one stream).
    public internal(set) var messageIndex: Int {
        get { header.value.messageIndex }
        set { mutateHeader { $0.messageIndex = newValue } }
    }

    /// The `message` object of `message_start`, verbatim (its `content` is
    /// replaced by ``content`` and its top-level fields by later deltas).
    public internal(set) var start: JSONValue {
        get { header.value.start }
        set { mutateHeader { $0.start = newValue } }
    }
    /// `message_delta`'s `stop_reason` (`end_turn`, `tool_use`, `max_tokens`, `pause_turn`, …), nil until it arrived.
    public internal(set) var stopReason: String? {
        get { header.value.stopReason }
        set { mutateHeader { $0.stopReason = newValue } }
    }
    /// The stop sequence that ended the message, when one did.
    public internal(set) var stopSequence: String? {
        get { header.value.stopSequence }
        set { mutateHeader { $0.stopSequence = newValue } }
    }
    /// `{type: "refusal", category, explanation}` when the model refused.
    public internal(set) var stopDetails: JSONValue? {
        get { header.value.stopDetails }
        set { mutateHeader { $0.stopDetails = newValue } }
    }
    /// Token usage: `message_start`'s, overwritten field by field by each `message_delta`.
    public internal(set) var usage: Usage {
        get { header.value.usage }
        set { mutateHeader { $0.usage = newValue } }
    }
    /// Top-level fields set by `message_delta` besides stop reason and
    /// sequence: `container`, `context_management`, … latest value per key.
    public var deltaFields: [String: JSONValue] { header.value.deltaFields }
    /// Top-level fields of `message_delta` events that are not part of the
    /// message (a gateway's metadata, say): kept, but not replayed.
    public internal(set) var otherEventFields: [String: JSONValue] {
        get { header.value.otherEventFields }
        set { mutateHeader { $0.otherEventFields = newValue } }
    }

    /// What the transport knew of the HTTP response (its `request-id`).
    public var metadata: ResponseMetadata { header.value.metadata }

    private mutating func mutateHeader(_ body: (inout MessageHeader) -> Void) {
        if !isKnownUniquelyReferenced(&header) { header = MessageHeaderBox(header.value) }
        body(&header.value)
    }

    /// The message's `id` (`msg_…`); empty when `message_start` had none.
    public var id: String { start["id"]?.stringValue ?? "" }
    /// The message's `role`: `assistant` unless `message_start` said otherwise.
    public var role: String { start["role"]?.stringValue ?? "assistant" }
    /// The model that `message_start` named (the first one asked).
    public var requestedModel: String { start["model"]?.stringValue ?? "" }

    /// The model that served the response: the `to` model of the last
    /// fallback handover, or the model `message_start` named.
    public var model: String {
        for block in content.reversed() {
            if case .fallback(let f) = block, let to = f.toModel { return to }
        }
        return requestedModel
    }

    /// Every fallback block, in content order.
    public var handovers: [FallbackHandover] {
        content.enumerated().compactMap { index, block in
            guard case .fallback(let f) = block else { return nil }
            return FallbackHandover(contentIndex: index, fromModel: f.fromModel, toModel: f.toModel, trigger: f.trigger)
        }
    }

    /// `container` as last set (by `message_start` or a `message_delta`).
    public var container: JSONValue? { deltaFields["container"] ?? start["container"] }
    /// `context_management` as last set.
    public var contextManagement: JSONValue? { deltaFields["context_management"] ?? start["context_management"] }

    /// The concatenated text of all text blocks.
    public var text: String { content.compactMap { if case .text(let t) = $0 { t.text.string } else { nil } }.joined() }

    /// The whole message as the non-streaming API returns it.
    ///
    /// A tool-use block whose input text is not valid JSON (its
    /// ``ToolUseBlock/inputError`` is set; ``inputErrors`` lists them) is
    /// written with the part of the input that parsed before the error, the
    /// member being parsed at the error left out, and no mark of the failure:
    /// `{"path":"notes.txt","recursive":false,"dry_run":trUE}` is written as
    /// `"input":{"path":"notes.txt","recursive":false}` (see
    /// ``ToolUseBlock/finalInput``). Check ``inputErrors`` before running or
    /// replaying such a call.
    ///
    /// - Complexity: O(size of the message).
    public func messageJSON() -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("model", .string(model)),
            ("content", content.json),
            ("stop_reason", stopReason.map(JSONValue.string) ?? .null),
            ("stop_sequence", stopSequence.map(JSONValue.string) ?? .null),
        ]
        if let stopDetails { fields.append(("stop_details", stopDetails)) }
        // A delta field never stands in for a field the snapshot owns: a
        // malformed `message_delta` carrying `content` or `usage` must not
        // replace the accumulated blocks (found by fuzz-replay).
        let owned: Set<String> = ["model", "content", "stop_reason", "stop_sequence", "stop_details", "usage"]
        for key in header.value.deltaFieldOrder where !owned.contains(key) {
            if let value = deltaFields[key] { fields.append((key, value)) }
        }
        fields.append(("usage", usage.json))
        return start.replacingFields(fields)
    }

    /// The content array, every opaque field verbatim: send it back as the
    /// assistant turn.
    public func contentJSON() -> JSONValue { content.json }

    init(start: JSONValue, messageIndex: Int, metadata: ResponseMetadata = ResponseMetadata()) {
        header = MessageHeaderBox(
            MessageHeader(
                start: start,
                stopReason: start["stop_reason"]?.stringValue,
                stopSequence: start["stop_sequence"]?.stringValue,
                stopDetails: start["stop_details"].flatMap { $0.isNull ? nil : $0 },
                usage: Usage(start["usage"] ?? .object([])), isComplete: false, messageIndex: messageIndex,
                metadata: metadata))
        content = ContentList()
        if let blocks = start["content"]?.arrayValue {
            for block in blocks { content.append(ContentBlock.fromStart(block, isComplete: true)) }
        }
    }

    mutating func setDeltaField(_ key: String, _ value: JSONValue) {
        mutateHeader { header in
            if header.deltaFields.updateValue(value, forKey: key) == nil { header.deltaFieldOrder.append(key) }
        }
    }

    // `==` and `hash(into:)` are in MessageSnapshot+Equality.swift.
}

/// The fields of a message besides its content.
struct MessageHeader: Sendable, Hashable {
    var start: JSONValue
    var stopReason: String?
    var stopSequence: String?
    var stopDetails: JSONValue?
    var usage: Usage
    var isComplete: Bool
    var messageIndex: Int
    var metadata = ResponseMetadata()
    var deltaFields: [String: JSONValue] = [:]
    var deltaFieldOrder: [String] = []
    var otherEventFields: [String: JSONValue] = [:]
}

/// Copy-on-write box for ``MessageHeader``.
final class MessageHeaderBox: @unchecked Sendable {
    // @unchecked: `value` is only mutated through `mutateHeader`, after a
    // uniqueness check, by the one snapshot that owns the box. For the same
    // reason the run-time exclusivity check of a class property is not
    // needed: it was a call into the runtime on every read of a field.
    @exclusivity(unchecked) var value: MessageHeader
    init(_ value: MessageHeader) { self.value = value }
}

/// Where one model declined and the next continued (a `fallback` block).
public struct FallbackHandover: Sendable, Hashable {
    /// Index of the `fallback` block in the content.
    public var contentIndex: Int
    /// The model that declined.
    public var fromModel: String?
    /// The model that continued.
    public var toModel: String?
    /// Why the handover happened (the block's `trigger`, verbatim).
    public var trigger: JSONValue?

    /// A handover at `contentIndex` from `fromModel` to `toModel`.
    public init(contentIndex: Int, fromModel: String?, toModel: String?, trigger: JSONValue?) {
        self.contentIndex = contentIndex
        self.fromModel = fromModel
        self.toModel = toModel
        self.trigger = trigger
    }
}
