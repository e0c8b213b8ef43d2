import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

// Declared-once types through the session over the loopback server: the
// derived schema is what the request carries, partial values arrive at every
// snapshot, the final value is the complete type, and a constraint the API
// does not enforce is checked on it. A tool is its Arguments, a name, a
// description and call.

/// A tool declared from its arguments alone.
struct ForecastTool: ClientTool {
    struct Arguments: Decodable, Sendable, JSONSchemaAnnotated {
        var city: String
        var days: Int?
        enum CodingKeys: String, CodingKey { case city, days }
        static var schemaAnnotations: JSONSchemaAnnotations {
            JSONSchemaAnnotations(keyedBy: CodingKeys.self, [.city: "City name", .days: .init("Days ahead", .range(1...7))])
        }
    }
    let log: CallLog
    var name: String { "forecast" }
    var description: String { "The forecast for a city" }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        log.calls.withLock { $0.append("\(arguments.city) \(arguments.days ?? 1)") }
        return .text("sunny in \(arguments.city)")
    }
}

/// What a tool was called with, across its copies.
final class CallLog: Sendable {
    let calls = Mutex<[String]>([])
}

/// A tool whose arguments have no derivable schema.
struct OpaqueTool: ClientTool {
    struct Arguments: Decodable, Sendable { var payload: JSONValue }
    var name: String { "opaque" }
    var description: String { "Takes anything" }
    func call(_ arguments: Arguments) async throws -> ToolOutput { .text("ok") }
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct DeclaredSessionTests {
    @Test func aDeclaredTypeStreamsThroughTheSession() async throws {
        try await withLoopbackServer { server in
            let sse = textAnswerStream(recipeJSON, piece: 4)
            try await server.script("recipe", [.stream(sse, pieces: 29), .stream(sse)])
            let session = ClaudeSession(model: .opus5, transport: server.client("recipe"))
            var previous: [String: String] = [:]
            var partials = 0
            for try await step in session.streamResponse(to: "A Norwegian recipe", generating: Recipe.self) {
                if let issue = step.issue {
                    #expect(issue == .noOutputYet)
                    continue
                }
                let partial: PartialValue<Recipe> = try #require(step.partial)
                let fields = recipeFields(partial)
                for (key, old) in previous { #expect(fields[key]?.hasPrefix(old) == true, "\(key)") }
                previous = fields
                partials += 1
            }
            #expect(partials >= 1)
            #expect(previous["0.text"] == "Layer lamb and cabbage")
            let recipe = try await session.respond(to: "Again", generating: Recipe.self)
            #expect(recipe.servings == 4 && recipe.steps.last?.minutes == 150)

            let bodies = try await server.bodies("recipe")
            let derived = try JSONSchema(for: Recipe.self).jsonValue
            #expect(bodies.count == 2)
            #expect(bodies.allSatisfy { $0["output_config"]?["format"]?["schema"] == derived })
            #expect(derived["properties"]?["course"]?["enum"] == ["starter", "main", "dessert"])
            #expect(derived["properties"]?["published"]?["format"] == "date-time")
        }
    }

    @Test func theSessionStreamCollectsTheDeclaredType() async throws {
        try await withLoopbackServer { server in
            let tooMany = recipeJSON.replacingOccurrences(of: #""servings":4"#, with: #""servings":13"#)
            try await server.script(
                "collect-recipe",
                [
                    .stream(textAnswerStream(recipeJSON, piece: 7), pieces: 11),
                    .stream(textAnswerStream(tooMany, piece: 7)),
                ])
            let session = ClaudeSession(model: .opus5, transport: server.client("collect-recipe"))
            let recipe = try await session.streamResponse(to: "A recipe", generating: Recipe.self).collect()
            #expect(recipe.course == .main && recipe.steps.count == 2)
            do throws(SessionError) {
                _ = try await session.streamResponse(to: "A bigger one", generating: Recipe.self).collect()
                Issue.record("collected 13 servings")
            } catch {
                guard case .structuredOutput(.violatesSchema(let violations)) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(violations.map(\.path) == ["$.servings"])
            }
        }
    }

    @Test func aConstraintTheAPIDoesNotEnforceIsCheckedOnTheAnswer() async throws {
        try await withLoopbackServer { server in
            let tooMany = recipeJSON.replacingOccurrences(of: #""servings":4"#, with: #""servings":40"#)
            try await server.script("servings", [.stream(textAnswerStream(tooMany, piece: 9))])
            let session = ClaudeSession(model: .opus5, transport: server.client("servings"))
            do throws(SessionError) {
                _ = try await session.respond(to: "A feast", generating: Recipe.self)
                Issue.record("accepted 40 servings")
            } catch {
                guard case .structuredOutput(.violatesSchema(let violations)) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(violations.map(\.description) == ["$.servings: 40 is greater than 12"])
            }
        }
    }

    @Test func theTransportStreamCollectsTheFinalValue() async throws {
        try await withLoopbackServer { server in
            try await server.script(
                "collect",
                [
                    .stream(textAnswerStream(recipeJSON, piece: 6), pieces: 13),
                    .status(529, #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
                ])
            let request = MessageRequest(model: .opus5, messages: [.user("A recipe")], outputSchema: try Recipe.outputSchema)
            let client = server.client("collect")
            let recipe = try await client.stream(request, generating: PartialValue<Recipe>.self).collect(Recipe.self)
            #expect(recipe.title == "Fårikål")
            let overloaded = try client.stream(request, generating: PartialValue<Recipe>.self)
            do throws(StructuredOutputError) {
                _ = try await overloaded.collect(Recipe.self)
                Issue.record("collected from an overloaded answer")
            } catch {
                guard case .streamFailed(let failure) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(failure.description.contains("Overloaded"))
            }
        }
    }

    @Test func aToolIsDeclaredByItsArguments() async throws {
        try await withLoopbackServer { server in
            let call = StreamScript(id: "msg_1").toolUse("toolu_1", "forecast", #"{"city":"Bergen","days":3}"#)
                .toolUse("toolu_2", "forecast", #"{"city":"Oslo","days":9}"#).end("tool_use")
            let done = StreamScript(id: "msg_2").text("Sunny in Bergen.").end("end_turn")
            try await server.script("forecast", [.stream(call, pieces: 5), .stream(done)])
            let tool = ForecastTool(log: CallLog())
            let session = ClaudeSession(model: .opus5, tools: [tool], transport: server.client("forecast"))
            let response = try await session.respond(to: "Weather in Bergen?")
            #expect(response.text == "Sunny in Bergen.")
            #expect(tool.log.calls.withLock { $0 } == ["Bergen 3"])

            let bodies = try await server.bodies("forecast")
            let schema = try #require(bodies.first?["tools"]?[0]?["input_schema"])
            #expect(
                schema.compactJSON
                    == #"{"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","description":"Days ahead (at least 1 and at most 7)"}},"required":["city"],"additionalProperties":false}"#
            )
            // The second call broke a constraint the API does not enforce: the model is told, the tool never ran.
            let results = bodies.last?["messages"]?.arrayValue?.last?["content"]?.arrayValue ?? JSONArray()
            #expect(results.count == 2)
            #expect(results.last?["is_error"] == true)
            #expect(results.last?["content"]?.stringValue?.contains("$.days: 9 is greater than 7") == true)
        }
    }

    @Test func aToolWithoutADerivableSchemaStopsTheCallBeforeAnyTraffic() async throws {
        try await withLoopbackServer { server in
            try await server.script("opaque", [.stream(StreamScript().text("hi").end("end_turn"))])
            let session = ClaudeSession(model: .opus5, tools: [OpaqueTool()], transport: server.client("opaque"))
            do throws(SessionError) {
                _ = try await session.respond(to: "x")
                Issue.record("sent a request with an underivable tool schema")
            } catch {
                guard case .structuredOutput(.schemaDerivation(let why)) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(why.path == "$.payload")
            }
            #expect(try await server.bodies("opaque").isEmpty)
        }
    }
}
