// The decoder that records what `init(from:)` asks for. It hands out
// placeholder values (never data from outside) and writes down, per
// container, the schema of each thing decoded. Whatever would make the
// recorded shape depend on the input — asking which keys exist, whether a
// value is null, a super decoder — is an error noted on the shape, so an
// `init(from:)` that swallows it with `try?` still fails the derivation.

/// What one `init(from:)` asked of its decoder.
final class RecordedShape {
    enum Kind: Equatable { case none, keyed, unkeyed, single }
    /// A property of a keyed container: its schema, or a nested container.
    enum Slot {
        case property(JSONSchema.Property)
        case nested(name: String, RecordedShape)
    }

    var kind = Kind.none
    var slots: [Slot] = []
    var decodedKeys: Set<String> = []
    /// The element schema of an unkeyed container, or the single value's schema.
    var inner: JSONSchema?
    /// The first failure, kept even when `init(from:)` caught it.
    private(set) var failure: SchemaDerivationError?

    func note(_ error: SchemaDerivationError) {
        if failure == nil { failure = error }
    }

    func use(_ wanted: Kind, _ recording: SchemaRecording, at path: [String]) throws {
        if kind != .none, kind != wanted {
            let error = recording.error(path, .unreadableShape("uses two kinds of container of one decoder"))
            note(error)
            throw error
        }
        kind = wanted
    }

    /// The recorded shape as a schema.
    func schema(_ recording: SchemaRecording, at path: [String], description: String?) throws(SchemaDerivationError) -> JSONSchema {
        switch kind {
        case .none, .keyed:
            // An init(from:) that reads nothing (a synthesized one of a type
            // without stored properties) accepts the empty object.
            var properties: [JSONSchema.Property] = []
            for slot in slots {
                switch slot {
                case .property(let property): properties.append(property)
                case .nested(let name, let nested):
                    properties.append(.init(name, try nested.schema(recording, at: path + ["." + name], description: nil)))
                }
            }
            return .object(properties, description: description)
        case .unkeyed:
            guard let inner else { throw recording.error(path, .unreadableShape("opens an array but decodes no element")) }
            return .array(items: inner, description: description)
        case .single:
            guard let inner else { throw recording.error(path, .unreadableShape("opens a single value but decodes nothing")) }
            return inner
        }
    }
}

struct SchemaRecorder: Decoder {
    let recording: SchemaRecording
    let shape: RecordedShape
    let path: [String]
    let annotations: JSONSchemaAnnotations?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try shape.use(.keyed, recording, at: path)
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try shape.use(.unkeyed, recording, at: path)
        return RecordingUnkeyedContainer(recorder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try shape.use(.single, recording, at: path)
        return RecordingSingleValueContainer(recorder: self)
    }

    /// Notes `reason` on the shape and returns it to throw.
    func fail(_ reason: SchemaDerivationError.Reason, at path: [String]? = nil) -> SchemaDerivationError {
        let error = recording.error(path ?? self.path, reason)
        shape.note(error)
        return error
    }

    /// `recording.derive`, with a failure also noted on this shape.
    func derive<T: Decodable>(_ type: T.Type, at path: [String], needValue: Bool) throws -> (schema: JSONSchema, value: T?) {
        do throws(SchemaDerivationError) {
            return try recording.derive(type, at: path, needValue: needValue)
        } catch {
            shape.note(error)
            throw error
        }
    }
}

