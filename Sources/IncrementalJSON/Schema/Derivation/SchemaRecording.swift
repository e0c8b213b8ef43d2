// One derivation: the types being recorded (to see recursion), the
// definitions found, and which placeholder set the recorder hands out.

import Foundation

final class SchemaRecording {
    let rootName: String
    /// 0 or 1: which placeholder values the recorder returns.
    let variant: Int
    /// The types whose `init(from:)` is running, outermost first.
    private var stack: [ObjectIdentifier] = []
    /// Types met inside their own `init(from:)`.
    private var recursive: Set<ObjectIdentifier> = []
    private var definitions: [(id: ObjectIdentifier, definition: JSONSchema.Definition)] = []
    private var names: [ObjectIdentifier: String] = [:]

    init<T>(root: T.Type, variant: Int) {
        rootName = typeName(root)
        self.variant = variant
    }

    func error(_ path: [String], _ reason: SchemaDerivationError.Reason) -> SchemaDerivationError {
        SchemaDerivationError(type: rootName, path: "$" + path.joined(), reason: reason)
    }

    /// The schema of the root type, with `$defs` when it holds recursive types.
    func document<T: Decodable>(for type: T.Type) throws(SchemaDerivationError) -> JSONSchema {
        let root = try derive(type, at: [], needValue: false).schema
        if definitions.isEmpty { return root }
        return .defining(definitions.map(\.definition), root: root)
    }

    /// The schema of `type` at `path`, and a value of it for the caller's
    /// `init(from:)` to go on with (nil when `needValue` is false and none is
    /// at hand: a type met inside itself).
    func derive<T: Decodable>(_ type: T.Type, at path: [String], needValue: Bool) throws(SchemaDerivationError) -> (schema: JSONSchema, value: T?) {
        if let scalar = scalarSchema(type) { return scalar }
        if let declaring = type as? any JSONSchemaDeclaring.Type {
            let schema = declaring.declaredSchema
            return (schema, needValue ? try placeholder(type, from: schema, at: path) : nil)
        }
        if let container = type as? any SchemaContainerKind.Type {
            let (schema, value) = try container.recordSchema(self, at: path)
            return (schema, value as? T)
        }
        if let dictionary = type as? any AnyDictionaryKind.Type {
            throw error(path, .nonStringDictionaryKeys(dictionary.keyTypeName))
        }
        if let enumeration = type as? any (RawRepresentable & CaseIterable).Type {
            guard let (schema, value) = enumSchema(enumeration, variant: variant) else {
                throw error(path, .unsupportedEnum(typeName(type)))
            }
            return (schema, value as? T)
        }
        if type == JSONValue.self || type == Data.self { throw error(path, .unsupportedType(typeName(type))) }

        let id = ObjectIdentifier(type)
        if stack.contains(id) {
            recursive.insert(id)
            if needValue { throw error(path, .recursionWithoutEnd(typeName(type))) }
            return (.reference(name(of: type)), nil)
        }
        stack.append(id)
        defer { stack.removeLast() }
        let annotations = (type as? any JSONSchemaAnnotated.Type)?.schemaAnnotations
        let shape = RecordedShape()
        let decoder = SchemaRecorder(recording: self, shape: shape, path: path, annotations: annotations)
        let value: T
        do {
            value = try T(from: decoder)
        } catch let failure as SchemaDerivationError {
            throw shape.failure ?? failure
        } catch {
            if let failure = shape.failure { throw failure }
            if type is any RawRepresentable.Type { throw self.error(path, .enumNotCaseIterable(typeName(type))) }
            throw self.error(path, .branchesOnValues("it threw on placeholder values: \(error)"))
        }
        if let failure = shape.failure { throw failure }
        var schema = try shape.schema(self, at: path, description: annotations?.description)
        if let annotations {
            let decoded = shape.decodedKeys
            if let unknown = annotations.properties.first(where: { !decoded.contains($0.key) }) {
                throw error(path, .annotatedKeyNotDecoded(unknown.key))
            }
        }
        if recursive.contains(id) {
            let name = name(of: type)
            definitions.removeAll { $0.id == id }
            definitions.append((id, JSONSchema.Definition(name, schema)))
            schema = .reference(name)
        }
        return (schema, value)
    }

