// The standard library's generic containers, read without running their
// `init(from:)`: the recorder needs the element type (to derive its schema)
// and an empty value (which exists even for recursive element types), not
// a walk of the container.

/// A container type whose schema comes from its element type.
protocol SchemaContainerKind {
    /// The schema at `path`, and an empty value of the type.
    static func recordSchema(_ recording: SchemaRecording, at path: [String]) throws(SchemaDerivationError) -> (JSONSchema, Self)
}

extension Optional: SchemaContainerKind where Wrapped: Decodable {
    static func recordSchema(_ recording: SchemaRecording, at path: [String]) throws(SchemaDerivationError) -> (JSONSchema, Self) {
        (.nullable(try recording.derive(Wrapped.self, at: path, needValue: false).schema), nil)
    }
}

extension Array: SchemaContainerKind where Element: Decodable {
    static func recordSchema(_ recording: SchemaRecording, at path: [String]) throws(SchemaDerivationError) -> (JSONSchema, Self) {
        (.array(items: try recording.derive(Element.self, at: path + ["[*]"], needValue: false).schema), [])
    }
}

extension Set: SchemaContainerKind where Element: Decodable {
    static func recordSchema(_ recording: SchemaRecording, at path: [String]) throws(SchemaDerivationError) -> (JSONSchema, Self) {
        (.array(items: try recording.derive(Element.self, at: path + ["[*]"], needValue: false).schema), [])
    }
}

extension Dictionary: SchemaContainerKind where Key == String, Value: Decodable {
    static func recordSchema(_ recording: SchemaRecording, at path: [String]) throws(SchemaDerivationError) -> (JSONSchema, Self) {
        (.dictionary(values: try recording.derive(Value.self, at: path + [".*"], needValue: false).schema), [:])
    }
}

/// Any dictionary, to name the key type of one that is not `[String: V]`.
protocol AnyDictionaryKind {
    static var keyTypeName: String { get }
}

extension Dictionary: AnyDictionaryKind {
    static var keyTypeName: String { typeName(Key.self) }
}

/// The cases of a raw-value enum as schema values, and one case (which by
/// `variant`, so the two recordings see different values).
func enumSchema<E: RawRepresentable & CaseIterable>(_ type: E.Type, variant: Int) -> (JSONSchema, E)? {
    let cases = Array(E.allCases)
    guard let first = cases.first, let last = cases.last else { return nil }
    let chosen = variant == 0 ? first : last
    if let strings = cases.map(\.rawValue) as? [String] { return (.string(enum: strings), chosen) }
    if let integers = cases.map(\.rawValue) as? [Int] { return (.integer(enum: integers), chosen) }
    return nil
}
