public import ClaudeTransport
public import IncrementalJSON

// A tool the session runs for the model. The session declares it in the
// request (name, description, input schema), decodes the model's input into
// `Arguments` and calls it; a tool that throws, or input that does not
// decode, becomes an `is_error` result the model can read and recover from,
// never a crash.

/// A tool the model may call and the session runs.
public protocol ClientTool: Sendable {
    /// What the model's input decodes into.
    associatedtype Arguments: Decodable & Sendable

    /// The tool's name as the model sees it (unique within a session).
    var name: String { get }
    /// What the tool does and when to use it: the model reads this.
    var description: String { get }
    /// The JSON Schema of the input (`input_schema`).
    var inputSchema: JSONValue { get }
    /// `strict: true` asks the API for input that follows the schema; nil leaves it unset.
    var strict: Bool? { get }

    /// Runs the tool. A thrown error is sent to the model as an error result
    /// (its description, which must not hold secrets).
    func call(_ arguments: Arguments) async throws -> ToolOutput
}

extension ClientTool {
    public var strict: Bool? { nil }

    /// The request's definition of this tool.
    public var definition: ToolDefinition {
        .client(ClientToolDefinition(name: name, description: description, inputSchemaJSON: inputSchema, strict: strict))
    }
}

/// The call a ``ClientTool`` is running: the session sets it around
/// ``ClientTool/call(_:)``, for a tool that needs the call's id (a shell
/// tool hands it to its process, a log names it). Nil outside a call.
public struct ClientToolCall: Sendable, Hashable {
    /// The `tool_use` id.
    public var id: String
    /// The tool's name.
    public var name: String

    /// A call `id` of the tool `name`.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The call the current task runs.
    @TaskLocal public static var current: ClientToolCall?
}

/// What a tool call produced.
public enum ToolOutput: Sendable, Hashable {
    /// Plain text.
    case text(String)
    /// A JSON value (sent as its compact text).
    case json(JSONValue)
    /// Content blocks: text, images, documents.
    case blocks([TurnContent])

    var resultContent: ToolResult.Content {
        switch self {
        case .text(let text): .text(text)
        case .json(let value): .json(value)
        case .blocks(let parts): .blocks(parts)
        }
    }
}

/// A tool with its `Arguments` type erased, so a session holds any mix.
struct _ErasedTool: Sendable {
    let name: String
    let definition: ToolDefinition
    /// Decodes `input` and calls the tool; every failure is an error result.
    let run: @Sendable (_ input: JSONValue) async -> (content: ToolResult.Content, isError: Bool)

    init<T: ClientTool>(_ tool: T) {
        name = tool.name
        definition = tool.definition
        run = { input in
            let arguments: T.Arguments
            do {
                arguments = try JSONValueDecoder(requireComplete: true).decode(T.Arguments.self, from: input)
            } catch {
                return (.text("the input does not match the tool's arguments: \(StructuredOutputError.mismatch(error))"), true)
            }
            do {
                return (try await tool.call(arguments).resultContent, false)
            } catch {
                // Foundation's own text is no sentence ("NSCocoaErrorDomain error 256").
                return (.text(SystemErrorDescription.phrase(for: error)), true)
            }
        }
    }
}
