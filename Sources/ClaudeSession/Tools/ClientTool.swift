public import ClaudeTransport
public import IncrementalJSON

// A tool the session runs for the model. The session declares it in the
// request (name, description, input schema), decodes the model's input into
// `Arguments` and calls it; a tool that throws, or input that does not
// decode (or breaks a constraint of the schema), becomes an `is_error`
// result the model can read and recover from, never a crash.
//
// A tool is declared by its `Arguments` type: the input schema is derived
// from it (`JSONSchema(for:)`) unless the tool gives one.

/// A tool the model may call and the session runs: its `Arguments` type, a
/// name, a description and ``call(_:)``.
///
/// ```swift
/// struct Weather: ClientTool {
///     struct Arguments: Decodable, Sendable { var city: String; var days: Int? }
///     var name: String { "weather" }
///     var description: String { "The forecast for a city" }
///     func call(_ arguments: Arguments) async throws -> ToolOutput { .text(try await forecast(arguments.city)) }
/// }
/// ```
public protocol ClientTool: Sendable {
    /// What the model's input decodes into.
    associatedtype Arguments: Decodable & Sendable

    /// The tool's name as the model sees it (unique within a session).
    var name: String { get }
    /// What the tool does and when to use it: the model reads this.
    var description: String { get }
    /// The JSON Schema of the input (`input_schema`): derived from
    /// `Arguments` (with its annotations) unless the tool gives one.
    ///
    /// - Throws: `SchemaDerivationError` when it cannot be derived; a session
    ///   with such a tool sends nothing.
    var inputSchema: JSONValue { get throws(SchemaDerivationError) }
    /// `strict: true` asks the API for input that follows the schema; nil leaves it unset.
    var strict: Bool? { get }

    /// Runs the tool. A thrown error is sent to the model as an error result
    /// (its description, which must not hold secrets).
    func call(_ arguments: Arguments) async throws -> ToolOutput
}

extension ClientTool {
    public var strict: Bool? { nil }

    /// The schema of `Arguments` (`JSONSchema(for: Arguments.self)`).
    public var inputSchema: JSONValue {
        get throws(SchemaDerivationError) { try JSONSchema(for: Arguments.self).jsonValue }
    }

    /// The request's definition of this tool.
    ///
    /// - Throws: `SchemaDerivationError` from ``inputSchema``.
    public var definition: ToolDefinition {
        get throws(SchemaDerivationError) {
            .client(ClientToolDefinition(name: name, description: description, inputSchemaJSON: try inputSchema, strict: strict))
        }
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

    /// The call the current task runs (set by the session around `call`).
    @TaskLocal static var running: ClientToolCall?

    /// The call the current task runs.
    public static var current: ClientToolCall? { running }
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
struct ErasedTool: Sendable {
    let name: String
    /// The definition sent; when the schema could not be derived, an
    /// object schema without properties that is never sent (see `schemaError`).
    let definition: ToolDefinition
    /// Why the input schema could not be derived; the session refuses to
    /// start a call with such a tool.
    let schemaError: SchemaDerivationError?
    /// Decodes `input` and calls the tool; every failure is an error result.
    let run: @Sendable (_ input: JSONValue) async -> (content: ToolResult.Content, isError: Bool)

    init<T: ClientTool>(_ tool: T) {
        name = tool.name
        do throws(SchemaDerivationError) {
            definition = try tool.definition
            schemaError = nil
        } catch {
            definition = .client(
                ClientToolDefinition(
                    name: tool.name, description: tool.description,
                    inputSchemaJSON: JSONSchema.object([]).jsonValue, strict: tool.strict))
            schemaError = error
        }
        run = { input in
            let arguments: T.Arguments
            do {
                arguments = try JSONValueDecoder(requireComplete: true).decode(T.Arguments.self, from: input)
            } catch {
                return (.text("the input does not match the tool's arguments: \(StructuredOutputError.mismatch(error))"), true)
            }
            do throws(StructuredOutputError) {
                try StructuredOutputError.checkConstraints(of: T.Arguments.self, in: input)
            } catch {
                return (.text("the input does not match the tool's schema: \(error)"), true)
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
