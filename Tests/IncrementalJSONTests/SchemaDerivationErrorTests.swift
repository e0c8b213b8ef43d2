// Shapes a schema cannot be derived from, or could only be derived wrongly:
// each is a SchemaDerivationError naming the type, the coding path and why.

import Foundation
import IncrementalJSON
import Testing

private enum Unsupported {
    enum Pick: Codable { case one(Int), two(String) }
    struct HasPick: Codable {
        var name: String
        var pick: Pick
    }
    enum Loose: String, Codable { case a, b }
    struct HasLoose: Codable {
        var items: [Inner]
        struct Inner: Codable { var mood: Loose }
    }
    struct IntKeys: Codable { var map: [Int: String] }
    struct Free: Codable {
        var scores: [String: Inner]
        struct Inner: Codable { var payload: JSONValue }
    }
    struct Bytes: Codable { var blob: Data }
    final class Chain: Decodable { let next: Chain }
    enum NoCases: String, Decodable, CaseIterable {
        case only
        static var allCases: [NoCases] { [] }
    }
    enum DoubleRaw: Double, Decodable, CaseIterable { case half = 0.5 }

    /// Switches on a value it read and throws on anything else.
    struct Switching: Decodable {
        enum CodingKeys: String, CodingKey { case kind, radius, side }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            switch try c.decode(String.self, forKey: .kind) {
            case "circle": _ = try c.decode(Double.self, forKey: .radius)
            case "square": _ = try c.decode(Double.self, forKey: .side)
            default: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown kind")
            }
        }
    }
    struct HasSwitching: Decodable { var shapes: [Switching] }

    /// Reads a flag and decodes more when it is set.
    struct Flagged: Decodable {
        enum CodingKeys: String, CodingKey { case detailed, details }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if try c.decode(Bool.self, forKey: .detailed) { _ = try c.decode(String.self, forKey: .details) }
        }
    }

    /// Asks whether a key is there, swallowing the error with try?.
    struct Probing: Decodable {
        enum CodingKeys: String, CodingKey { case a, b }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.a) { _ = try? c.decode(Int.self, forKey: .a) }
        }
    }

    struct Twice: Decodable {
        enum CodingKeys: String, CodingKey { case a }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            _ = try c.decode(Int.self, forKey: .a)
            _ = try c.decode(String.self, forKey: .a)
        }
    }

    struct NullFirst: Decodable {
        var value: Int?
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            value = c.decodeNil() ? nil : try c.decode(Int.self)
        }
    }
    struct HasNullFirst: Decodable { var slot: NullFirst }

    struct Pair: Decodable {
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            _ = try c.decode(String.self)
            _ = try c.decode(Int.self)
        }
    }

    class Base: Decodable { var id: Int = 0 }
    final class Derived: Base {
        enum CodingKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            try super.init(from: try decoder.container(keyedBy: CodingKeys.self).superDecoder())
        }
    }

    struct Misannotated: Decodable, JSONSchemaAnnotated {
        var a: Int
        enum CodingKeys: String, CodingKey { case a, b }
        init(from decoder: any Decoder) throws { a = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .a) }
        static var schemaAnnotations: JSONSchemaAnnotations { JSONSchemaAnnotations(keyedBy: CodingKeys.self, [.b: "never decoded"]) }
    }

    enum Odd: Decodable, JSONSchemaDeclaring {
        case value
        init(from decoder: any Decoder) throws {
            guard try decoder.singleValueContainer().decode(String.self) == "odd" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not odd"))
            }
            self = .value
        }
        static var declaredSchema: JSONSchema { .string() }
    }
    struct HasOdd: Decodable { var odd: Odd }
}

