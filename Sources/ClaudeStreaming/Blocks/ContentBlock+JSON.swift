// From a block's start JSON to a typed block, and back to API JSON.
//
// The way back writes only the fields that deltas build (text, thinking,
// signature, citations, input, compaction fields) over the verbatim start
// object, keeping its key order; everything else is the start object's own.

public import IncrementalJSON

extension ContentBlock {
    /// Types a block from its `content_block_start` object (or an entry of
    /// `message_start`'s content, which arrives `complete`).
    static func fromStart(_ start: JSONValue, isComplete: Bool) -> ContentBlock {
        let type = start["type"]?.stringValue ?? ""
        switch type {
        case "text":
            var citations = AppendOnlyArray<Citation>()
            if let list = start["citations"]?.arrayValue {
                for item in list { citations.append(Citation(json: item)) }
            }
            return .text(TextBlock(
                start: start, text: AppendOnlyText(start["text"]?.stringValue ?? ""),
                citations: citations, hasCitationDeltas: false,
                structuredValue: nil, structuredError: nil, isComplete: isComplete))
        case "thinking":
            return .thinking(ThinkingBlock(
                start: start, thinking: AppendOnlyText(start["thinking"]?.stringValue ?? ""),
                signature: nil, isComplete: isComplete))
        case "tool_use", "server_tool_use", "mcp_tool_use":
            return .toolUse(ToolUseBlock(
                start: start, kind: ToolUseBlock.Kind(rawValue: type) ?? .toolUse,
                id: start["id"]?.stringValue ?? "", name: start["name"]?.stringValue ?? "",
                input: start["input"] ?? JSONValue.object([]), inputJSON: AppendOnlyText(),
                inputError: nil, isComplete: isComplete))
        case "compaction":
            return .compaction(CompactionBlock(start: start, latestDelta: nil, isComplete: isComplete))
        case "fallback":
            return .fallback(FallbackBlock(
                start: start, fromModel: start["from"]?["model"]?.stringValue,
                toModel: start["to"]?["model"]?.stringValue, trigger: start["trigger"],
                isComplete: isComplete))
        case "redacted_thinking":
            return .redactedThinking(OpaqueBlock(start: start, type: type, unknownDeltas: [], isComplete: isComplete))
        case "container_upload":
            return .containerUpload(OpaqueBlock(start: start, type: type, unknownDeltas: [], isComplete: isComplete))
        default:
            if type.hasSuffix("_tool_result"), let id = start["tool_use_id"]?.stringValue {
                return .toolResult(ToolResultBlock(start: start, type: type, toolUseID: id, isComplete: isComplete))
            }
            return .unknown(OpaqueBlock(start: start, type: type, unknownDeltas: [], isComplete: isComplete))
        }
    }

    /// The block as the non-streaming API returns it: ready to send back as
    /// part of the assistant turn. Opaque fields are the start object's own.
    ///
    /// - Complexity: O(size of the block).
    public var json: JSONValue {
        switch self {
        case .text(let b):
            var fields: [(String, JSONValue)] = [("text", .string(b.text.string))]
            // Streamed fields are written over the start object only when
            // they differ from what it already says: a start with the key
            // twice (different values, the last one counting) then encodes
            // the same before and after a round trip through this JSON.
            if b.hasCitationDeltas {
                let citations = JSONValue.array(b.citations.map(\.json))
                if b.start["citations"] != citations { fields.append(("citations", citations)) }
            }
            return b.start._replacingFields(fields)
        case .thinking(let b):
            var fields: [(String, JSONValue)] = [("thinking", .string(b.thinking.string))]
            if let signature = b.signature, b.start["signature"]?.stringValue != signature {
                fields.append(("signature", .string(signature)))
            }
            return b.start._replacingFields(fields)
        case .toolUse(let b):
            return b.start._replacingFields([("input", b.finalInput)])
        case .compaction(let b):
            guard let delta = b.latestDelta?.objectValue else { return b.start }
            return b.start._replacingFields(delta.entries.filter { $0.key != "type" }.map { ($0.key, $0.value) })
        case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): return b.start
        case .toolResult(let b): return b.start
        case .fallback(let b): return b.start
        }
    }
}

extension ToolUseBlock {
    /// The input to replay: the parsed value when the text was valid JSON;
    /// the start's input when no delta carried text; otherwise (the text is
    /// invalid or was cut off) the part of it that parsed, with a string that
    /// never closed left out, as the official SDKs do.
    public var finalInput: JSONValue {
        if inputJSON.isEmpty { return start["input"] ?? .object([]) }
        if inputError == nil && input.isComplete { return input }
        return inputJSON.utf8.withUnsafeBufferPointer { bytes in
            var parser = IncrementalJSONParser(options: JSONParserOptions(partialStrings: .hidden))
            let end = Swift.min(inputError?.offset ?? bytes.count, bytes.count)
            do throws(JSONParseError) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<end]))
            } catch {
                return JSONValue.object([])
            }
            return parser.value.map(\._closed) ?? JSONValue.object([])
        }
    }
}

extension JSONValue {
    /// An object with `fields` written over this one's: a key it has keeps
    /// its place (every place, if the key is duplicated, so that whichever
    /// one a reader takes is the new value), a new key goes at the end. Not
    /// an object: returned as is.
    ///
    /// - Complexity: O(members + fields) amortised (80,000 delta fields took
    ///   15.6 s with a scan of the members per field).
    public func _replacingFields(_ fields: [(String, JSONValue)]) -> JSONValue {
        guard let object = objectValue else { return self }
        var entries: [(String, JSONValue)] = object.entries.map { ($0.key, $0.value) }
        var positions: [String: [Int]] = [:]
        for (at, entry) in entries.enumerated() { positions[entry.0, default: []].append(at) }
        for (key, value) in fields {
            if let places = positions[key] {
                for at in places { entries[at].1 = value }
            } else {
                positions[key] = [entries.count]
                entries.append((key, value))
            }
        }
        return .object(entries)
    }

    /// The value re-marked complete all the way down, as its compact JSON
    /// encoding presents it (open nodes closed).
    var _closed: JSONValue {
        var bytes: [UInt8] = []
        encodeCompact(into: &bytes)
        return (try? JSONValue.parse(bytes)) ?? self
    }
}
