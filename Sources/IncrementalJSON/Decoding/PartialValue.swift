// PartialValue: the partial form of any `Decodable` type, without writing a
// twin whose properties are all optional. It holds the value tree as it
// stands (decoding it is O(1): the tree is shared, not copied) and decodes
// one field at a time on request, by the type's coding keys.
//
// Without macros a key path cannot be turned into a coding key, so fields
// are read by key: `partial[.city]` with the type's `CodingKeys` (declare
// them `internal` to read fields outside the type's file; synthesized ones
// are private). Each read tells a field that has not arrived (nil) from one
// that has arrived empty (`""`, `[]`), and `isComplete(_:)` says whether it
// may still grow.

/// The fields of a `Complete` value that have arrived so far.
///
/// ```swift
/// for try await step in session.streamResponse(to: prompt, generating: Trip.self) {
///     guard let trip = step.partial else { continue }       // PartialValue<Trip>
///     title.text = trip[.city] ?? "…"                        // String? (the text so far)
///     let stops: [PartialValue<Stop>] = trip[.stops] ?? []   // nested partials
/// }
/// ```
public struct PartialValue<Complete: Decodable>: Decodable, Sendable {
    /// The value so far, as the parser built it.
    public let json: JSONValue

    /// The partial value of `json`.
    public init(_ json: JSONValue) {
        self.json = json
    }

    /// Takes the node itself from a ``JSONValueDecoder`` (no copy); any
    /// other decoder goes through `JSONValue`'s own decoding.
    public init(from decoder: any Decoder) throws {
        if let node = decoder as? any JSONValueDecoding {
            json = node.node
        } else {
            json = try JSONValue(from: decoder)
        }
    }

    /// Whether the whole value has arrived.
    public var isComplete: Bool { json.isComplete }

    /// Whether the member `key` has arrived (its value may still grow).
    public func contains(_ key: some CodingKey) -> Bool { json[key.stringValue] != nil }

    /// Whether the member `key` has arrived whole.
    public func isComplete(_ key: some CodingKey) -> Bool { json[key.stringValue]?.isComplete ?? false }

    /// The member `key` decoded as `V`: a string so far, the elements so far,
    /// a nested `PartialValue`. Nil when it has not arrived, is null, or has
    /// arrived but does not decode as `V` yet (half an enum's raw value, or a
    /// nested complete type that is still open).
    ///
    /// - Complexity: O(size of the member) to decode it.
    public subscript<V: Decodable>(_ key: some CodingKey, as type: V.Type = V.self) -> V? {
        self[key.stringValue, as: type]
    }

    /// The member named `name`, as ``subscript(_:as:)`` (prefer the typed
    /// key: a misspelt name is nil, not a compile error).
    public subscript<V: Decodable>(_ name: String, as type: V.Type = V.self) -> V? {
        guard let member = json[name], !member.isNull else { return nil }
        return try? JSONValueDecoder().decode(type, from: member)
    }

    /// The complete value, once every part of it has arrived.
    ///
    /// - Throws: `DecodingError` saying what is missing or incomplete, and where.
    public func decodeComplete() throws -> Complete {
        try JSONValueDecoder(requireComplete: true).decode(Complete.self, from: json)
    }
}

/// A type whose `CodingKeys` are visible (declared, not synthesized, which
/// are private), so its ``PartialValue`` reads fields as `partial[.city]`.
///
/// Declaring `enum CodingKeys: String, CodingKey { … }` inside the type is
/// all it takes; the conformance finds it by name.
public protocol CodingKeyed {
    /// The type's coding keys.
    associatedtype CodingKeys: CodingKey
}

extension PartialValue where Complete: CodingKeyed {
    /// The member `key`, as ``subscript(_:as:)-(CodingKey,_)``, with the
    /// key written `.city`.
    public subscript<V: Decodable>(_ key: Complete.CodingKeys, as type: V.Type = V.self) -> V? {
        self[key.stringValue, as: type]
    }
}

extension PartialValue: Equatable {
    public static func == (lhs: PartialValue, rhs: PartialValue) -> Bool { lhs.json == rhs.json }
}

extension PartialValue: CustomStringConvertible {
    /// The value so far as compact JSON.
    public var description: String { json.compactJSON }
}