private func expectFailure<T: Decodable>(
    _ type: T.Type, at path: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ reason: (SchemaDerivationError.Reason) -> Bool
) {
    do throws(SchemaDerivationError) {
        let schema = try JSONSchema(for: type)
        Issue.record("derived \(schema.jsonValue.compactJSON)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
        #expect(reason(error.reason), "\(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("\(error.type) at \(path): "), sourceLocation: sourceLocation)
    }
}

@Suite struct SchemaDerivationErrorTests {
    @Test func enumWithAssociatedValuesWithoutADeclaredSchema() {
        expectFailure(Unsupported.HasPick.self, at: "$.pick") { if case .readsPresence = $0 { true } else { false } }
    }

    @Test func rawValueEnumThatIsNotCaseIterable() {
        expectFailure(Unsupported.HasLoose.self, at: "$.items[*].mood") { $0 == .enumNotCaseIterable("Loose") }
    }

    @Test func enumsWithoutCasesOrWithOtherRawValues() {
        expectFailure(Unsupported.NoCases.self, at: "$") { $0 == .unsupportedEnum("NoCases") }
        expectFailure(Unsupported.DoubleRaw.self, at: "$") { $0 == .unsupportedEnum("DoubleRaw") }
    }

    @Test func dictionaryKeysMustBeStrings() {
        expectFailure(Unsupported.IntKeys.self, at: "$.map") { $0 == .nonStringDictionaryKeys("Int") }
    }

    @Test func typesWithoutASchema() {
        expectFailure(Unsupported.Free.self, at: "$.scores.*.payload") { $0 == .unsupportedType("JSONValue") }
        expectFailure(Unsupported.Bytes.self, at: "$.blob") { $0 == .unsupportedType("Data") }
    }

    @Test func recursionWithoutAnEnd() {
        expectFailure(Unsupported.Chain.self, at: "$.next") { $0 == .recursionWithoutEnd("Chain") }
    }

    @Test func initBranchingOnValues() {
        expectFailure(Unsupported.HasSwitching.self, at: "$.shapes[*]") { if case .branchesOnValues = $0 { true } else { false } }
        expectFailure(Unsupported.Flagged.self, at: "$.details") { if case .branchesOnValues = $0 { true } else { false } }
    }

    @Test func initAskingWhatIsPresentEvenWhenItSwallowsTheError() {
        expectFailure(Unsupported.Probing.self, at: "$") { $0 == .readsPresence(#"whether "a" is present (contains)"#) }
        expectFailure(Unsupported.HasNullFirst.self, at: "$.slot") { $0 == .readsPresence("whether the value is null (decodeNil)") }
    }

    @Test func decodingAKeyTwiceOrATuple() {
        expectFailure(Unsupported.Twice.self, at: "$.a") { $0 == .decodedTwice(#"the key "a""#) }
        expectFailure(Unsupported.Pair.self, at: "$[*]") { if case .unreadableShape = $0 { true } else { false } }
    }

    @Test func superDecoders() {
        expectFailure(Unsupported.Derived.self, at: "$") { $0 == .unsupportedType("a super decoder (class inheritance)") }
    }

    @Test func annotationOfAKeyNeverDecoded() {
        expectFailure(Unsupported.Misannotated.self, at: "$") { $0 == .annotatedKeyNotDecoded("b") }
    }

    @Test func declaredSchemaWhoseSmallestValueDoesNotDecode() {
        expectFailure(Unsupported.HasOdd.self, at: "$.odd") { if case .declaredSchemaDoesNotDecode = $0 { true } else { false } }
    }

    @Test func theCheckerUsedForRoundTripsRejectsWhatBreaksASchema() throws {
        let schema = try JSONSchema(for: Declared.Itinerary.self).jsonValue
        let value = try JSONValue.parse(#"{"destination":{"city":1},"days":[{"title":"t","activities":"x"}],"extra":true}"#)
        #expect(
            SchemaCheck(document: schema).violations(of: value) == [
                "$.destination: missing country", "$.destination.city: not a string", "$.days[0].activities: not an array", "$: unexpected extra",
            ])
    }
}
