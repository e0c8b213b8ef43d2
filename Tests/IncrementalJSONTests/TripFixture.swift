// A structured-output type and its partial twin (the `@Generable` /
// `PartiallyGenerated` pattern without macros), with its schema.

import IncrementalJSON

struct Trip: Codable, Equatable {
    struct Day: Codable, Equatable {
        var title: String
        var activities: [String]
        var budget: Double
    }
    var destination: String
    var nights: Int
    var travelers: [String]
    var days: [Day]
    var rating: Rating?

    enum Rating: String, Codable { case relaxed, busy }

    /// Every property optional: decodes from the snapshot at any moment.
    struct Partial: Decodable, Equatable {
        struct Day: Decodable, Equatable {
            var title: String?
            var activities: [String]?
            var budget: Double?
        }
        var destination: String?
        var nights: Int?
        var travelers: [String]?
        var days: [Day]?
        var rating: Rating?
    }

    static let schema = JSONSchema.object(
        [
            .init("destination", .string(), description: "City and country"),
            .init("nights", .integer()),
            .init("travelers", .array(items: .string())),
            .init(
                "days",
                .array(
                    items: .object([
                        .init("title", .string()),
                        .init("activities", .array(items: .string())),
                        .init("budget", .number(description: "In euros")),
                    ]))),
            .init("rating", .nullable(.string(enum: ["relaxed", "busy"])), isRequired: false),
        ], description: "A trip plan")

    static let sampleJSON = #"""
        {"destination": "Kyoto, Japan", "nights": 3, "travelers": ["Ada", "Linus"],
         "days": [{"title": "Temples \u2014 east", "activities": ["Kiyomizu-dera", "Gion walk"], "budget": 120.5},
                  {"title": "Arashiyama", "activities": ["Bamboo grove"], "budget": 80}],
         "rating": "relaxed"}
        """#
}
