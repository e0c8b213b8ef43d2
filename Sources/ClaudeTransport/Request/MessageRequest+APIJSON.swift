public import IncrementalJSON

// A request read from, and written as, the API's own JSON: the body a curl
// user, the Python or TypeScript SDK, or `claude-stream chat --request`
// sends. Reading keeps everything: a field (or a block) becomes typed only
// when the typed form writes it back as the same JSON; anything else stays
// JSON (`additionalFields`, `TurnContent.block`, `ToolDefinition.raw`), so a
// body read and written again asks the API the same thing.

/// Why a request body could not be read: where (a path such as
/// `messages[2].content[0]`) and what.
public struct RequestBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the body: `model`, `messages[3].role`, … (empty: the body itself).
    public var path: String
    /// What is wrong there.
    public var reason: String

    /// An error at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

extension ClaudeModel {
    /// The model a body's `model` string names: a compiled-in model (dated
    /// snapshots too), a Bedrock or Vertex ID of one, or else a model whose
    /// capabilities are not known here, assumed to have every feature and
    /// public effort level (``ModelCapabilities/all``), so only what no model
    /// accepts is refused before the server decides.
    public static func resolving(_ id: String) -> ClaudeModel {
        known(id: id) ?? bedrock(id) ?? vertex(id) ?? ClaudeModel(id: id, capabilities: .all)
    }
}

extension MessageRequest {
    /// Reads an API request body.
    ///
    /// `model` and `messages` are required; `max_tokens` defaults to
    /// ``RequestSetup/defaultMaxTokens``; `stream` is dropped. Every other field is typed
    /// when its typed form is exact, and kept in ``RequestSetup/additionalFields`` when
    /// not (a new field, a `thinking` shape this package does not model, …).
    /// Every message keeps its content as the body gave it
    /// (``TurnContent/raw(_:)``: a string stays a string, blocks keep their
    /// key order and number text), so it goes out as written until a
    /// session adds to it.
    ///
    /// - Parameters:
    ///   - body: the request body as parsed JSON.
    ///   - resolveModel: maps the `model` string to a model and its
    ///     capabilities (also for `fallbacks`).
    /// - Throws: ``RequestBodyError`` naming the field.
    /// - Complexity: O(size of the body).
    public init(apiJSON body: JSONValue, resolveModel: (String) -> ClaudeModel = ClaudeModel.resolving) throws(RequestBodyError) {
        guard let object = body.objectValue else { throw RequestBodyError(path: "", reason: "a request body is a JSON object, got \(body.kindName)") }
        guard let modelID = object["model"]?.stringValue else {
            throw RequestBodyError(path: "model", reason: object["model"] == nil ? "missing" : "not a string")
        }
        guard let messages = object["messages"] else { throw RequestBodyError(path: "messages", reason: "missing") }
        self.init(model: resolveModel(modelID), messages: try ConversationTurn.turns(apiJSON: messages))
        var extra: [(String, JSONValue)] = []
        for (key, value) in object.entries {
            switch key {
            case "model", "messages", "stream": continue
            case "max_tokens":
                guard let count = try? value.numberValue?.int() else { throw RequestBodyError(path: key, reason: "not an integer") }
                setup.maxTokens = count
                continue
            default:
                if setup.takeTypedField(key, value, resolveModel) { continue }
                extra.append((key, value))
            }
        }
        setup.additionalFields = JSONObject(extra)
    }

    /// The request as the API's JSON: its body without `stream` (what a
    /// transcript file or `--request` holds). A ``RequestSetup/reasoningHint`` is not
    /// written (it is resolved per model when sent), nor are headers
    /// (``RequestSetup/betas``, ``RequestSetup/userProfileID``).
    ///
    /// - Throws: ``RequestError`` for a server tool that cannot be written
    ///   (both domain filters); capabilities are not checked.
    /// - Complexity: O(size of the body).
    public func apiJSONBytes() throws(RequestError) -> [UInt8] {
        try RequestEncoder.encodedBody(self, primaryEffort: setup.effort, purpose: .document)
    }

    /// ``apiJSONBytes()`` as a value.
    public func apiJSON() throws(RequestError) -> JSONValue {
        let bytes = try apiJSONBytes()
        // The bytes were just written by the encoder: they parse, at any depth they were given.
        var options = JSONParserOptions()
        options.maxDepth = Int.max
        return (try? JSONValue.parse(bytes, options: options)) ?? .null
    }
}

