// Unkeyed decoding over a JSONArray (which, in a partial value, holds the
// elements so far; the last one may be incomplete).

struct _UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: _NodeDecoder
    let array: JSONArray
    private(set) var currentIndex = 0

    init(decoder: _NodeDecoder, array: JSONArray) {
        self.decoder = decoder
        self.array = array
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var _path: [any CodingKey] { codingPath + [_AnyKey(intValue: currentIndex)] }

    private func _element<T>(_ type: T.Type) throws -> JSONValue {
        guard let element = array.element(at: currentIndex) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: _path, debugDescription: "Array has no element at index \(currentIndex)"))
        }
        return element
    }

    private mutating func _decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unbox(type, from: try _element(type), at: _path)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard try _element(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try _decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try _decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try _decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try _decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try _decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try _decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try _decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try _decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try _decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try _decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try _decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try _decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try _decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try _decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try _decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.child(try _element(JSONObject.self), at: _path).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.child(try _element(JSONArray.self), at: _path).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = decoder.child(try _element(JSONValue.self), at: _path)
        currentIndex += 1
        return child
    }
}
