// Schemas derived from Codable types equal the schemas written out by hand
// below (every supported kind, nesting, recursion, optionals, enums,
// annotations), and a value of each type, encoded by JSONEncoder, passes
// the derived schema (checked by SchemaCheck, not by the library).

import Foundation
import IncrementalJSON
import Testing

/// `{"type":"object",…}` with these properties (given as JSON text) and required keys.
private func object(_ properties: String, required: [String], description: String? = nil, defs: String? = nil) -> String {
    let described = description.map { #","description":"\#($0)""# } ?? ""
    let list = required.map { "\"\($0)\"" }.joined(separator: ",")
    let tail = defs.map { #","$defs":{\#($0)}"# } ?? ""
    return #"{"type":"object"\#(described),"properties":{\#(properties)},"required":[\#(list)],"additionalProperties":false\#(tail)}"#
}

/// `{"$ref":"#/$defs/NAME"}`.
private func ref(_ name: String) -> String { "{\"$ref\":\"#/$defs/\(name)\"}" }

private let place = object(#""city":{"type":"string"},"country":{"type":"string"}"#, required: ["city", "country"])
private let day = object(#""title":{"type":"string"},"activities":{"type":"array","items":{"type":"string"}}"#, required: ["title", "activities"])
private let mood = #"{"type":"string","enum":["calm","busy","wild"]}"#
private let priority = #"{"type":"integer","enum":[1,2,3]}"#
private let treeNode = object(#""name":{"type":"string"},"children":{"type":"array","items":\#(ref("TreeNode"))}"#, required: ["name", "children"])
private let shape =
    #"{"anyOf":[\#(object(#""circle":\#(object(#""radius":{"type":"number"}"#, required: ["radius"]))"#, required: ["circle"])),\#(object(#""square":\#(object(#""side":{"type":"number"}"#, required: ["side"]))"#, required: ["square"]))]}"#

/// Checks the derived schema of `type` against `expected` and `sample`'s JSON against the derived schema.
private func expectSchema<T: Codable>(
    _ type: T.Type, _ expected: String, sample: T,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let schema = try JSONSchema(for: type)
    #expect(schema.jsonValue.compactJSON == expected, "\(T.self)", sourceLocation: sourceLocation)
    #expect(try JSONValue.parse(expected) == schema.jsonValue, sourceLocation: sourceLocation)
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let json = try JSONValue.parse(String(decoding: try encoder.encode(sample), as: UTF8.self))
    #expect(SchemaCheck(document: schema.jsonValue).violations(of: json) == [], "\(T.self): \(json.compactJSON)", sourceLocation: sourceLocation)
    #expect(schema.validate(json) == [], sourceLocation: sourceLocation)
    // What JSONEncoder wrote decodes back through the package's decoder.
    _ = try JSONValueDecoder(requireComplete: true).decode(type, from: json)
}

@Suite struct SchemaDerivationTests {
    @Test func scalars() throws {
        try expectSchema(
            Declared.Scalars.self,
            object(
                #""name":{"type":"string"},"flag":{"type":"boolean"},"count":{"type":"integer"},"ratio":{"type":"number"}"#,
                required: ["name", "flag", "count", "ratio"]),
            sample: .init(name: "n", flag: true, count: -3, ratio: 0.25))
    }

    @Test func everyIntegerType() throws {
        let letters = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        try expectSchema(
            Declared.Integers.self,
            object(letters.map { #""\#($0)":{"type":"integer"}"# }.joined(separator: ","), required: letters),
            sample: .init(a: -8, b: -16, c: -32, d: .min, e: 1, f: 255, g: 65535, h: 1 << 31, i: .max))
    }

    @Test func floatingPointAndDecimal() throws {
        try expectSchema(
            Declared.Floats.self,
            object(#""single":{"type":"number"},"double":{"type":"number"},"exact":{"type":"number"}"#, required: ["single", "double", "exact"]),
            sample: .init(single: 1.5, double: 1e-9, exact: Decimal(string: "12.345") ?? 0))
    }

    @Test func dateURLAndUUIDAreFormattedStrings() throws {
        try expectSchema(
            Declared.Formats.self,
            object(
                #""when":{"type":"string","format":"date-time"},"link":{"type":"string","format":"uri"},"id":{"type":"string","format":"uuid"}"#,
                required: ["when", "link", "id"]),
            sample: .init(when: Date(timeIntervalSince1970: 1_800_000_000), link: URL(string: "https://swift.org/x") ?? URL(fileURLWithPath: "/"), id: UUID()))
    }

    @Test func optionalsAreNotRequired() throws {
        try expectSchema(
            Declared.Optionals.self,
            object(#""nickname":{"type":"string"},"age":{"type":"integer"},"name":{"type":"string"}"#, required: ["name"]),
            sample: .init(nickname: nil, age: 4, name: "x"))
    }

    @Test func arraysSetsAndDictionaries() throws {
        try expectSchema(
            Declared.Arrays.self,
            object(
                #""tags":{"type":"array","items":{"type":"string"}},"grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}}"#,
                required: ["tags", "grid"]),
            sample: .init(tags: ["a"], grid: [[1, 2], []]))
        try expectSchema(
            Declared.Sets.self, object(#""labels":{"type":"array","items":{"type":"string"}}"#, required: ["labels"]),
            sample: .init(labels: ["x", "y"]))
        try expectSchema(
            Declared.Dictionaries.self,
            object(
                #""scores":{"type":"object","additionalProperties":{"type":"integer"}},"series":{"type":"object","additionalProperties":{"type":"array","items":{"type":"number"}}}"#,
                required: ["scores", "series"]),
            sample: .init(scores: ["a": 1, "b": 2], series: ["s": [1.5]]))
        try expectSchema(
            Declared.NullableElements.self,
            object(#""slots":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"null"}]}}"#, required: ["slots"]),
            sample: .init(slots: ["a", nil]))
    }

    @Test func nestedTypes() throws {
        try expectSchema(
            Declared.Itinerary.self,
            object(#""destination":\#(place),"days":{"type":"array","items":\#(day)},"backup":\#(place)"#, required: ["destination", "days"]),
            sample: .init(destination: .init(city: "Oslo", country: "Norway"), days: [.init(title: "t", activities: ["ski"])], backup: nil))
        try expectSchema(
            Declared.Boxes.self,
            object(
                #""text":\#(object(#""content":{"type":"string"},"count":{"type":"integer"}"#, required: ["content", "count"])),"numbers":\#(object(#""content":{"type":"array","items":{"type":"integer"}},"count":{"type":"integer"}"#, required: ["content", "count"]))"#,
                required: ["text", "numbers"]),
            sample: .init(text: .init(content: "c", count: 1), numbers: .init(content: [1], count: 1)))
        try expectSchema(
            Declared.Account.self, object(#""owner":{"type":"string"},"balance":{"type":"number"}"#, required: ["owner", "balance"]),
            sample: .init(owner: "o", balance: 10))
        try expectSchema(Declared.Empty.self, object("", required: []), sample: .init())
    }

    @Test func caseIterableEnums() throws {
        try expectSchema(
            Declared.Ticket.self,
            object(#""mood":\#(mood),"priority":\#(priority),"fallback":\#(mood)"#, required: ["mood", "priority"]),
            sample: .init(mood: .wild, priority: .high, fallback: .calm))
        try expectSchema(
            Declared.Moods.self,
            object(
                #""moods":{"type":"array","items":\#(mood)},"byPerson":{"type":"object","additionalProperties":\#(priority)}"#, required: ["moods", "byPerson"]),
            sample: .init(moods: [.busy], byPerson: ["ann": .low]))
    }

    @Test func recursiveTypesUseDefinitions() throws {
        try expectSchema(
            Declared.TreeNode.self, "{\"$ref\":\"#/$defs/TreeNode\",\"$defs\":{\"TreeNode\":\(treeNode)}}",
            sample: .init(name: "root", children: [.init(name: "leaf", children: [])]))
        let listItem = object(#""value":{"type":"integer"},"next":\#(ref("ListItem"))"#, required: ["value"])
        try expectSchema(
            Declared.ListItem.self, "{\"$ref\":\"#/$defs/ListItem\",\"$defs\":{\"ListItem\":\(listItem)}}",
            sample: .init(value: 1, next: .init(value: 2, next: nil)))
        let pet = object(#""species":{"type":"string"},"owner":\#(ref("Person"))"#, required: ["species"])
        let person = object(#""name":{"type":"string"},"pets":{"type":"array","items":\#(pet)}"#, required: ["name", "pets"])
        try expectSchema(
            Declared.Person.self, "{\"$ref\":\"#/$defs/Person\",\"$defs\":{\"Person\":\(person)}}",
            sample: .init(name: "p", pets: [.init(species: "cat", owner: .init(name: "q", pets: []))]))
        try expectSchema(
            Declared.Outline.self,
            object(
                #""title":{"type":"string"},"tree":\#(ref("TreeNode")),"more":{"type":"array","items":\#(ref("TreeNode"))}"#,
                required: ["title", "tree", "more"], defs: #""TreeNode":\#(treeNode)"#),
            sample: .init(title: "t", tree: .init(name: "r", children: []), more: []))
    }

    @Test func annotationsDescribeAndConstrain() throws {
        try expectSchema(
            Declared.Booking.self,
            object(
                #""guest":{"type":"string","description":"Full name (1 to 80 characters)"},"nights":{"type":"integer","description":"Nights (at least 1 and at most 30)"},"code":{"type":"string","pattern":"^[A-Z]{3}[0-9]{2}$"},"rooms":{"type":"array","description":"Room numbers (1 to 4 items)","items":{"type":"string"},"minItems":1},"email":{"type":"string","format":"email"},"tier":{"type":"string","description":"Tier","enum":["basic","plus"]}"#,
                required: ["guest", "nights", "code", "rooms", "email", "tier"], description: "A hotel booking"),
            sample: .init(guest: "Ann", nights: 3, code: "ABC12", rooms: ["101"], email: "a@b.c", tier: "plus"))
    }

    @Test func annotationsThroughSynthesizedCodingKeys() throws {
        try expectSchema(
            Declared.Note.self,
            object(
                #""text":{"type":"string","description":"The note (at most 280 characters)"},"pinned":{"type":"boolean"}"#,
                required: ["text"], description: "A note"),
            sample: .init(text: "milk", pinned: true))
    }

    @Test func constraintsNotSentAreCheckedOnTheValue() throws {
        let schema = try JSONSchema(for: Declared.Booking.self)
        let value = try JSONValue.parse(#"{"guest":"","nights":31,"code":"abc","rooms":["1","2","3","4","5"],"email":"x@y","tier":"gold"}"#)
        #expect(
            schema.validate(value).map(\.description) == [
                "$.guest: 0 characters, fewer than 1",
                "$.nights: 31 is greater than 30",
                #"$.code: "abc" does not match "^[A-Z]{3}[0-9]{2}$""#,
                "$.rooms: 5 items, more than 4",
                #"$.tier: "gold" is not one of "basic", "plus""#,
            ])
    }

    @Test func overriddenAndDeclaredSchemas() throws {
        try expectSchema(
            Declared.Event.self,
            object(
                #""kind":{"type":"string"},"payload":\#(object(#""x":{"type":"number"}"#, required: ["x"], description: "The event's data"))"#,
                required: ["kind", "payload"]),
            sample: .init(kind: "k", payload: ["x": 1]))
        try expectSchema(
            Declared.Drawing.self,
            object(#""title":{"type":"string"},"shapes":{"type":"array","items":\#(shape)},"main":\#(shape)"#, required: ["title", "shapes", "main"]),
            sample: .init(title: "d", shapes: [.circle(radius: 1), .square(side: 2)], main: .square(side: 3)))
    }

    @Test func customInitsNestedContainersAndSingleValues() throws {
        try expectSchema(
            Declared.Coordinates.self,
            object(
                #""position":\#(object(#""lat":{"type":"number"},"lon":{"type":"number"}"#, required: ["lat", "lon"])),"label":{"type":"string"}"#,
                required: ["position"]),
            sample: .init(latitude: 59.9, longitude: 10.7, label: "Oslo"))
        try expectSchema(
            Declared.Contact.self,
            object(#""primary":{"type":"string"},"others":{"type":"array","items":{"type":"string"}}"#, required: ["primary", "others"]),
            sample: .init(primary: .init("a@b.c"), others: [.init("d@e.f")]))
        try expectSchema(
            Declared.ExplicitNull.self, object(#""note":{"anyOf":[{"type":"string"},{"type":"null"}]}"#, required: ["note"]),
            sample: .init(note: nil))
        try expectSchema(
            Declared.Tagged.self,
            object(
                #""tags":{"type":"array","items":{"type":"string"}},"optionalList":{"type":"array","items":{"type":"integer"}},"place":\#(place)"#,
                required: ["tags"]),
            sample: .init(tags: [.init(rawValue: "t")], optionalList: [1], place: .init(city: "c", country: "d")))
    }

    @Test func aSchemaIsDerivedOncePerType() throws {
        let before = Counted.inits.withLock { $0 }
        _ = try JSONSchema(for: Counted.self)
        let afterFirst = Counted.inits.withLock { $0 }
        for _ in 0..<100 { _ = try JSONSchema(for: Counted.self) }
        #expect(afterFirst - before == 2)  // two recordings: the placeholder sets that must agree
        #expect(Counted.inits.withLock { $0 } == afterFirst)
    }

    @Test func concurrentFirstUsesAgree() async throws {
        let schemas = await withTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? JSONSchema(for: Raced.self))?.jsonValue.compactJSON ?? "failed" }
            }
            var all: [String] = []
            for await schema in group { all.append(schema) }
            return all
        }
        #expect(schemas.count == 16)
        #expect(
            Set(schemas) == [object(#""id":{"type":"string","format":"uuid"},"tags":{"type":"array","items":{"type":"string"}}"#, required: ["id", "tags"])])
    }
}

/// Derived only by the concurrency test.
private struct Raced: Decodable {
    var id: UUID
    var tags: [String]
}
