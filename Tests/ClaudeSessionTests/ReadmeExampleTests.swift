// The README's transport, session and cloud examples, kept here so they
// cannot rot: the file must compile against the public API exactly as the
// README writes it (names, argument order, types). The functions that need
// a network are type-checked, not called; the offline parts run.

import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

/// The README's example tool, which the catalog's worked example
/// (DocumentationExampleTests) uses too.
struct Weather: ClientTool {
    struct Arguments: Decodable, Sendable { var city: String }
    var name: String { "weather" }
    var description: String { "Current weather for a city" }
    func call(_ arguments: Arguments) async throws -> ToolOutput { .text("22 C in \(arguments.city)") }
}

private struct ReadmeParty: StructuredResponse {
    struct Partial: Decodable, Sendable { var names: [String]? }
    var names: [String]
    static var outputSchema: JSONValue { JSONSchema.object([.init("names", .array(items: .string()))]).jsonValue }
}

/// Type-checked only: these calls need a server.
private func readmeTransportExample(key: String, schema: JSONSchema, weatherSchema: JSONSchema) async throws {
    let client = MessagesClient(
        configuration: ClientConfiguration(
            credentials: .apiKey(key),
            idleTimeout: 60, overallTimeout: 600,
            retryPolicy: RetryPolicy(maxRetries: 2)))
    let request = MessageRequest(
        model: .opus5, messages: [.user("Hello")], system: "Be brief",
        effort: .high, outputSchema: schema.jsonValue,
        serverTools: [.webSearch(.init(allowedDomains: ["swift.org"], maxUses: 3))],
        tools: [
            .client(
                ClientToolDefinition(
                    name: "weather", description: "Current weather",
                    inputSchema: weatherSchema, strict: true))
        ],
        toolChoice: ToolChoice(.any, disableParallelToolUse: true),
        cacheControl: CacheControl(ttl: .oneHour))
    for try await snapshot in try client.stream(request) { _ = snapshot.text }
    for try await part in try client.stream(request, generating: ReadmeParty.Partial.self) { _ = part.partial }
    _ = try await client.countTokens(request)

    _ = try await readmeSessionExample(client: client, bytes: [])
}

/// The README's session example, line for line, over any transport; it
/// returns what it saved after each round.
private func readmeSessionExample(client: any MessageStreaming, bytes: [UInt8]) async throws -> (saved: [[UInt8]], resumed: ClaudeSession) {
    let saved = SavedFiles()
    @Sendable func save(_ bytes: [UInt8]) { saved.files.withLock { $0.append(bytes) } }
    func print(_ text: String, terminator: String) { saved.text.withLock { $0 += text } }

    let setup = RequestSetup(model: .opus5, system: .blocks([SystemBlock("Be brief.", cacheControl: .ephemeral)]))
    let session = ClaudeSession(
        setup: setup, tools: [Weather()],
        configuration: SessionConfiguration(
            maxTurns: 10,
            onToolCalls: { round in round.calls.contains { $0.name == "weather" } ? .run : .stop },
            onRoundCompleted: { round in try? save(round.transcript.jsonBytes()) }),  // after every complete round
        transport: client)
    let answer = try await session.respond(to: "Weather in Paris?")  // runs the tool loop
    for try await text in session.streamResponse(to: "And Rome?").textDeltas { print(text, terminator: "") }
    let party = try await session.respond(to: "Three characters", generating: ReadmeParty.self)
    let tokens = try await session.countTokens(prompt: [.text("And Oslo?")])
    let resumed = ClaudeSession(transcript: try SessionTranscript(jsonBytes: bytes), tools: [Weather()], transport: client)
    #expect(answer.text == "22 C.")
    #expect(saved.text.withLock { $0 } == "Rome too.")
    #expect(party.names == ["Ann"])
    #expect(tokens.inputTokens > 0)
    return (saved.files.withLock { $0 }, resumed)
}

private final class SavedFiles: Sendable {
    let files = Mutex<[[UInt8]]>([])
    let text = Mutex("")
}

struct ReadmeExampleTests {
    @Test func cloudEndpointsAndFramingAsWritten() throws {
        let bedrock = MessagesClient(
            configuration: ClientConfiguration(credentials: .apiKey("bedrock-key-0123456789"))
                .using(.bedrock(region: "us-east-1")))
        let model = ClaudeModel.bedrock("us.anthropic.claude-opus-4-6-v1:0")
        #expect(model?.capabilities == ClaudeModel.opus4_6.capabilities)
        _ = bedrock
        let accumulator = MessageAccumulator(options: MessageAccumulatorOptions(framing: .awsEventStream))
        _ = accumulator
        let firstBytes = Array("event: ping\n\n".utf8)
        #expect(firstBytes.withUnsafeBytes { EventFraming.detect($0) } == .serverSentEvents)
    }

    @Test func theSessionExampleRunsAsWritten() async throws {
        let answers: [FakeAnswer] = [
            .stream(StreamScript().toolUse("toolu_1", "weather", #"{"city":"Paris"}"#).end("tool_use")),
            .stream(StreamScript().text("22 C.").end("end_turn")),
            .stream(StreamScript().text("Rome ", "too.").end("end_turn")),
            .stream(StreamScript().text(#"{"names":["Ann"]}"#).end("end_turn")),
        ]
        // The resumed session reads what the first one saved after its last round.
        let empty = Array(#"{"model":"claude-opus-5","messages":[]}"#.utf8)
        let first = try await readmeSessionExample(client: FakeTransport(answers), bytes: empty)
        #expect(first.saved.count == 4)  // the tool round, then three final answers
        #expect(first.resumed.transcript.entries.isEmpty)
        let last = try #require(first.saved.last)
        let again = try await readmeSessionExample(client: FakeTransport(answers), bytes: last)
        #expect(again.saved == first.saved)
        #expect(again.resumed.transcript.responses.count == 4)
        #expect(again.resumed.setup.system == .blocks([SystemBlock("Be brief.", cacheControl: .ephemeral)]))
    }

    @Test func theExampleToolRunsAsWritten() async throws {
        #expect(try await Weather().call(.init(city: "Paris")) == .text("22 C in Paris"))
        _ = readmeTransportExample  // keeps the type-checked example referenced
    }
}
