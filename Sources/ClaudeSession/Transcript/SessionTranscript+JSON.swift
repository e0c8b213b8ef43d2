public import ClaudeTransport
public import IncrementalJSON

// A transcript on disk is the API's own JSON: the request body of the next
// turn (model, max_tokens, system, tools, tool_choice, every other field of
// the setup, and `messages`; no `stream`), plus ONE key the API has no field
// for, `session_metadata`:
//
//   "session_metadata": {
//     "format": 1,
//     "responses": [            // one per assistant turn the session received
//       {"message": 1,          //   its index in `messages`
//        "id": "msg_…", "model": "claude-sonnet-5",      // served by (after a fallback)
//        "requested_model": "claude-opus-5", "stop_reason": "tool_use",
//        "stop_sequence": null, "usage": {…as the API sent it…}, "request_id": "req_…"}],
//     "usage_by_model": {"claude-opus-5": {"input_tokens": 20, "output_tokens": 10,
//        "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}},  // written for readers; derived on read
//     "betas": ["…"], "user_profile_id": "…"             // request headers, when set
//   }
//
// Remove that key and the file is a body curl or an SDK can send. Any body
// without it (curl's, the Python SDK's, `--request`'s) reads as a
// conversation to continue: string or block content, tool_use/tool_result,
// thinking with its signature, unknown blocks (kept byte for byte).
//
// The reader and the writer share one limit: the writer refuses what the
// reader would (nesting deeper than `maxDepth`, more than `maxBytes`), so a
// file this writes is always read back. `maxDepth` leaves room above the
// parser's 512 for the body's own levels, so a tool input as deep as a
// stream may carry fits.

extension SessionTranscript {
    /// The one key of a transcript file that is not an API field.
    public static let metadataKey = "session_metadata"
    /// The deepest nesting a transcript may have, read or written: the
    /// streaming parser's 512 for a block's JSON, plus the body's levels
    /// around a block (body, messages, message, content, block) and a margin.
    public static let maxDepth = 512 + 8
    /// The most bytes a transcript may have, read or written (1 GiB).
    public static let maxBytes = 1 << 30

    /// Reads a transcript file, or any API request body. A body without
    /// `messages` is a setup: an empty conversation.
    ///
    /// - Parameters:
    ///   - bytes: the JSON text of the file or body.
    ///   - resolveModel: the model (and capabilities) a `model` string names.
    ///   - defaultModel: the model of a body without `model` (nil: such a body is refused).
    /// - Throws: ``TranscriptError`` with the byte offset (not JSON, too
    ///   deep, too large) or the field (not a request body, malformed
    ///   metadata, messages breaking the tool rules).
    /// - Complexity: O(size).
    public init(
        jsonBytes bytes: [UInt8], resolveModel: (String) -> ClaudeModel = ClaudeModel.resolving, defaultModel: ClaudeModel? = nil
    ) throws(TranscriptError) {
        guard bytes.count <= Self.maxBytes else { throw TranscriptError(.tooLarge(bytes: bytes.count)) }
        var options = JSONParserOptions()
        options.maxDepth = Self.maxDepth
        options.maxBytes = Self.maxBytes
        let value: JSONValue
        do throws(JSONParseError) { value = try JSONValue.parse(bytes, options: options) } catch {
            throw TranscriptError(.notJSON(error))
        }
        try self.init(apiJSON: value, resolveModel: resolveModel, defaultModel: defaultModel)
    }

