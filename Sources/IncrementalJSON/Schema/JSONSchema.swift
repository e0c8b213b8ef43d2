// JSONSchema: the expected shape of a value, for the API's structured output
// (`output_config.format`) and tool input schemas, and for checking a final
// value.
//
// Only the subset the API accepts for structured output and strict tools is
// modelled (see `Constraint` for which keywords are sent and which are only
// checked on decode). A schema is derived from a `Decodable` type
// (`JSONSchema(for:)`, JSONSchema+Derivation.swift) or written by hand;
// `jsonValue` renders the JSON Schema text, `validate` checks a complete
// value against it.

/// A JSON Schema subset: objects with ordered properties, arrays,
/// dictionaries, strings and integers (optionally an enum), numbers,
/// booleans, `anyOf`, nullable, constraints, and `$defs`/`$ref` for
/// recursive types.
public indirect enum JSONSchema: Sendable, Hashable {
    /// An object with these properties, in order. Rendered with
    /// `"additionalProperties": false`, which the API requires for structured output.
    case object([Property], description: String? = nil)
    /// An array whose every element matches `items`.
    case array(items: JSONSchema, description: String? = nil)
    /// A string, optionally one of `enum`.
    case string(enum: [String]? = nil, description: String? = nil)
    /// Any JSON number.
    case number(description: String? = nil)
    /// A number without fraction or exponent, optionally one of `enum`.
    case integer(enum: [Int]? = nil, description: String? = nil)
    /// `true` or `false`.
    case boolean(description: String? = nil)
    /// Any one of the alternatives.
    case anyOf([JSONSchema], description: String? = nil)
    /// The schema or null.
    case nullable(JSONSchema)
    /// An object with any keys whose every value matches `values` (a Swift
    /// `[String: V]`), rendered with `additionalProperties: <values>`.
    ///
    /// The API's strict grammar requires `additionalProperties: false` on
    /// every object, so a schema holding a dictionary is for non-strict tools
    /// and for checking; structured output rejects it.
    case dictionary(values: JSONSchema, description: String? = nil)
    /// `schema` narrowed by `constraints` (see ``Constraint`` for which are sent).
    case constrained(JSONSchema, [Constraint])
    /// The definition named `name` in the enclosing document (`{"$ref": "#/$defs/name"}`).
    case reference(String)
    /// `root`, with the definitions its references name (rendered as `$defs`).
    case defining([Definition], root: JSONSchema)

    /// One property of an object schema.
    public struct Property: Sendable, Hashable {
        /// The member's key.
        public var name: String
        /// What the member's value must match.
        public var schema: JSONSchema
        /// Rendered as the property's `description`, for the model.
        public var description: String?
        /// Whether the member must be present (listed in `required`).
        public var isRequired: Bool

        /// A property named `name` whose value matches `schema`.
        public init(_ name: String, _ schema: JSONSchema, description: String? = nil, isRequired: Bool = true) {
            self.name = name
            self.schema = schema
            self.description = description
            self.isRequired = isRequired
        }
    }

    /// A named schema of a document's `$defs`, the target of ``reference(_:)``.
    public struct Definition: Sendable, Hashable {
        /// The key under `$defs`.
        public var name: String
        /// The schema it names.
        public var schema: JSONSchema

        /// The definition `name` of `schema`.
        public init(_ name: String, _ schema: JSONSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// The schema's own description, if any.
    public var description: String? {
        switch self {
        case .object(_, let description), .array(_, let description), .string(_, let description),
            .number(let description), .integer(_, let description), .boolean(let description), .anyOf(_, let description),
            .dictionary(_, let description):
            description
        case .nullable(let wrapped), .constrained(let wrapped, _), .defining(_, let wrapped):
            wrapped.description
        case .reference:
            nil
        }
    }

    // MARK: Rendering

    /// The JSON Schema document, members in a stable order.
    public var jsonValue: JSONValue { renderConstraints(description: description) }

    private func renderConstraints(description: String?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        func type(_ name: String) {
            members.append(("type", .string(name)))
            if let description { members.append(("description", .string(description))) }
        }
        switch self {
        case .object(let properties, _):
            type("object")
            members.append(
                ("properties", .object(properties.map { ($0.name, $0.schema.renderConstraints(description: $0.description ?? $0.schema.description)) })))
            members.append(("required", .array(properties.filter(\.isRequired).map { .string($0.name) })))
            members.append(("additionalProperties", false))
        case .array(let items, _):
            type("array")
            members.append(("items", items.jsonValue))
        case .string(let values, _):
            type("string")
            if let values { members.append(("enum", .array(values.map { .string($0) }))) }
        case .number:
            type("number")
        case .integer(let values, _):
            type("integer")
            if let values { members.append(("enum", .array(values.map { .number(JSONNumber($0)) }))) }
        case .boolean:
            type("boolean")
        case .anyOf(let alternatives, _):
            if let description { members.append(("description", .string(description))) }
            members.append(("anyOf", .array(alternatives.map(\.jsonValue))))
        case .nullable(let wrapped):
            if let description { members.append(("description", .string(description))) }
            members.append(("anyOf", .array([wrapped.jsonValue, ["type": "null"]])))
        case .dictionary(let values, _):
            type("object")
            members.append(("additionalProperties", values.jsonValue))
        case .constrained(let wrapped, let constraints):
            return Constraint.renderConstraints(constraints, on: wrapped, description: description) { $0.renderConstraints(description: $1) }
        case .reference(let name):
            members.append(("$ref", .string("#/$defs/" + name)))
            if let description { members.append(("description", .string(description))) }
        case .defining(let definitions, let root):
            let rendered = root.renderConstraints(description: description)
            guard let object = rendered.objectValue else { return rendered }
            var rootMembers = object.entries.map { ($0.key, $0.value) }
            rootMembers.append(("$defs", .object(definitions.map { ($0.name, $0.schema.jsonValue) })))
            return .object(rootMembers)
        }
        return .object(members)
    }
}
