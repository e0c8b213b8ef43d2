// Keyed decoding over a JSONObject. A key that is absent (or not yet
// arrived, in a partial value) is `keyNotFound` for `decode` and nil for
// `decodeIfPresent`; with duplicate keys the last member wins.
//
// One partial-value rule lives here: an optional property whose value is a
// string still growing and which does not decode yet (an enum whose raw value
// is half there, a URL, a date) is nil, not an error; it appears once it
// decodes. Strict decoding (`requireComplete`) keeps the error.

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let object: JSONObject

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        var seen = Set<String>()
        return object.keys.filter { seen.insert($0).inserted }.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func memberValue(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No member \(key.stringValue.debugDescription)"))
        }
        return value
    }

    private func decodeNext<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.unbox(type, from: try memberValue(key), at: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try memberValue(key).isNull }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        do {
            return try decoder.unbox(type, from: value, at: codingPath + [key])
        } catch  where !decoder.requireComplete && !value.isComplete && value.text != nil {
            return nil
        }
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeNext(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeNext(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeNext(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeNext(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeNext(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeNext(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeNext(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeNext(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeNext(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeNext(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeNext(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeNext(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeNext(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeNext(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeNext(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try memberValue(key), at: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try memberValue(key), at: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(object[AnyKey.superKey] ?? .null, at: codingPath + [AnyKey(AnyKey.superKey)])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, at: codingPath + [key])
    }
}

extension AnyKey {
    static let superKey = "super"
}