    /// Reads a parsed transcript or API request body (see ``init(jsonBytes:resolveModel:defaultModel:)``).
    public init(
        apiJSON body: JSONValue, resolveModel: (String) -> ClaudeModel = ClaudeModel.resolving, defaultModel: ClaudeModel? = nil
    ) throws(TranscriptError) {
        guard let object = body.objectValue else {
            throw TranscriptError(.notARequestBody(RequestBodyError(path: "", reason: "a request body is a JSON object")))
        }
        let metadata = object[Self.metadataKey]
        var fields = object.entries.filter { $0.key != Self.metadataKey }.map { ($0.key, $0.value) }
        if object["messages"] == nil { fields.append(("messages", .array([]))) }
        if object["model"] == nil, let defaultModel { fields.insert(("model", .string(defaultModel.id)), at: 0) }
        let request: MessageRequest
        do throws(RequestBodyError) { request = try MessageRequest(apiJSON: .object(fields), resolveModel: resolveModel) } catch {
            throw TranscriptError(.notARequestBody(error))
        }
        try self.init(request: request)
        if let metadata { try applyMetadata(metadata) }
    }

    /// The transcript as a file: the API JSON described above, compact, with a final newline.
    ///
    /// - Throws: ``TranscriptError``: ``TranscriptError/Kind/tooDeep(depth:offset:)``
    ///   or ``TranscriptError/Kind/tooLarge(bytes:)`` where the reader would
    ///   refuse the result, ``TranscriptError/Kind/unwritableSetup(_:)``.
    /// - Complexity: O(size); replayed responses are copied as bytes.
    public func jsonBytes() throws(TranscriptError) -> [UInt8] {
        var bytes: [UInt8]
        do throws(RequestError) { bytes = try request.apiJSONBytes() } catch { throw TranscriptError(.unwritableSetup(error)) }
        let metadata = metadataJSON
        if metadata.objectValue?.isEmpty == false {
            bytes.removeLast()  // the body's closing brace
            bytes.append(contentsOf: ",\"\(Self.metadataKey)\":".utf8)
            metadata.encodeCompact(into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        guard bytes.count <= Self.maxBytes else { throw TranscriptError(.tooLarge(bytes: bytes.count)) }
        if let (depth, offset) = RawJSON.nestingExcess(in: bytes, limit: Self.maxDepth) {
            throw TranscriptError(.tooDeep(depth: depth, offset: offset))
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The API JSON of ``jsonBytes()``, as a value.
    public func apiJSON() throws(TranscriptError) -> JSONValue {
        let bytes = try jsonBytes()
        var options = JSONParserOptions()
        options.maxDepth = Self.maxDepth
        // What jsonBytes wrote parses within the same limits; null is unreachable.
        return (try? JSONValue.parse(bytes, options: options)) ?? .null
    }

    // MARK: The metadata key

    /// Where each response is in `messages`: (entry index, message index).
    var responsePlaces: [(entry: Int, message: Int)] {
        var places: [(Int, Int)] = []
        var message = 0
        var inUserTurn = false
        for (index, entry) in entries.enumerated() {
            switch entry {
            case .prompt, .toolOutput:
                inUserTurn = true
            case .response:
                if inUserTurn { message += 1 }
                inUserTurn = false
                places.append((index, message))
                message += 1
            }
        }
        return places
    }

    var metadataJSON: JSONValue {
        var responses: [JSONValue] = []
        for place in responsePlaces {
            guard case .response(let r) = entries[place.entry], !(r.id.isEmpty && r.model.isEmpty) else { continue }
            func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            var fields: [(String, JSONValue)] = [
                ("message", .number(JSONNumber(place.message))), ("id", .string(r.id)), ("model", .string(r.model)),
                ("requested_model", .string(r.requestedModel)), ("stop_reason", text(r.stopReason)),
                ("stop_sequence", text(r.stopSequence)), ("usage", r.usage.value),
            ]
            if let id = r.requestID { fields.append(("request_id", .string(id))) }
            responses.append(.object(fields))
        }
        var fields: [(String, JSONValue)] = []
        if !responses.isEmpty {
            let usage = usageByModel.sorted { $0.key < $1.key }.map { model, usage -> (String, JSONValue) in
                (
                    model,
                    .object([
                        ("input_tokens", .number(JSONNumber(usage.inputTokens))), ("output_tokens", .number(JSONNumber(usage.outputTokens))),
                        ("cache_creation_input_tokens", .number(JSONNumber(usage.cacheCreationInputTokens))),
                        ("cache_read_input_tokens", .number(JSONNumber(usage.cacheReadInputTokens))),
                    ])
                )
            }
            fields += [("responses", .array(responses)), ("usage_by_model", .object(usage))]
        }
        if !setup.betas.isEmpty { fields.append(("betas", .array(setup.betas.map(JSONValue.string)))) }
        if let profile = setup.userProfileID { fields.append(("user_profile_id", .string(profile))) }
        if fields.isEmpty { return .object([]) }
        return .object([("format", .number(JSONNumber(1)))] + fields)
    }

    mutating func applyMetadata(_ metadata: JSONValue) throws(TranscriptError) {
        func bad(_ path: String, _ reason: String) -> TranscriptError { TranscriptError(.invalidMetadata(path: path, reason: reason)) }
        guard metadata.objectValue != nil else { throw bad("", "an object expected") }
        if let format = metadata["format"], (try? format.numberValue?.int()) != 1 { throw bad(".format", "only format 1 is known") }
        if let betas = metadata["betas"] {
            guard let list = betas.arrayValue?.compactMap(\.stringValue), list.count == betas.arrayValue?.count else {
                throw bad(".betas", "an array of strings expected")
            }
            setup.betas = list
        }
        if let profile = metadata["user_profile_id"] {
            guard let text = profile.stringValue else { throw bad(".user_profile_id", "a string expected") }
            setup.userProfileID = text
        }
        guard let list = metadata["responses"] else { return }
        guard let responses = list.arrayValue else { throw bad(".responses", "an array expected") }
        let places = Dictionary(responsePlaces.map { ($0.message, $0.entry) }, uniquingKeysWith: { first, _ in first })
        for (index, item) in responses.enumerated() {
            let path = ".responses[\(index)]"
            guard let message = try? item["message"]?.numberValue?.int(), let at = places[message],
                case .response(let old) = entries[at]
            else {
                throw bad(path + ".message", "not the index of an assistant turn in messages")
            }
            func text(_ key: String) throws(TranscriptError) -> String? {
                guard let value = item[key], !value.isNull else { return nil }
                guard let string = value.stringValue else { throw bad("\(path).\(key)", "a string expected") }
                return string
            }
            let usage = item["usage"] ?? .object([])
            guard usage.objectValue != nil else { throw bad(path + ".usage", "an object expected") }
            entries[at] = .response(
                ResponseEntry(
                    content: old.content, id: try text("id") ?? "", model: try text("model") ?? "",
                    requestedModel: try text("requested_model") ?? "", stopReason: try text("stop_reason"),
                    stopSequence: try text("stop_sequence"), usage: RawJSON(usage), requestID: try text("request_id")))
        }
    }
}

// Codable carries the file's text, as one string, the way a snapshot
// carries its message: Foundation's coders keep neither key order nor number
// text, and JSONEncoder refuses nesting past 512 levels, where a transcript
// holds a tool input as deep as the stream parser accepts (512) inside its
// own levels. A string is exact at any depth.

extension SessionTranscript: Codable {
    /// Decodes what ``encode(to:)`` writes, the file's JSON as one string;
    /// an API JSON object given inline (a body in a larger document) is read
    /// too, within the decoder's own limits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let text = try? container.decode(String.self) else {
            self = try SessionTranscript(apiJSON: try JSONValue(from: decoder))
            return
        }
        do throws(TranscriptError) { self = try SessionTranscript(jsonBytes: Array(text.utf8)) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Encodes the file's text (``jsonBytes()`` without its final newline) as one string.
    public func encode(to encoder: any Encoder) throws {
        var bytes = try jsonBytes()
        bytes.removeLast()
        var container = encoder.singleValueContainer()
        try container.encode(String(decoding: bytes, as: UTF8.self))
    }
}
