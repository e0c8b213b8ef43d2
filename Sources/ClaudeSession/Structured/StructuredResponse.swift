public import IncrementalJSON

/// A type the model can answer in: its JSON Schema, and the partial form
/// (every property optional) that decodes while the answer streams.
public protocol StructuredResponse: Decodable, Sendable {
    /// The type decoded from every snapshot while the answer streams: the same
    /// fields, all optional, so any prefix of the answer decodes.
    associatedtype Partial: Decodable & Sendable
    /// The JSON Schema sent as `output_config.format`.
    static var outputSchema: JSONValue { get }
}
