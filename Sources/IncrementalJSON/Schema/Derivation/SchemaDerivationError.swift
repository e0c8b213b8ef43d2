// Why a schema could not be derived from a type. Derivation never guesses:
// a shape it cannot read from `init(from:)`, or could only read wrongly, is
// this error, naming the type and the coding path, never a wrong schema.

/// Why ``JSONSchema/init(for:)`` could not derive a schema.
public struct SchemaDerivationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the derivation.
    public enum Reason: Sendable, Hashable {
        /// A type with no schema in the supported subset (`Data`, `JSONValue`,
        /// a class hierarchy's super decoder, …), by name.
        case unsupportedType(String)
        /// A dictionary whose keys are not `String`; the key type's name.
        case nonStringDictionaryKeys(String)
        /// A raw-value enum that is not `CaseIterable`, so its cases cannot be
        /// listed; the type's name.
        case enumNotCaseIterable(String)
        /// A `CaseIterable` enum without cases, or with raw values other than
        /// `String` and `Int`; the type's name.
        case unsupportedEnum(String)
        /// `init(from:)` asks which keys are present (`allKeys`, `contains`)
        /// or whether a value is null (`decodeNil`): its shape depends on the
        /// input, as in an enum with associated values. Declare its schema.
        case readsPresence(String)
        /// `init(from:)` read a different shape for different values, or threw
        /// on placeholder values (it branches on what it reads); the message.
        case branchesOnValues(String)
        /// The same key was decoded twice, or one single-value container
        /// twice; the key or the types.
        case decodedTwice(String)
        /// `init(from:)` used more than one container of its decoder, or none.
        case unreadableShape(String)
        /// A type contains itself without an optional or a collection in
        /// between, so no finite value has it; the type's name.
        case recursionWithoutEnd(String)
        /// An annotation names a key `init(from:)` never decodes.
        case annotatedKeyNotDecoded(String)
        /// A declared schema whose smallest value does not decode into the
        /// type, so the type cannot be placed in a larger one; the decoding error.
        case declaredSchemaDoesNotDecode(String)
    }

    /// The type whose schema was asked for.
    public var type: String
    /// Where in it, as a JSONPath-like location: `$`, `$.days[*].title`,
    /// `$.scores.*` (a dictionary's values).
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// An error deriving `type`'s schema at `path`.
    public init(type: String, path: String, reason: Reason) {
        self.type = type
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let why =
            switch reason {
            case .unsupportedType(let name): "\(name) has no schema in the supported subset; declare one (JSONSchemaDeclaring) or override the property's"
            case .nonStringDictionaryKeys(let name): "a dictionary's keys must be String, not \(name)"
            case .enumNotCaseIterable(let name): "\(name) is a raw-value enum that is not CaseIterable, so its cases cannot be listed"
            case .unsupportedEnum(let name): "\(name) needs at least one case and String or Int raw values"
            case .readsPresence(let what): "init(from:) asks \(what), so its shape depends on the input (an enum with associated values?); declare its schema"
            case .branchesOnValues(let what): "init(from:) branches on the values it reads (\(what)); declare its schema"
            case .decodedTwice(let what): "init(from:) decodes \(what) twice"
            case .unreadableShape(let what): "init(from:) \(what)"
            case .recursionWithoutEnd(let name): "\(name) contains itself without an optional or a collection, so no finite value has it"
            case .annotatedKeyNotDecoded(let key): "an annotation names \(key.debugDescription), which init(from:) never decodes"
            case .declaredSchemaDoesNotDecode(let why): "the smallest value of the declared schema does not decode: \(why)"
            }
        return "\(type) at \(path): \(why)"
    }
}
