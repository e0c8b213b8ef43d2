// JSONSchema: the expected shape of a value, for the API's structured output
// (`output_format`) and tool input schemas, and for checking a final value.
//
// Only the subset the API accepts for structured output is modelled. It is
// written by hand next to the Swift type it describes (there is no macro to
// derive it); `jsonValue` renders the JSON Schema text, `validate` checks a
// complete value against it.

/// A JSON Schema subset: objects with ordered properties, arrays, strings
/// (optionally an enum), numbers, integers, booleans, `anyOf`, nullable.
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
    /// A number without fraction or exponent.
    case integer(description: String? = nil)
    /// `true` or `false`.
    case boolean(description: String? = nil)
    /// Any one of the alternatives.
    case anyOf([JSONSchema], description: String? = nil)
    /// The schema or null.
    case nullable(JSONSchema)

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

    /// The schema's own description, if any.
    public var description: String? {
        switch self {
        case .object(_, let description), .array(_, let description), .string(_, let description),
            .number(let description), .integer(let description), .boolean(let description), .anyOf(_, let description):
            description
        case .nullable(let wrapped):
            wrapped.description
        }
    }

    // MARK: Rendering

    /// The JSON Schema document, members in a stable order.
    public var jsonValue: JSONValue { _render(description: description) }

    private func _render(description: String?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        func type(_ name: String) {
            members.append(("type", .string(name)))
            if let description { members.append(("description", .string(description))) }
        }
        switch self {
        case .object(let properties, _):
            type("object")
            members.append(("properties", .object(properties.map { ($0.name, $0.schema._render(description: $0.description ?? $0.schema.description)) })))
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
        case .integer:
            type("integer")
        case .boolean:
            type("boolean")
        case .anyOf(let alternatives, _):
            if let description { members.append(("description", .string(description))) }
            members.append(("anyOf", .array(alternatives.map(\.jsonValue))))
        case .nullable(let wrapped):
            if let description { members.append(("description", .string(description))) }
            members.append(("anyOf", .array([wrapped.jsonValue, ["type": "null"]])))
        }
        return .object(members)
    }
}
