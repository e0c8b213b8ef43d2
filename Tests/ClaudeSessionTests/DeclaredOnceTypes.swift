import ClaudeSession
import Foundation
import IncrementalJSON

// Structured answers and tool arguments declared once: no Partial twin, no
// hand-built schema. CodingKeys are written out only so that code outside
// each type can read its partial fields by key (synthesized keys are private).

/// The answer of vercel-ai's json-output-format recording.
struct Cast: StructuredResponse {
    var characters: [Character]
    enum CodingKeys: String, CodingKey { case characters }

    struct Character: Decodable, Sendable {
        var name: String
        var `class`: String
        var description: String
        enum CodingKeys: String, CodingKey { case name, `class`, description }
    }
}

/// llm-anthropic's schema prompt: a dog.
struct Dog: StructuredResponse {
    var name: String
    var age: Int
    var bio: String
    enum CodingKeys: String, CodingKey { case name, age, bio }
}

/// fantasy's complex object generation, answered through a tool.
struct Book: Decodable, Sendable {
    var title: String
    var author: Author
    var genres: [String]
    var publishedYear: Int
    enum CodingKeys: String, CodingKey { case title, author, genres, publishedYear = "published_year" }

    struct Author: Decodable, Sendable {
        var name: String
        var nationality: String
        enum CodingKeys: String, CodingKey { case name, nationality }
    }
}

/// fantasy's simple object generation.
struct PersonCard: Decodable, Sendable {
    var name: String
    var age: Int
    var city: String
    enum CodingKeys: String, CodingKey { case name, age, city }
}

/// vercel-ai's json tool: weather readings.
struct Readings: Decodable, Sendable {
    var elements: [Reading]
    enum CodingKeys: String, CodingKey { case elements }

    struct Reading: Decodable, Sendable {
        var location: String
        var temperature: Int
        var condition: String
        enum CodingKeys: String, CodingKey { case location, temperature, condition }
    }
}

/// A tool input of one string (vercel-ai's weather and searchDocs calls).
struct LocationQuery: Decodable, Sendable { var location: String }
struct DocumentQuery: Decodable, Sendable { var query: String }

/// A type and stream not in the shared corpus: enums, dates, optionals,
/// nesting, constraints.
struct Recipe: StructuredResponse, JSONSchemaAnnotated {
    var title: String
    var course: Course
    var servings: Int
    var published: Date
    var steps: [Step]
    var notes: String?
    enum CodingKeys: String, CodingKey { case title, course, servings, published, steps, notes }

    enum Course: String, Decodable, Sendable, CaseIterable { case starter, main, dessert }
    struct Step: Decodable, Sendable {
        var text: String
        var minutes: Int
        enum CodingKeys: String, CodingKey { case text, minutes }
    }

    static var schemaAnnotations: JSONSchemaAnnotations {
        JSONSchemaAnnotations(
            "A recipe", keyedBy: CodingKeys.self,
            [
                .title: "The dish",
                .servings: .init("How many it feeds", .range(1...12)),
                .steps: .init("In order", .minCount(1)),
            ])
    }
}
