// The README's transport, session and cloud examples, kept here so they
// cannot rot: the file must compile against the public API exactly as the
// README writes it (names, argument order, types). The functions that need
// a network are type-checked, not called; the offline parts run.

import ClaudeSession
import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON
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
    let client = MessagesClient(configuration: ClientConfiguration(
        credentials: .apiKey(key),
        idleTimeout: 60, overallTimeout: 600,
        retryPolicy: RetryPolicy(maxRetries: 2)))
    let request = MessageRequest(
        model: .opus5, messages: [.user("Hello")], system: "Be brief",
        effort: .high, outputSchema: schema.jsonValue,
        serverTools: [.webSearch(.init(allowedDomains: ["swift.org"], maxUses: 3))],
        tools: [.client(ClientToolDefinition(name: "weather", description: "Current weather",
                                             inputSchema: weatherSchema, strict: true))],
        toolChoice: ToolChoice(.any, disableParallelToolUse: true),
        cacheControl: CacheControl(ttl: .oneHour))
    for try await snapshot in try client.stream(request) { _ = snapshot.text }
    for try await part in try client.stream(request, generating: ReadmeParty.Partial.self) { _ = part.partial }
    _ = try await client.countTokens(request)

    let session = ClaudeSession(model: .opus5, system: "Be brief.", tools: [Weather()],
                                configuration: SessionConfiguration(maxTurns: 10), transport: client)
    _ = try await session.respond(to: "Weather in Paris?")
    for try await step in session.streamResponse(to: "And Rome?") { _ = step.message }
    _ = try await session.respond(to: "Three characters", generating: ReadmeParty.self)
    _ = try JSONEncoder().encode(session.transcript)
}

struct ReadmeExampleTests {
    @Test func cloudEndpointsAndFramingAsWritten() throws {
        let bedrock = MessagesClient(configuration: ClientConfiguration(credentials: .apiKey("bedrock-key-0123456789"))
            .using(.bedrock(region: "us-east-1")))
        let model = ClaudeModel.bedrock("us.anthropic.claude-opus-4-6-v1:0")
        #expect(model?.capabilities == ClaudeModel.opus4_6.capabilities)
        _ = bedrock
        let accumulator = MessageAccumulator(options: MessageAccumulatorOptions(framing: .awsEventStream))
        _ = accumulator
        let firstBytes = Array("event: ping\n\n".utf8)
        #expect(firstBytes.withUnsafeBytes { EventFraming.detect($0) } == .serverSentEvents)
    }

    @Test func theExampleToolRunsAsWritten() async throws {
        #expect(try await Weather().call(.init(city: "Paris")) == .text("22 C in Paris"))
        _ = readmeTransportExample  // keeps the type-checked example referenced
    }
}