extension RequestSetup {
    /// Takes `value` into the typed field `key` when that is exact; false: keep it as JSON.
    fileprivate mutating func takeTypedField(_ key: String, _ value: JSONValue, _ resolveModel: (String) -> ClaudeModel) -> Bool {
        switch key {
        case "system":
            if let text = value.stringValue {
                system = .text(text)
                return true
            }
            guard let blocks = value.arrayValue, !blocks.isEmpty else { return false }
            var typed: [SystemBlock] = []
            for block in blocks {
                guard block.hasOnlyKeys(["type", "text", "cache_control"]), block["type"]?.stringValue == "text",
                    let text = block["text"]?.stringValue
                else { return false }
                var cache: CacheControl?
                if let json = block["cache_control"] {
                    guard let exact = CacheControl(apiJSON: json) else { return false }
                    cache = exact
                }
                typed.append(SystemBlock(text, cacheControl: cache))
            }
            system = .blocks(typed)
            return true
        case "temperature", "top_p":
            guard let number = value.numberValue, let double = try? number.double(), JSONNumber(double) == number else { return false }
            if key == "temperature" { temperature = double } else { topP = double }
            return true
        case "top_k":
            guard let k = try? value.numberValue?.int() else { return false }
            topK = k
            return true
        case "thinking":
            if value.hasOnlyKeys(["type"]), value["type"]?.stringValue == "adaptive" {
                adaptiveThinking = true
                return true
            }
            if value.hasOnlyKeys(["type", "budget_tokens"]), value["type"]?.stringValue == "enabled",
                let budget = try? value["budget_tokens"]?.numberValue?.int()
            {
                thinkingBudget = budget
                return true
            }
            return false
        case "output_config":
            guard value.hasOnlyKeys(["effort", "format"]), value.objectValue?.isEmpty == false else { return false }
            var effort: EffortLevel?
            var schema: JSONValue?
            if let level = value["effort"] {
                guard let name = level.stringValue else { return false }
                effort = EffortLevel(name)
            }
            if let format = value["format"] {
                guard format.hasOnlyKeys(["type", "schema"]), format["type"]?.stringValue == "json_schema", let given = format["schema"] else { return false }
                schema = given
            }
            self.effort = effort
            outputSchema = schema
            return true
        case "tools":
            guard let list = value.arrayValue else { return false }
            tools = list.map(ToolDefinition.init(apiJSON:))
            return true
        case "tool_choice":
            guard let choice = ToolChoice(apiJSON: value) else { return false }
            toolChoice = choice
            return true
        case "stop_sequences":
            guard let list = value.arrayValue else { return false }
            var texts: [String] = []
            for item in list {
                guard let text = item.stringValue else { return false }
                texts.append(text)
            }
            stopSequences = texts
            return true
        case "metadata":
            guard value.hasOnlyKeys(["user_id"]), let user = value["user_id"]?.stringValue else { return false }
            metadataUserID = user
            return true
        case "cache_control":
            guard let cache = CacheControl(apiJSON: value) else { return false }
            cacheControl = cache
            return true
        case "fallbacks":
            guard let list = value.arrayValue, !list.isEmpty else { return false }
            var models: [ClaudeModel] = []
            for entry in list {
                // A per-fallback effort is derived from `effort` when sent; another one stays JSON.
                guard entry.hasOnlyKeys(["model", "output_config"]), let id = entry["model"]?.stringValue else { return false }
                if let config = entry["output_config"], !config.hasOnlyKeys(["effort"]) { return false }
                models.append(resolveModel(id))
            }
            fallbacks = models.count == 1 && models[0].id == ClaudeModel.serverDefault.id ? .serverDefault : .models(models)
            return true
        default:
            return false
        }
    }
}

extension ConversationTurn {
    /// The turns of a body's `messages`.
    static func turns(apiJSON messages: JSONValue) throws(RequestBodyError) -> [ConversationTurn] {
        guard let list = messages.arrayValue else {
            throw RequestBodyError(path: "messages", reason: "an array of messages, got \(messages.kindName)")
        }
        var turns: [ConversationTurn] = []
        for (index, message) in list.enumerated() {
            turns.append(try ConversationTurn(apiJSON: message, path: "messages[\(index)]"))
        }
        return turns
    }

    /// One message `{"role": …, "content": …}`; `path` names it in errors.
    public init(apiJSON message: JSONValue, path: String = "message") throws(RequestBodyError) {
        guard message.objectValue != nil else { throw RequestBodyError(path: path, reason: "a message is an object, got \(message.kindName)") }
        guard let roleName = message["role"]?.stringValue, let role = Role(rawValue: roleName) else {
            throw RequestBodyError(path: path + ".role", reason: "\"user\" or \"assistant\" expected")
        }
        guard let content = message["content"] else { throw RequestBodyError(path: path + ".content", reason: "missing") }
        for key in message.objectValue?.keys ?? [] where key != "role" && key != "content" {
            throw RequestBodyError(path: path + "." + key, reason: "a message has only role and content")
        }
        if content.stringValue == nil {
            guard let blocks = content.arrayValue else {
                throw RequestBodyError(path: path + ".content", reason: "a string or an array of blocks, got \(content.kindName)")
            }
            for (index, block) in blocks.enumerated() where block.objectValue == nil || block["type"]?.stringValue == nil {
                throw RequestBodyError(path: "\(path).content[\(index)]", reason: "a block is an object with a string type")
            }
        }
        // As given: a string stays a string, blocks keep their key order and
        // number text, the model's own blocks their signatures and unknown types.
        self.init(role: role, content: [.raw(RawJSON(content))])
    }
}

