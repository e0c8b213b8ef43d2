import ClaudeTransport
public import IncrementalJSON

// A type the model answers in, declared once: its schema is derived from its
// `Decodable` conformance and its partial form is `PartialValue<Self>`,
// unless the type states either itself.

/// A type the model can answer in: its JSON Schema, and the partial form
/// that decodes while the answer streams.
///
/// Only `Decodable & Sendable` is needed: ``outputSchema`` defaults to
/// `JSONSchema(for: Self.self)` (with the type's annotations, see
/// `JSONSchemaAnnotated`) and ``Partial`` to `PartialValue<Self>`. A type
/// may still write either by hand.
///
/// ```swift
/// struct Party: StructuredResponse, CodingKeyed {
///     var characters: [Character]
///     enum CodingKeys: String, CodingKey { case characters }   // declared, so readable from outside
///     struct Character: Decodable, Sendable { var name: String; var role: String }
/// }
/// for try await step in session.streamResponse(to: "Three characters", generating: Party.self) {
///     let characters: [PartialValue<Party.Character>] = step.partial?[.characters] ?? []
///     names.text = characters.compactMap { $0["name", as: String.self] }.joined(separator: ", ")
/// }
/// ```
public protocol StructuredResponse: Decodable, Sendable {
    /// The type decoded from every snapshot while the answer streams, so any
    /// prefix of the answer decodes: `PartialValue<Self>` unless the type
    /// names its own (every property optional).
    associatedtype Partial: Decodable & Sendable = PartialValue<Self>
    /// The JSON Schema sent as `output_config.format`; derived from the type
    /// unless it gives one.
    ///
    /// - Throws: `SchemaDerivationError` when the derived schema cannot be
    ///   derived (the session then sends nothing).
    static var outputSchema: JSONValue { get throws(SchemaDerivationError) }
}

extension StructuredResponse {
    /// The schema derived from the type (`JSONSchema(for: Self.self)`).
    public static var outputSchema: JSONValue {
        get throws(SchemaDerivationError) { try JSONSchema(for: Self.self).jsonValue }
    }

    /// ``outputSchema``, a failure as the session's error.
    static func schemaForRequest(transcript: @autoclosure () -> SessionTranscript) throws(SessionError) -> JSONValue {
        do throws(SchemaDerivationError) {
            return try outputSchema
        } catch {
            throw SessionError(.structuredOutput(.schemaDerivation(error)), transcript: transcript())
        }
    }

    /// The final answer of `response` decoded as this type, a failure as the
    /// session's error (the response is complete, so the prompt is in its
    /// transcript).
    static func decoded(from response: SessionResponse) throws(SessionError) -> Self {
        do throws(StructuredOutputError) {
            return try response.message.decodeStructured(Self.self, complete: true)
        } catch {
            throw SessionError(
                .structuredOutput(error), transcript: response.transcript, promptInTranscript: true,
                round: response.transcript.responses.count - 1)
        }
    }
}
