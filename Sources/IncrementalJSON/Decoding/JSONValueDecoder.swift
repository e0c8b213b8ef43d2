// JSONValueDecoder: `Decodable` types from a (possibly partial) value tree.
//
// This is the `@Generable` / `PartiallyGenerated` pattern without macros:
// declare the complete type and a twin whose properties are all optional;
// the twin decodes from the parser's snapshot at any moment (a missing member
// is nil, a growing string is its text so far, an open array holds the
// elements so far, and a nested open object decodes into the nested twin),
// and the complete type decodes from the final value.
//
// The decoder walks the tree directly (no JSON text in between). Numbers
// convert from their exact text, with an error rather than a rounded value
// when they do not fit. Every error is a `DecodingError` whose context has
// the coding path to the offending node.

import Foundation

/// Decodes `Decodable` types from a ``JSONValue``.
///
/// ```swift
/// let partial = try JSONValueDecoder().decode(Trip.Partial.self, from: snapshot)
/// var strict = JSONValueDecoder(); strict.requireComplete = true
/// let trip = try strict.decode(Trip.self, from: final)
/// ```
public struct JSONValueDecoder: Sendable {
    /// When true, any incomplete node is an error (`dataCorrupted`), so a
    /// decoded value is known to be final.
    public var requireComplete: Bool = false

    /// A decoder; `requireComplete` as the property of that name.
    public init(requireComplete: Bool = false) {
        self.requireComplete = requireComplete
    }

    /// Decodes `type` from `value`.
    ///
    /// - Throws: `DecodingError` with the coding path of the failing node.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try NodeDecoder(node: value, codingPath: [], requireComplete: requireComplete).unbox(T.self, from: value, at: [])
    }
}

/// Lets `JSONValue`/`JSONNumber` take the node itself instead of rebuilding it.
protocol JSONValueDecoding {
    var node: JSONValue { get }
}

/// The `Decoder` for one node; also its single-value container.
struct NodeDecoder: Decoder, SingleValueDecodingContainer, JSONValueDecoding {
    let node: JSONValue
    let codingPath: [any CodingKey]
    let requireComplete: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = node.objectValue else { throw mismatch([String: JSONValue].self, node, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = node.arrayValue else { throw mismatch([JSONValue].self, node, codingPath) }
        return UnkeyedContainer(decoder: self, array: array)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A decoder for a child node.
    func child(_ node: JSONValue, at path: [any CodingKey]) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: path, requireComplete: requireComplete)
    }

    // MARK: Unboxing

    /// Decodes `T` from `value` (located at `path`).
    func unbox<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        if requireComplete && !value.isComplete {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Value is incomplete: \(summary(value))"))
        }
        if let result = try primitive(T.self, from: value, at: path) { return result }
        return try T(from: child(value, at: path))
    }

    /// Types decoded from a scalar node directly; nil for everything else.
    private func primitive<T>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T? {
        if T.self == String.self {
            guard let text = value.text else { throw mismatch(T.self, value, path) }
            return text.string as? T
        }
        if T.self == Bool.self {
            guard let flag = value.boolValue else { throw mismatch(T.self, value, path) }
            return flag as? T
        }
        if T.self == JSONValue.self { return value as? T }
        if T.self == AppendOnlyText.self {
            guard let text = value.text else { throw mismatch(T.self, value, path) }
            return text as? T
        }
        if let integer = T.self as? any (FixedWidthInteger & Decodable).Type {
            return try decodeInteger(integer, from: value, at: path) as? T
        }
        if T.self == Double.self || T.self == Float.self {
            let number = try jsonNumber(T.self, value, path)
            let double: Double
            do { double = try number.double() } catch { throw corrupted(error, path) }
            if T.self == Float.self {
                let narrowed = Float(double)
                guard narrowed.isFinite else { throw corrupted(JSONNumberError.outOfRange(number.text, type: "Float"), path) }
                return narrowed as? T
            }
            return double as? T
        }
        if T.self == Decimal.self {
            let number = try jsonNumber(T.self, value, path)
            do { return try number.decimal() as? T } catch { throw corrupted(error, path) }
        }
        if T.self == Date.self {
            // The schema of a Date is an ISO 8601 `date-time` string; a number
            // is Foundation's default encoding (seconds since 2001), kept so
            // values written by a default JSONEncoder still decode.
            if let number = value.numberValue {
                do { return Date(timeIntervalSinceReferenceDate: try number.double()) as? T } catch { throw corrupted(error, path) }
            }
            guard let text = value.stringValue else { throw mismatch(T.self, value, path) }
            guard let date = (try? Date(text, strategy: .iso8601)) ?? fractionalDate(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid ISO 8601 date-time \(text.debugDescription)"))
            }
            return date as? T
        }
        if T.self == URL.self {
            guard let text = value.stringValue else { throw mismatch(T.self, value, path) }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string \(text.debugDescription)"))
            }
            return url as? T
        }
        return nil
    }

    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type, from value: JSONValue, at path: [any CodingKey]) throws -> I {
        let number = try jsonNumber(I.self, value, path)
        do {
            if I.isSigned {
                if let result = I(exactly: try number.int64()) { return result }
            } else if let result = I(exactly: try number.uint64()) {
                return result
            }
        } catch {
            throw corrupted(error, path)
        }
        throw corrupted(JSONNumberError.outOfRange(number.text, type: "\(I.self)"), path)
    }

    private func jsonNumber<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> JSONNumber {
        guard let number = value.numberValue else { throw mismatch(T.self, value, path) }
        return number
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unbox(type, from: node, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unbox(type, from: node, at: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type, from: node, at: codingPath) }
}

// MARK: Errors

func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if value.isNull {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) but found null"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected \(type) but found \(summary(value))"))
}

func corrupted(_ error: any Error, _ path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(.init(codingPath: path, debugDescription: "\(error)", underlyingError: error))
}

/// A short description of a node for error messages.
func summary(_ value: JSONValue) -> String {
    switch value.kind {
    case .null: "null"
    case .bool(let flag): "bool \(flag)"
    case .number(let number): "number \(number.text)"
    case .string: "a string"
    case .array(let array): "an array of \(array.count)"
    case .object(let object): "an object of \(object.count) members"
    }
}
