// Codable for JSONValue and JSONNumber: they encode and decode as the JSON
// they represent, through any Encoder/Decoder.
//
// Through ``JSONValueDecoder`` a `JSONValue` or `JSONNumber` property gets
// the node itself (exact number text, arrival order, partial state). Through
// other decoders (e.g. Foundation's JSONDecoder) the value is rebuilt best
// effort: numbers are tried as Int64, then UInt64, then Double (so a long
// decimal may be rounded to Double), and object key order is whatever the
// decoder's `allKeys` gives (Foundation does not promise one).
// Encoding a number writes Int64 or UInt64 when the text is an integer in
// range, otherwise Double.

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let node = decoder as? any JSONValueDecoding {
            self = node.node
            return
        }
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [(String, JSONValue)] = []
            for key in container.allKeys {
                members.append((key.stringValue, try container.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .number(try JSONNumber(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch kind {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            try number.encode(to: encoder)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text.string)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in object.entries { try container.encode(value, forKey: AnyKey(key)) }
        }
    }
}

extension JSONNumber: Codable {
    public init(from decoder: any Decoder) throws {
        if let node = decoder as? any JSONValueDecoding, let number = node.node.numberValue {
            self = number
            return
        }
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self.init(_unchecked: String(value))
        } else if let value = try? container.decode(UInt64.self) {
            self.init(_unchecked: String(value))
        } else {
            self.init(try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = try? int64() {
            try container.encode(value)
        } else if let value = try? uint64() {
            try container.encode(value)
        } else {
            try container.encode(try double())
        }
    }
}

/// A coding key for arbitrary member names.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
