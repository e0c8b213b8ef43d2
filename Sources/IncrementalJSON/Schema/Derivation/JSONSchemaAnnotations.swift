// How a type adds to its derived schema: descriptions and constraints keyed
// by its own `CodingKeys` (so a misspelt key does not compile), a
// replacement for one property's schema, or a schema of its own for a shape
// `init(from:)` cannot show (an enum with associated values).

/// A `Decodable` type that describes itself and its properties for the
/// model, and constrains them (the analogue of a guide on each property).
///
/// ```swift
/// struct Trip: Decodable, JSONSchemaAnnotated {
///     var city: String
///     var nights: Int
///     static var schemaAnnotations: JSONSchemaAnnotations {
///         JSONSchemaAnnotations("A short trip", keyedBy: CodingKeys.self, [
///             .city: "City and country",
///             .nights: .init("Nights away", .range(1...14)),
///         ])
///     }
/// }
/// ```
///
/// See ``JSONSchema/Constraint`` for which constraints the API enforces and
/// which are only checked when the final value is decoded.
public protocol JSONSchemaAnnotated: Decodable {
    /// The type's description and its properties' descriptions, constraints
    /// and schema overrides.
    static var schemaAnnotations: JSONSchemaAnnotations { get }
}

/// A `Decodable` type that states its whole schema instead of having it
/// derived: for shapes `init(from:)` cannot show, such as an enum with
/// associated values.
public protocol JSONSchemaDeclaring: Decodable {
    /// The type's schema, used wherever the type appears.
    static var declaredSchema: JSONSchema { get }
}

/// What a type adds to its derived object schema, keyed by its coding keys.
public struct JSONSchemaAnnotations: Sendable {
    /// The object's own description.
    public var description: String?
    /// The annotated properties, by key, in the order given.
    public var properties: [(key: String, annotation: Property)]

    /// The description of the type and of its properties, keyed by
    /// `keys` (its `CodingKeys`), so a key that does not exist does not compile.
    public init<Key: CodingKey>(
        _ description: String? = nil, keyedBy keys: Key.Type,
        _ properties: KeyValuePairs<Key, Property> = [:]
    ) {
        self.description = description
        self.properties = properties.map { (key: $0.key.stringValue, annotation: $0.value) }
    }

    /// The annotation of the property named `key`; the last one given wins.
    func annotation(for key: String) -> Property? {
        properties.last { $0.key == key }?.annotation
    }

    /// A property's description, constraints, or replacement schema.
    ///
    /// A string literal is a description alone: `.city: "City and country"`.
    public struct Property: Sendable, Hashable, ExpressibleByStringLiteral {
        /// Rendered as the property's `description`.
        public var description: String?
        /// Constraints on the property's value.
        public var constraints: [JSONSchema.Constraint]
        /// A schema used instead of the derived one (nil: derive).
        public var schema: JSONSchema?

        /// A description and constraints.
        public init(_ description: String? = nil, _ constraints: JSONSchema.Constraint...) {
            self.description = description
            self.constraints = constraints
            self.schema = nil
        }

        /// A description alone.
        public init(stringLiteral description: String) {
            self.init(description)
        }

        /// The property's schema stated instead of derived (its type's
        /// `init(from:)` is not consulted for it).
        public static func schema(_ schema: JSONSchema, description: String? = nil) -> Property {
            var property = Property(description)
            property.schema = schema
            return property
        }
    }
}
