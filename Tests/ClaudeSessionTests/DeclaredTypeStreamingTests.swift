import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// Declared-once types stream: every snapshot of every recorded structured
// answer in the shared corpus (JSON text with an output format, or a tool's
// input) decodes into PartialValue<T>, the fields read by key only ever
// appear or grow, and the final value is the complete type and fits the
// derived schema. Also a type and a stream written here (Recipe).

private let recordings = TestPaths.sharedCorpus.appendingPathComponent("anthropic-sse")

/// Where the structured value of a stream is.
private enum AnswerSource {
    /// The JSON text of the response (`output_config.format`).
    case text
    /// The input of the first call of this tool.
    case tool(String)
}

/// Streams `bytes` at `chunk` bytes per feed and checks every snapshot;
/// `fields` reads the partial value by key, as "path → value so far".
private func streamDeclared<T: Decodable>(
    _ bytes: Data, as type: T.Type, in answer: AnswerSource, chunk: Int = 7,
    fields: (PartialValue<T>) -> [String: String], sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (snapshots: Int, final: T, fields: [String: String]) {
    var options = MessageAccumulatorOptions()
    if case .text = answer { options.structuredOutput = .allTextBlocks }
    var previous: PartialValue<T>?
    var previousFields: [String: String] = [:]
    var decoded = 0
    for try await snapshot in DataChunks(bytes, chunkSize: chunk).messageSnapshots(options: options) {
        let partial: PartialValue<T>?
        switch answer {
        case .text:
            let element = StructuredSnapshot<PartialValue<T>>(snapshot)
            if let issue = element.issue { #expect(issue == .noOutputYet, sourceLocation: sourceLocation) }
            partial = element.partial
        case .tool(let name):
            let input = snapshot.content.lazy.compactMap { block -> JSONValue? in
                // Before its first delta a call's input is the `{}` of
                // content_block_start, a placeholder rather than the answer.
                guard case .toolUse(let call) = block, call.name == name, !call.inputJSON.string.isEmpty else { return nil }
                return call.input
            }.first
            partial = try input.map { try JSONValueDecoder().decode(PartialValue<T>.self, from: $0) }
        }
        guard let partial else { continue }
        decoded += 1
        if let previous {
            #expect(previous.json.divergence(toward: partial.json) == nil, "snapshot \(decoded)", sourceLocation: sourceLocation)
        }
        let now = fields(partial)
        for (key, old) in previousFields {
            guard let new = now[key] else {
                Issue.record("snapshot \(decoded): \(key) disappeared", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                new.hasPrefix(old), "snapshot \(decoded): \(key) went from \(old.debugDescription) to \(new.debugDescription)", sourceLocation: sourceLocation)
        }
        previous = partial
        previousFields = now
    }
    let last = try #require(previous, sourceLocation: sourceLocation)
    #expect(last.isComplete, sourceLocation: sourceLocation)
    #expect(try JSONSchema(for: type).validate(last.json) == [], sourceLocation: sourceLocation)
    return (decoded, try last.decodeComplete(), previousFields)
}

private func recording(_ name: String) throws -> Data { try Data(contentsOf: recordings.appendingPathComponent(name)) }

@Suite(.enabled(if: FileManager.default.fileExists(atPath: recordings.path), "needs the shared corpus"))
struct DeclaredTypeCorpusStreamingTests {
    @Test(arguments: [1, 7, 64])
    func outputFormatAnswer(chunk: Int) async throws {
        let (snapshots, cast, fields) = try await streamDeclared(
            try recording("vercel-ai__anthropic-json-output-format.1.sse"), as: Cast.self, in: .text, chunk: chunk
        ) { partial in
            var fields: [String: String] = [:]
            let characters: [PartialValue<Cast.Character>] = partial[Cast.CodingKeys.characters] ?? []
            for (index, character) in characters.enumerated() {
                fields["\(index).name"] = character[Cast.Character.CodingKeys.name]
                fields["\(index).class"] = character[Cast.Character.CodingKeys.class]
                fields["\(index).description"] = character[Cast.Character.CodingKeys.description]
            }
            return fields
        }
        #expect(snapshots > 50)
        #expect(cast.characters.map(\.name) == ["Theron Ironheart", "Lyra Starweaver", "Rook Shadowstep"])
        #expect(fields["2.class"] == "thief")
    }

    @Test(arguments: ["llm-anthropic__test_schema_prompt.sse", "llm-anthropic__test_schema_prompt_async.sse"])
    func schemaPromptAnswer(file: String) async throws {
        let (_, dog, fields) = try await streamDeclared(try recording(file), as: Dog.self, in: .text) { partial in
            var fields: [String: String] = [:]
            fields["name"] = partial[Dog.CodingKeys.name]
            fields["age"] = partial[Dog.CodingKeys.age, as: Int.self].map(String.init)
            fields["bio"] = partial[Dog.CodingKeys.bio]
            return fields
        }
        #expect(dog.age == 4)
        #expect(fields["bio"] == dog.bio)
    }

    @Test func complexObjectThroughATool() async throws {
        let (_, book, _) = try await streamDeclared(
            try recording("fantasy__TestAnthropicObjectGeneration__claude-sonnet-4__complex_object_streaming.sse"), as: Book.self, in: .tool("Book")
        ) { partial in
            var fields: [String: String] = [:]
            fields["title"] = partial[Book.CodingKeys.title]
            let author: PartialValue<Book.Author>? = partial[Book.CodingKeys.author]
            fields["author.name"] = author?[Book.Author.CodingKeys.name]
            fields["author.nationality"] = author?[Book.Author.CodingKeys.nationality]
            for (index, genre) in (partial[Book.CodingKeys.genres, as: [String].self] ?? []).enumerated() { fields["genre\(index)"] = genre }
            fields["year"] = partial[Book.CodingKeys.publishedYear, as: Int.self].map(String.init)
            return fields
        }
        #expect(book.author.name == "J.R.R. Tolkien")
        #expect(book.genres.count == 4)
        #expect(book.publishedYear == 1954)
    }

    @Test(arguments: [
        "fantasy__TestAnthropicObjectGeneration__claude-sonnet-4__simple_object_streaming.sse",
        "fantasy__TestGoogleVertexObjectGeneration__vertex-claude-3-7-sonnet__simple_object_streaming.sse",
    ])
    func simpleObjectThroughATool(file: String) async throws {
        let (_, person, _) = try await streamDeclared(try recording(file), as: PersonCard.self, in: .tool("Person")) { partial in
            [
                "name": partial[PersonCard.CodingKeys.name], "city": partial[PersonCard.CodingKeys.city],
                "age": partial[PersonCard.CodingKeys.age, as: Int.self].map(String.init),
            ].compactMapValues { $0 }
        }
        #expect(person.name == "Alice" && person.age == 30 && person.city == "Paris")
    }

    @Test(arguments: ["vercel-ai__anthropic-json-tool.1.sse", "vercel-ai__anthropic-json-tool.2.sse"])
    func jsonToolAnswer(file: String) async throws {
        let (_, readings, _) = try await streamDeclared(try recording(file), as: Readings.self, in: .tool("json")) { partial in
            var fields: [String: String] = [:]
            let elements: [PartialValue<Readings.Reading>] = partial[Readings.CodingKeys.elements] ?? []
            for (index, element) in elements.enumerated() {
                fields["\(index).location"] = element[Readings.Reading.CodingKeys.location]
                fields["\(index).condition"] = element[Readings.Reading.CodingKeys.condition]
            }
            return fields
        }
        #expect(readings.elements.first?.temperature == 58)
    }

    @Test func otherToolsInputs() async throws {
        let weather = try await streamDeclared(
            try recording("vercel-ai__anthropic-json-other-tool.1.sse"), as: LocationQuery.self,
            in: .tool("weather")
        ) { ["location": $0["location", as: String.self]].compactMapValues { $0 } }
        #expect(weather.final.location == "San Francisco")
        let search = try await streamDeclared(
            try recording("vercel-ai__anthropic-issue-15652-json-tool-parallel.sse"), as: DocumentQuery.self,
            in: .tool("searchDocs")
        ) { ["query": $0["query", as: String.self]].compactMapValues { $0 } }
        #expect(search.final.query == "alpha")
    }
}

// MARK: A type and stream written here

/// The SSE of a text answer whose JSON arrives `size` bytes per delta.
func textAnswerStream(_ json: String, piece size: Int, stopReason: String = "end_turn") -> String {
    var pieces: [String] = []
    var rest = Substring(json)
    while !rest.isEmpty {
        pieces.append(String(rest.prefix(size)))
        rest = rest.dropFirst(size)
    }
    let deltas = pieces.map { piece in
        let delta = JSONValue.object([("type", "content_block_delta"), ("index", 0), ("delta", .object([("type", "text_delta"), ("text", .string(piece))]))])
        return "event: content_block_delta\ndata: \(delta.compactJSON)\n\n"
    }.joined()
    return
        #"event: message_start\#ndata: {"type":"message_start","message":{"id":"msg_r","type":"message","role":"assistant","content":[],"model":"claude-opus-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":9,"output_tokens":1}}}\#n\#n"#
        + #"event: content_block_start\#ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\#n\#n"#
        + deltas
        + #"event: content_block_stop\#ndata: {"type":"content_block_stop","index":0}\#n\#n"#
        + #"event: message_delta\#ndata: {"type":"message_delta","delta":{"stop_reason":"\#(stopReason)","stop_sequence":null},"usage":{"output_tokens":40}}\#n\#n"#
        + #"event: message_stop\#ndata: {"type":"message_stop"}\#n\#n"#
}

let recipeJSON =
    #"{"title":"Fårikål","course":"main","servings":4,"published":"2026-09-24T12:00:00Z","steps":[{"text":"Layer lamb and cabbage","minutes":10},{"text":"Simmer with peppercorns","minutes":150}]}"#

func recipeFields(_ partial: PartialValue<Recipe>) -> [String: String] {
    var fields: [String: String] = [:]
    fields["title"] = partial[Recipe.CodingKeys.title]
    fields["course"] = partial[Recipe.CodingKeys.course, as: Recipe.Course.self]?.rawValue
    fields["published"] = partial[Recipe.CodingKeys.published, as: Date.self].map { "\($0.timeIntervalSince1970)" }
    let steps: [PartialValue<Recipe.Step>] = partial[Recipe.CodingKeys.steps] ?? []
    for (index, step) in steps.enumerated() {
        fields["\(index).text"] = step[Recipe.Step.CodingKeys.text]
        fields["\(index).minutes"] = step[Recipe.Step.CodingKeys.minutes, as: Int.self].map(String.init)
    }
    return fields
}

@Suite struct DeclaredTypeOwnStreamTests {
    @Test(arguments: [1, 3, 11])
    func recipeStreamsAtAnyPieceSize(piece: Int) async throws {
        let sse = textAnswerStream(recipeJSON, piece: piece)
        let (_, recipe, fields) = try await streamDeclared(Data(sse.utf8), as: Recipe.self, in: .text, chunk: 5, fields: recipeFields)
        #expect(recipe.title == "Fårikål" && recipe.course == .main && recipe.steps.count == 2)
        #expect(recipe.published == Date(timeIntervalSince1970: 1_790_251_200))
        #expect(fields["1.minutes"] == "150")
    }

    @Test func aFieldThatHasNotArrivedIsNotAnEmptyOne() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"title":"","steps":[],"course":"ma"#)
        let partial = PartialValue<Recipe>(try #require(parser.value))
        #expect(partial[Recipe.CodingKeys.title, as: String.self] == "")
        #expect(partial[Recipe.CodingKeys.steps, as: [PartialValue<Recipe.Step>].self]?.isEmpty == true)
        #expect(partial[Recipe.CodingKeys.notes, as: String.self] == nil)
        #expect(!partial.contains(Recipe.CodingKeys.notes) && partial.contains(Recipe.CodingKeys.course))
        #expect(partial[Recipe.CodingKeys.course, as: Recipe.Course.self] == nil)  // half a raw value
        #expect(!partial.isComplete(Recipe.CodingKeys.course) && partial.isComplete(Recipe.CodingKeys.title))
        #expect(throws: DecodingError.self) { try partial.decodeComplete() }
    }
}

extension Recipe: CodingKeyed {}
extension Recipe.Step: CodingKeyed {}

@Suite struct CodingKeyedPartialTests {
    @Test func fieldsReadByShortKeys() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"title":"Fårikål","steps":[{"text":"Layer","minutes":10},{"text":"Sim"#)
        let partial = PartialValue<Recipe>(try #require(parser.value))
        let title: String? = partial[.title]
        let steps: [PartialValue<Recipe.Step>] = partial[.steps] ?? []
        #expect(title == "Fårikål")
        #expect(steps.map { $0[.text] ?? "" } == ["Layer", "Sim"])
        #expect(steps.first?[.minutes, as: Int.self] == 10)
        #expect(steps.last?[.minutes, as: Int.self] == nil)
    }
}
