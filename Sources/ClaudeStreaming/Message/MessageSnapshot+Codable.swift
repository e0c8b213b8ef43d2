// Snapshots as Codable values, and structured-output decoding.
//
// The coded form is `{"message": "<message as compact API JSON>", "complete":
// Bool, "open_blocks": [index…]}`. The message travels as JSON *text* because
// Codable containers do not keep key order or number text, and replay must
// be exact. Decoding rebuilds the blocks the way `message_start` content is
// read, so a round trip gives the same API JSON.

public import IncrementalJSON

extension MessageSnapshot: Codable {
    private enum CodingKeys: String, CodingKey {
        case message, complete
        case openBlocks = "open_blocks"
        case messageIndex = "message_index"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .message)
        let message: JSONValue
        do throws(JSONParseError) {
            message = try JSONValue.parse(text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .message, in: container, debugDescription: "\(error)")
        }
        guard message.objectValue != nil else {
            throw DecodingError.dataCorruptedError(forKey: .message, in: container, debugDescription: "not a JSON object")
        }
        let open = Set(try container.decodeIfPresent([Int].self, forKey: .openBlocks) ?? [])
        self.init(messageJSON: message, openBlocks: open)
        messageIndex = try container.decodeIfPresent(Int.self, forKey: .messageIndex) ?? 0
        isComplete = try container.decode(Bool.self, forKey: .complete)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageJSON().compactJSON, forKey: .message)
        try container.encode(isComplete, forKey: .complete)
        let open = content.indices.filter { !content[$0].isComplete }
        if !open.isEmpty { try container.encode(open, forKey: .openBlocks) }
        if messageIndex != 0 { try container.encode(messageIndex, forKey: .messageIndex) }
    }

    /// A snapshot of a whole message given as API JSON (a non-streaming
    /// response, or a stored final snapshot). Blocks listed in `openBlocks`
    /// are marked still streaming.
    public init(messageJSON: JSONValue, openBlocks: Set<Int> = []) {
        var start = messageJSON.replacingFields([("content", .array([]))])
        // `model` names the model that served; the one first asked is the
        // `from` of the first fallback, when a fallback handed over at all.
        let fallbacks = (messageJSON["content"]?.arrayValue.map(Array.init) ?? [])
            .filter { $0["type"]?.stringValue == "fallback" }
        if fallbacks.contains(where: { $0["to"]?["model"]?.stringValue != nil }),
            let from = fallbacks.first?["from"]?["model"], from.stringValue != nil
        {
            start = start.replacingFields([("model", from)])
        }
        self.init(start: start, messageIndex: 0)
        var blocks: [ContentBlock] = []
        for (index, block) in (messageJSON["content"]?.arrayValue.map(Array.init) ?? []).enumerated() {
            var typed = ContentBlock.fromStart(block, isComplete: !openBlocks.contains(index))
            typed.adoptStreamedFields(from: block)
            blocks.append(typed)
        }
        content = ContentList(blocks)
        usage = Usage(messageJSON["usage"] ?? .object([]))
        isComplete = true
    }

    /// The structured output decoded into `type` (a "partial" type whose
    /// properties are all optional works at any moment; a complete type once
    /// the text is complete). Nil when no selected text block has a value yet.
    public func decodeStructuredOutput<T: Decodable>(
        _ type: T.Type, using decoder: JSONValueDecoder = JSONValueDecoder()
    ) throws -> T? {
        guard let value = structuredOutput else { return nil }
        return try decoder.decode(type, from: value)
    }

    /// The partial value of the first text block selected for structured output.
    public var structuredOutput: JSONValue? {
        for block in content {
            if case .text(let t) = block, let value = t.structuredValue { return value }
        }
        return nil
    }
}

extension ContentBlock {
    /// For a block read from whole JSON: take the streamed fields (signature,
    /// tool input text) as given, so the block encodes back to the same JSON.
    mutating func adoptStreamedFields(from json: JSONValue) {
        switch self {
        case .thinking(var b):
            b.signature = json["signature"]?.stringValue
            self = .thinking(b)
        case .text(var b):
            if json["citations"]?.arrayValue != nil { b.hasCitationDeltas = true }
            self = .text(b)
        default:
            break
        }
    }
}
