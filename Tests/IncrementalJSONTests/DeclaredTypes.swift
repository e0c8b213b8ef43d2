// Types declared once: each derives its schema from its Codable conformance.
// Every one has a sample value (for the round trip through JSONEncoder) and
// the schema it must derive, written out by hand as JSON text.

import Foundation
import IncrementalJSON
import Synchronization

enum Declared {
    struct Scalars: Codable {
        var name: String
        var flag: Bool
        var count: Int
        var ratio: Double
    }
    struct Integers: Codable {
        var a: Int8
        var b: Int16
        var c: Int32
        var d: Int64
        var e: UInt
        var f: UInt8
        var g: UInt16
        var h: UInt32
        var i: UInt64
    }
    struct Floats: Codable {
        var single: Float
        var double: Double
        var exact: Decimal
    }
    struct Formats: Codable {
        var when: Date
        var link: URL
        var id: UUID
    }
    struct Optionals: Codable {
        var nickname: String?
        var age: Int?
        var name: String
    }
    struct Arrays: Codable {
        var tags: [String]
        var grid: [[Int]]
    }
    struct Sets: Codable { var labels: Set<String> }
    struct Dictionaries: Codable {
        var scores: [String: Int]
        var series: [String: [Double]]
    }
    struct Place: Codable {
        var city: String
        var country: String
    }
    struct Day: Codable {
        var title: String
        var activities: [String]
    }
    struct Itinerary: Codable {
        var destination: Place
        var days: [Day]
        var backup: Place?
    }
    enum Mood: String, Codable, CaseIterable { case calm, busy, wild }
    enum Priority: Int, Codable, CaseIterable { case low = 1, normal = 2, high = 3 }
    struct Ticket: Codable {
        var mood: Mood
        var priority: Priority
        var fallback: Mood?
    }
    struct Moods: Codable {
        var moods: [Mood]
        var byPerson: [String: Priority]
    }
    struct TreeNode: Codable {
        var name: String
        var children: [TreeNode]
    }
    final class ListItem: Codable {
        let value: Int
        let next: ListItem?
        init(value: Int, next: ListItem?) {
            self.value = value
            self.next = next
        }
    }
    struct Person: Codable {
        var name: String
        var pets: [Pet]
    }
    struct Pet: Codable {
        var species: String
        var owner: Person?
    }
    struct Outline: Codable {
        var title: String
        var tree: TreeNode
        var more: [TreeNode]
    }
    struct NullableElements: Codable { var slots: [String?] }

    /// Descriptions and every kind of constraint.
    struct Booking: Codable, JSONSchemaAnnotated {
        var guest: String
        var nights: Int
        var code: String
        var rooms: [String]
        var email: String
        var tier: String
        enum CodingKeys: String, CodingKey { case guest, nights, code, rooms, email, tier }
        static var schemaAnnotations: JSONSchemaAnnotations {
            JSONSchemaAnnotations(
                "A hotel booking", keyedBy: CodingKeys.self,
                [
                    .guest: .init("Full name", .length(1...80)),
                    .nights: .init("Nights", .range(1...30)),
                    .code: .init(nil, .pattern("^[A-Z]{3}[0-9]{2}$")),
                    .rooms: .init("Room numbers", .count(1...4)),
                    .email: .init(nil, .format("email")),
                    .tier: .init("Tier", .allowed(["basic", "plus"])),
                ])
        }
    }

    /// Overrides one property's schema (a free-form JSON value there).
    struct Event: Codable, JSONSchemaAnnotated {
        var kind: String
        var payload: JSONValue
        enum CodingKeys: String, CodingKey { case kind, payload }
        static var schemaAnnotations: JSONSchemaAnnotations {
            JSONSchemaAnnotations(
                keyedBy: CodingKeys.self,
                [
                    .payload: .schema(.object([.init("x", .number())]), description: "The event's data")
                ])
        }
    }

    /// An enum with associated values that states its own schema.
    enum Shape: Codable, JSONSchemaDeclaring {
        case circle(radius: Double)
        case square(side: Double)
        static var declaredSchema: JSONSchema {
            .anyOf([
                .object([.init("circle", .object([.init("radius", .number())]))]),
                .object([.init("square", .object([.init("side", .number())]))]),
            ])
        }
    }
    struct Drawing: Codable {
        var title: String
        var shapes: [Shape]
        var main: Shape
    }

    /// A custom init with a nested keyed container and a renamed key.
    struct Coordinates: Codable {
        var latitude: Double
        var longitude: Double
        var label: String?
        enum CodingKeys: String, CodingKey { case position, label }
        enum PositionKeys: String, CodingKey { case lat, lon }
        init(latitude: Double, longitude: Double, label: String?) {
            self.latitude = latitude
            self.longitude = longitude
            self.label = label
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let position = try container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
            latitude = try position.decode(Double.self, forKey: .lat)
            longitude = try position.decode(Double.self, forKey: .lon)
            label = try container.decodeIfPresent(String.self, forKey: .label)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var position = container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
            try position.encode(latitude, forKey: .lat)
            try position.encode(longitude, forKey: .lon)
            try container.encodeIfPresent(label, forKey: .label)
        }
    }

    /// A single-value wrapper: its schema is the wrapped value's.
    struct EmailAddress: Codable {
        var value: String
        init(_ value: String) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(value)
        }
    }
    struct Contact: Codable {
        var primary: EmailAddress
        var others: [EmailAddress]
    }

    /// A value decoded as an explicit Optional: required, but may be null.
    struct ExplicitNull: Codable {
        var note: String?
        enum CodingKeys: String, CodingKey { case note }
        init(note: String?) { self.note = note }
        init(from decoder: any Decoder) throws {
            note = try decoder.container(keyedBy: CodingKeys.self).decode(String?.self, forKey: .note)
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(note, forKey: .note)
        }
    }

    final class Account: Codable {
        let owner: String
        let balance: Decimal
        init(owner: String, balance: Decimal) {
            self.owner = owner
            self.balance = balance
        }
    }

    struct Box<Content: Codable>: Codable {
        var content: Content
        var count: Int
    }
    struct Boxes: Codable {
        var text: Box<String>
        var numbers: Box<[Int]>
    }
    struct Tag: RawRepresentable, Codable { var rawValue: String }
    struct Tagged: Codable {
        var tags: [Tag]
        var optionalList: [Int]?
        var place: Place?
    }
    struct Empty: Codable {}

    /// Annotated through the synthesized (private) CodingKeys.
    struct Note: Codable, JSONSchemaAnnotated {
        var text: String
        var pinned: Bool?
        static var schemaAnnotations: JSONSchemaAnnotations {
            JSONSchemaAnnotations("A note", keyedBy: CodingKeys.self, [.text: .init("The note", .maxLength(280))])
        }
    }
}

/// Counts how often its init(from:) runs.
struct Counted: Decodable {
    static let inits = Mutex(0)
    var field: String
    enum CodingKeys: String, CodingKey { case field }
    init(from decoder: any Decoder) throws {
        Self.inits.withLock { $0 += 1 }
        field = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .field)
    }
}