    /// A value of `type` decoded from the smallest value of `schema`.
    func placeholder<T: Decodable>(_ type: T.Type, from schema: JSONSchema, at path: [String]) throws(SchemaDerivationError) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: smallestValue(of: schema, definitions: [:], depth: 0))
        } catch {
            throw self.error(path, .declaredSchemaDoesNotDecode("\(error)"))
        }
    }

    /// The `$defs` name of `type`: its Swift name with other characters as
    /// `_`, numbered when two types share a name.
    private func name<T>(of type: T.Type) -> String {
        let id = ObjectIdentifier(type)
        if let known = names[id] { return known }
        let base = String(typeName(type).map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        var candidate = base
        var number = 2
        while names.values.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        names[id] = candidate
        return candidate
    }

    // MARK: Scalars

    /// The schema and placeholder of a scalar type; nil for every other type.
    private func scalarSchema<T>(_ type: T.Type) -> (schema: JSONSchema, value: T?)? {
        let one = variant == 1
        func scalar(_ schema: JSONSchema, _ value: Any) -> (schema: JSONSchema, value: T?) { (schema, value as? T) }
        if type == String.self { return scalar(.string(), one ? "x" : "") }
        if type == Bool.self { return scalar(.boolean(), one) }
        if let integer = type as? any (FixedWidthInteger & Decodable).Type { return scalar(.integer(), decodeInteger(integer, one)) }
        if let float = type as? any (BinaryFloatingPoint & Decodable).Type { return scalar(.number(), unitFloat(float, one)) }
        if type == Decimal.self { return scalar(.number(), Decimal(one ? 1 : 0)) }
        if type == Date.self { return scalar(.constrained(.string(), [.format("date-time")]), Date(timeIntervalSince1970: one ? 1 : 0)) }
        if type == URL.self {
            return scalar(.constrained(.string(), [.format("uri")]), URL(string: one ? "https://example.com/1" : "https://example.com") as Any)
        }
        if type == UUID.self {
            return scalar(.constrained(.string(), [.format("uuid")]), one ? UUID() : UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        }
        if type == AppendOnlyText.self { return scalar(.string(), AppendOnlyText(one ? "x" : "")) }
        return nil
    }

    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, _ one: Bool) -> I { one ? 1 : 0 }
    private func unitFloat<F: BinaryFloatingPoint>(_ type: F.Type, _ one: Bool) -> F { one ? 1 : 0 }
}

/// The smallest JSON value `schema` accepts, for decoding a placeholder of
/// a type whose schema is declared rather than recorded.
func smallestValue(of schema: JSONSchema, definitions: [String: JSONSchema], depth: Int) -> JSONValue {
    guard depth < 64 else { return nil }
    switch schema {
    case .object(let properties, _):
        return .object(properties.filter(\.isRequired).map { ($0.name, smallestValue(of: $0.schema, definitions: definitions, depth: depth + 1)) })
    case .array: return []
    case .string(let values, _): return .string(values?.first ?? "")
    case .number: return 0
    case .integer(let values, _): return .number(JSONNumber(values?.first ?? 0))
    case .boolean: return false
    case .anyOf(let alternatives, _):
        return alternatives.first.map { smallestValue(of: $0, definitions: definitions, depth: depth + 1) } ?? nil
    case .nullable: return nil
    case .dictionary: return [:]
    case .constrained(let wrapped, let constraints):
        for constraint in constraints {
            switch constraint {
            case .format("date-time"): return "1970-01-01T00:00:00Z"
            case .format("uuid"): return "00000000-0000-0000-0000-000000000000"
            case .format("uri"): return "https://example.com"
            case .allowed(let values): if let first = values.first { return .string(first) }
            case .range(let range): return .number(JSONNumber(range.lowerBound))
            case .minimum(let bound): return .number(JSONNumber(bound))
            default: continue
            }
        }
        return smallestValue(of: wrapped, definitions: definitions, depth: depth + 1)
    case .reference(let name):
        return definitions[name].map { smallestValue(of: $0, definitions: definitions, depth: depth + 1) } ?? nil
    case .defining(let list, let root):
        var known = definitions
        for definition in list { known[definition.name] = definition.schema }
        return smallestValue(of: root, definitions: known, depth: depth + 1)
    }
}