// MARK: Keyed

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        _ = recorder.fail(.readsPresence("which keys are present (allKeys)"))
        return []
    }

    func contains(_ key: Key) -> Bool {
        _ = recorder.fail(.readsPresence("whether \(key.stringValue.debugDescription) is present (contains)"))
        return false
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        throw recorder.fail(.readsPresence("whether \(key.stringValue.debugDescription) is null (decodeNil)"))
    }

    /// Records the property `key` and returns a placeholder (nil when optional).
    private func record<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T? {
        let name = key.stringValue
        let path = recorder.path + ["." + name]
        guard recorder.shape.decodedKeys.insert(name).inserted else {
            throw recorder.fail(.decodedTwice("the key \(name.debugDescription)"), at: path)
        }
        let annotation = recorder.annotations?.annotation(for: name)
        var schema: JSONSchema
        var value: T?
        if let override = annotation?.schema {
            schema = override
            if required {
                do throws(SchemaDerivationError) {
                    value = try recorder.recording.placeholder(type, from: override, at: path)
                } catch {
                    recorder.shape.note(error)
                    throw error
                }
            }
        } else {
            (schema, value) = try recorder.derive(type, at: path, needValue: required)
        }
        if let constraints = annotation?.constraints, !constraints.isEmpty { schema = .constrained(schema, constraints) }
        recorder.shape.slots.append(.property(.init(name, schema, description: annotation?.description, isRequired: required)))
        if required, value == nil { throw recorder.fail(.recursionWithoutEnd(typeName(type)), at: path) }
        return value
    }

    private func decodeRequired<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        guard let value = try record(type, key, required: true) else {
            throw recorder.fail(.recursionWithoutEnd(typeName(type)))
        }
        return value
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        _ = try record(type, key, required: false)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeRequired(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeRequired(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeRequired(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeRequired(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeRequired(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeRequired(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeRequired(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeRequired(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeRequired(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeRequired(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeRequired(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeRequired(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeRequired(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeRequired(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeRequired(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(recorder: try nestedRecorder(key, .keyed)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(recorder: try nestedRecorder(key, .unkeyed))
    }

    private func nestedRecorder(_ key: Key, _ kind: RecordedShape.Kind) throws -> SchemaRecorder {
        let name = key.stringValue
        let path = recorder.path + ["." + name]
        guard recorder.shape.decodedKeys.insert(name).inserted else {
            throw recorder.fail(.decodedTwice("the key \(name.debugDescription)"), at: path)
        }
        let nested = RecordedShape()
        nested.kind = kind
        recorder.shape.slots.append(.nested(name: name, nested))
        return SchemaRecorder(recording: recorder.recording, shape: nested, path: path, annotations: nil)
    }

    func superDecoder() throws -> any Decoder {
        throw recorder.fail(.unsupportedType("a super decoder (class inheritance)"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw recorder.fail(.unsupportedType("a super decoder (class inheritance)"))
    }
}

// MARK: Unkeyed

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    /// One element is asked for; a loop over the array then ends.
    var isAtEnd: Bool { currentIndex > 0 }
    private(set) var currentIndex = 0

    init(recorder: SchemaRecorder) {
        self.recorder = recorder
    }

    private var elementPath: [String] { recorder.path + ["[*]"] }

    /// Records `schema` as the element schema; elements of different shapes are an error.
    private mutating func record(_ schema: JSONSchema) throws {
        currentIndex += 1
        if let earlier = recorder.shape.inner, earlier != schema {
            throw recorder.fail(.unreadableShape("reads elements of different types from one array (a tuple?)"), at: elementPath)
        }
        recorder.shape.inner = schema
    }

    private mutating func currentElement<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = try recorder.derive(type, at: elementPath, needValue: true)
        try record(schema)
        guard let value else { throw recorder.fail(.recursionWithoutEnd(typeName(type)), at: elementPath) }
        return value
    }

    private mutating func optionalElement<T: Decodable>(_ type: T.Type) throws -> T? {
        try record(.nullable(try recorder.derive(type, at: elementPath, needValue: false).schema))
        return nil
    }

    mutating func decodeNil() throws -> Bool {
        throw recorder.fail(.readsPresence("whether an element is null (decodeNil)"), at: elementPath)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try currentElement(type) }
    mutating func decode(_ type: String.Type) throws -> String { try currentElement(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try currentElement(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try currentElement(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try currentElement(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try currentElement(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try currentElement(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try currentElement(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try currentElement(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try currentElement(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try currentElement(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try currentElement(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try currentElement(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try currentElement(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try currentElement(type) }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try optionalElement(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try optionalElement(type) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try optionalElement(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw recorder.fail(.unreadableShape("opens a container inside an array element by hand; decode a type instead"), at: elementPath)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw recorder.fail(.unreadableShape("opens a container inside an array element by hand; decode a type instead"), at: elementPath)
    }

    mutating func superDecoder() throws -> any Decoder {
        throw recorder.fail(.unsupportedType("a super decoder (class inheritance)"), at: elementPath)
    }
}

// MARK: Single value

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        _ = recorder.fail(.readsPresence("whether the value is null (decodeNil)"))
        return false
    }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if recorder.shape.inner != nil {
            throw recorder.fail(.decodedTwice("its single value (trying one type, then another?)"))
        }
        let (schema, value) = try recorder.derive(type, at: recorder.path, needValue: true)
        recorder.shape.inner = schema
        guard let value else { throw recorder.fail(.recursionWithoutEnd(typeName(type))) }
        return value
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
