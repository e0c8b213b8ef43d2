public import IncrementalJSON

// Tools as the request declares them. A client tool is described field by
// field; every other tool type (the API's versioned `computer_*`,
// `text_editor_*`, `bash_*`, `memory_*` tools, and types this package has
// never heard of) is given as the JSON the API takes and sent unchanged, so a
// new tool version never waits for a release of this package.

/// One entry of the request's `tools`.
public enum ToolDefinition: Sendable, Hashable {
    /// A tool the caller runs: name, description, input schema.
    case client(ClientToolDefinition)
    /// Any tool given as API JSON (a versioned or unknown `type`), sent as is.
    case raw(JSONValue)

    /// The tool's `name` (a raw definition's `name` field, if it has one).
    public var name: String? {
        switch self {
        case .client(let tool): tool.name
        case .raw(let json): json["name"]?.stringValue
        }
    }

    /// The API JSON of the definition.
    ///
    /// - Complexity: O(size of the schema).
    public var json: JSONValue {
        switch self {
        case .raw(let json): return json
        case .client(let tool):
            var fields: [(String, JSONValue)] = [("name", .string(tool.name))]
            if let description = tool.description { fields.append(("description", .string(description))) }
            fields.append(("input_schema", tool.inputSchema))
            if let strict = tool.strict { fields.append(("strict", .bool(strict))) }
            if let cache = tool.cacheControl { fields.append(("cache_control", cache.json)) }
            return .object(fields)
        }
    }
}

/// A tool the model may call and the caller runs (`type` is omitted: custom).
public struct ClientToolDefinition: Sendable, Hashable {
    /// The tool's name, unique among the request's tools; the model calls it by this.
    public var name: String
    /// What the tool does and when to use it, for the model.
    public var description: String?
    /// The JSON Schema of the tool's input, as sent in `input_schema`.
    public var inputSchema: JSONValue
    /// `strict: true` asks the API to guarantee input that follows the schema.
    public var strict: Bool?
    /// A cache breakpoint after this tool (tools are cached in order).
    public var cacheControl: CacheControl?

    /// A tool whose input schema is given as JSON.
    public init(
        name: String, description: String? = nil, inputSchemaJSON: JSONValue,
        strict: Bool? = nil, cacheControl: CacheControl? = nil
    ) {
        self.name = name
        self.description = description
        self.inputSchema = inputSchemaJSON
        self.strict = strict
        self.cacheControl = cacheControl
    }

    /// A tool whose input schema is built with `JSONSchema` (IncrementalJSON).
    public init(
        name: String, description: String? = nil, inputSchema: JSONSchema,
        strict: Bool? = nil, cacheControl: CacheControl? = nil
    ) {
        self.init(
            name: name, description: description, inputSchemaJSON: inputSchema.jsonValue,
            strict: strict, cacheControl: cacheControl)
    }
}

/// A prompt-caching breakpoint (`cache_control: {type: "ephemeral", ttl}`).
public struct CacheControl: Sendable, Hashable {
    /// How long the cached prefix lives: the API takes `5m` (its default) and `1h`.
    public enum TimeToLive: String, Sendable, Hashable {
        /// Five minutes (`5m`).
        case fiveMinutes = "5m"
        /// One hour (`1h`).
        case oneHour = "1h"
    }

    /// Nil: the API's default (five minutes); `ttl` is then not sent.
    public var ttl: TimeToLive?

    /// A breakpoint living `ttl` (nil: the API's default).
    public init(ttl: TimeToLive? = nil) { self.ttl = ttl }

    /// A breakpoint with the API's default lifetime.
    public static let ephemeral = CacheControl()

    /// `{"type":"ephemeral"}` plus `ttl` when set.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("ephemeral"))]
        if let ttl { fields.append(("ttl", .string(ttl.rawValue))) }
        return .object(fields)
    }
}

/// How the model may use the tools (`tool_choice`).
public struct ToolChoice: Sendable, Hashable {
    /// Whether and which tool the model must call.
    public enum Mode: Sendable, Hashable {
        /// The model decides (the API's default).
        case auto
        /// The model must call some tool.
        case any
        /// The model must not call a tool.
        case none
        /// The model must call the tool with this name.
        case tool(String)
    }

    /// Whether and which tool the model must call.
    public var mode: Mode
    /// At most one tool call per response (not sent with ``Mode/none``, which the API does not take it with).
    public var disableParallelToolUse: Bool

    /// A choice of `mode`, optionally with at most one call per response.
    public init(_ mode: Mode, disableParallelToolUse: Bool = false) {
        self.mode = mode
        self.disableParallelToolUse = disableParallelToolUse
    }

    /// Parses `auto`, `any`, `none` or `tool:NAME` (the command line's form).
    public init?(parsing text: String) {
        switch text {
        case "auto": self.init(.auto)
        case "any": self.init(.any)
        case "none": self.init(.none)
        default:
            guard text.hasPrefix("tool:"), text.count > 5 else { return nil }
            self.init(.tool(String(text.dropFirst(5))))
        }
    }

    /// The API JSON.
    public var json: JSONValue {
        var fields: [(String, JSONValue)]
        switch mode {
        case .auto: fields = [("type", .string("auto"))]
        case .any: fields = [("type", .string("any"))]
        case .none: fields = [("type", .string("none"))]
        case .tool(let name): fields = [("type", .string("tool")), ("name", .string(name))]
        }
        if disableParallelToolUse, mode != .none { fields.append(("disable_parallel_tool_use", .bool(true))) }
        return .object(fields)
    }
}
