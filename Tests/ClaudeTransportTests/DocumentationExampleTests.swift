// The worked example of ClaudeTransport.docc/ClaudeTransport.md, kept here
// so the catalog cannot drift from the code: the streaming part needs a
// server and is type-checked only; the encoding part runs.

import ClaudeStreaming
import ClaudeTransport
import IncrementalJSON
import Testing

private let weatherSchema = JSONSchema.object([.init("city", .string())])

private func catalogRequest() -> MessageRequest {
    MessageRequest(
        model: .opus5, messages: [.user("Weather in Paris?")], system: "Be brief",
        tools: [
            .client(
                ClientToolDefinition(
                    name: "weather", description: "Current weather",
                    inputSchema: weatherSchema))
        ])
}

/// Type-checked only: streaming needs a server.
private func catalogStreamingExample(key: String, render: (MessageSnapshot) -> Void) async throws {
    let client = MessagesClient(
        configuration: ClientConfiguration(
            credentials: .apiKey(key), idleTimeout: 60, overallTimeout: 600))
    let request = catalogRequest()
    for try await snapshot in try client.stream(request) {
        render(snapshot)
    }
}

@Suite struct DocumentationExampleTests {
    @Test func catalogRequestEncodesOffline() throws {
        let wire = try RequestEncoder.encode(catalogRequest())
        let body = try JSONValue.parse(wire.body)
        #expect(body["model"]?.stringValue == "claude-opus-5")
        #expect(body["system"]?.stringValue == "Be brief")
        #expect(body["stream"] == .bool(true))
        #expect(body["tools"]?[0]?["name"]?.stringValue == "weather")
        #expect(body["messages"]?[0]?["role"]?.stringValue == "user")
        _ = catalogStreamingExample  // keeps the type-checked example referenced
    }
}
