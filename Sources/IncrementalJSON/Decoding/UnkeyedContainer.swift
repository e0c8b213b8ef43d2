// Unkeyed decoding over a JSONArray (which, in a partial value, holds the
// elements so far; the last one may be incomplete).

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let array: JSONArray
    private(set) var currentIndex = 0

    init(decoder: NodeDecoder, array: JSONArray) {
        self.decoder = decoder
        self.array = array
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var elementPath: [any CodingKey] { codingPath + [AnyKey(intValue: currentIndex)] }

    private func currentElement<T>(_ type: T.Type) throws -> JSONValue {
        guard let element = array.element(at: currentIndex) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath, debugDescription: "Array has no element at index \(currentIndex)"))
        }
        return element
    }

    private mutating func decodeNext<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unbox(type, from: try currentElement(type), at: elementPath)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard try currentElement(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeNext(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.child(try currentElement(JSONObject.self), at: elementPath).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.child(try currentElement(JSONArray.self), at: elementPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = decoder.child(try currentElement(JSONValue.self), at: elementPath)
        currentIndex += 1
        return child
    }
}
