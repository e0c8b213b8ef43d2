// The code of the README's "Declaring a type once" and of the catalog's
// DeclaringTypesOnce article, as written there: it must compile against the
// public API; the parts that need a network are type-checked, the schema the
// article shows is checked here.

import ClaudeSession
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

private struct ExampleTrip: StructuredResponse, CodingKeyed, JSONSchemaAnnotated {
    var city: String
    var nights: Int
    var highlights: [String]
    enum CodingKeys: String, CodingKey { case city, nights, highlights }

    static var schemaAnnotations: JSONSchemaAnnotations {
        JSONSchemaAnnotations(
            "A short trip", keyedBy: CodingKeys.self,
            [
                .city: "City and country",
                .nights: .init("Nights away", .range(1...14)),
            ])
    }
}

private struct ExampleWeatherTool: ClientTool {
    struct Arguments: Decodable, Sendable, JSONSchemaAnnotated {
        var city: String
        enum CodingKeys: String, CodingKey { case city }
        static var schemaAnnotations: JSONSchemaAnnotations {
            JSONSchemaAnnotations(keyedBy: CodingKeys.self, [.city: "City name"])
        }
    }
    var name: String { "weather" }
    var description: String { "Current weather for a city" }
    func call(_ arguments: Arguments) async throws -> ToolOutput { .text("22 C in \(arguments.city)") }
}

/// Stand-ins for a UI.
private final class Label { var text: String? }
private final class ListView { var items: [String] = [] }

/// Type-checked only: needs a server.
@MainActor
private func articleLoop(client: MessagesClient, request: MessageRequest) async throws {
    let titleLabel = Label()
    let highlightsList = ListView()
    let session = ClaudeSession(model: .opus5, tools: [ExampleWeatherTool()], transport: client)
    for try await step in session.streamResponse(to: "Plan a short trip", generating: ExampleTrip.self) {
        guard let trip = step.partial else { continue }
        titleLabel.text = trip[.city] ?? "…"
        highlightsList.items = trip[.highlights] ?? []
    }
    _ = try await session.respond(to: "Plan another", generating: ExampleTrip.self)
    _ = try await client.stream(request, generating: PartialValue<ExampleTrip>.self).collect(ExampleTrip.self)
}

@Suite struct DeclaringTypesOnceExampleTests {
    @Test func theArticlesSchemaIsTheDerivedOne() throws {
        let shown =
            #"{"type":"object","description":"A short trip","properties":{"city":{"type":"string","description":"City and country"},"nights":{"type":"integer","description":"Nights away (at least 1 and at most 14)"},"highlights":{"type":"array","items":{"type":"string"}}},"required":["city","nights","highlights"],"additionalProperties":false}"#
        #expect(try ExampleTrip.outputSchema.compactJSON == shown)
        #expect(
            try ExampleWeatherTool().inputSchema.compactJSON
                == #"{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"],"additionalProperties":false}"#)
        #expect(
            try Weather().inputSchema.compactJSON
                == #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#)
    }
}