extension TurnContent {
    /// A user block: `.text` for a plain text block, `.toolResult` for a
    /// plain tool result, otherwise the block itself (`.block`).
    public init(apiJSON block: JSONValue) {
        let type = block["type"]?.stringValue
        if type == "text", block.hasOnlyKeys(["type", "text"]), let text = block["text"]?.stringValue {
            self = .text(text)
        } else if type == "tool_result", let result = ToolResult(apiJSON: block) {
            self = .toolResult(result)
        } else {
            self = .raw(RawJSON(block))
        }
    }
}

extension TurnContent {
    /// The API blocks this part is sent as (a replayed array gives several).
    ///
    /// - Complexity: O(size of the part); a replayed array is parsed.
    public var apiBlocks: [JSONValue] { RequestEncoder.contentBlocks(self) }
}

extension ToolResult {
    /// A `tool_result` block that the typed form writes back the same, else nil.
    public init?(apiJSON block: JSONValue) {
        guard block["type"]?.stringValue == "tool_result", block.hasOnlyKeys(["type", "tool_use_id", "content", "is_error", "cache_control"]),
            let id = block["tool_use_id"]?.stringValue
        else { return nil }
        var cache: CacheControl?
        if let json = block["cache_control"] {
            guard let exact = CacheControl(apiJSON: json) else { return nil }
            cache = exact
        }
        var isError = false
        if let flag = block["is_error"] {
            guard let value = flag.boolValue, value else { return nil }  // an explicit false would not be written back
            isError = value
        }
        let content: Content = if let text = block["content"]?.stringValue { .text(text) } else { .raw(block["content"] ?? .array([])) }
        if block["content"] == nil { return nil }
        self.init(toolUseID: id, content: content, isError: isError, cacheControl: cache)
    }
}

extension ToolDefinition {
    /// A tool of the body's `tools`: a client tool when exactly that, else raw JSON.
    public init(apiJSON json: JSONValue) {
        guard json["type"] == nil, json.hasOnlyKeys(["name", "description", "input_schema", "strict", "cache_control"]),
            let name = json["name"]?.stringValue, let schema = json["input_schema"]
        else {
            self = .raw(json)
            return
        }
        var description: String?
        if let text = json["description"] {
            guard let value = text.stringValue else {
                self = .raw(json)
                return
            }
            description = value
        }
        var strict: Bool?
        if let flag = json["strict"] {
            guard let value = flag.boolValue else {
                self = .raw(json)
                return
            }
            strict = value
        }
        var cache: CacheControl?
        if let given = json["cache_control"] {
            guard let exact = CacheControl(apiJSON: given) else {
                self = .raw(json)
                return
            }
            cache = exact
        }
        self = .client(ClientToolDefinition(name: name, description: description, inputSchemaJSON: schema, strict: strict, cacheControl: cache))
    }
}

extension ToolChoice {
    /// A `tool_choice` object, when exactly one this type writes back the same.
    public init?(apiJSON json: JSONValue) {
        guard json.hasOnlyKeys(["type", "name", "disable_parallel_tool_use"]), let type = json["type"]?.stringValue else { return nil }
        var disable = false
        if let flag = json["disable_parallel_tool_use"] {
            guard let value = flag.boolValue, value, type != "none" else { return nil }
            disable = value
        }
        switch type {
        case "auto", "any", "none":
            guard json["name"] == nil else { return nil }
            self.init(type == "auto" ? .auto : type == "any" ? .any : .none, disableParallelToolUse: disable)
        case "tool":
            guard let name = json["name"]?.stringValue else { return nil }
            self.init(.tool(name), disableParallelToolUse: disable)
        default:
            return nil
        }
    }
}

extension CacheControl {
    /// `{"type":"ephemeral"}` with an optional known `ttl`, else nil.
    public init?(apiJSON json: JSONValue) {
        guard json.hasOnlyKeys(["type", "ttl"]), json["type"]?.stringValue == "ephemeral" else { return nil }
        if let ttl = json["ttl"] {
            guard let name = ttl.stringValue, let known = TimeToLive(rawValue: name) else { return nil }
            self.init(ttl: known)
        } else {
            self.init()
        }
    }
}

extension JSONValue {
    /// An object whose keys are all in `keys` (false for a non-object).
    func hasOnlyKeys(_ keys: Set<String>) -> Bool {
        guard let object = objectValue else { return false }
        return object.keys.allSatisfy(keys.contains)
    }

    /// "an object", "a string", … for messages.
    var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
