import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeTransport

// What reaches the server: headers, betas, profile, fallbacks, the body as
// encoded, the key only in its header, and an assistant turn replayed byte
// for byte from a previous snapshot.

private let thinkingStream = """
    event: message_start
    data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-opus-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

    event: content_block_start
    data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

    event: content_block_delta
    data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think \\u00e9"}}

    event: content_block_delta
    data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM+/opaque=="}}

    event: content_block_stop
    data: {"type":"content_block_stop","index":0}

    event: content_block_start
    data: {"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"ENCRYPTED/+=="}}

    event: content_block_stop
    data: {"type":"content_block_stop","index":1}

    event: message_delta
    data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

    event: message_stop
    data: {"type":"message_stop"}


    """

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct RecordedRequestTests {
    @Test func headersAndBodyAsSent() async throws {
        try await withLoopbackServer { server in
            let request = MessageRequest(
                model: .opus5, messages: [.user("Hello")], system: "sys", effort: .high,
                fallbacks: .models([.sonnet4_6]), betas: ["extra-beta"], userProfileID: "prof_7")
            _ = try await loopbackClient(server, "echo").send(request)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.method == "POST")
            #expect(recorded.path == "/echo/v1/messages")
            #expect(recorded.header("x-api-key") == testKey)
            #expect(recorded.header("anthropic-version") == "2023-06-01")
            #expect(recorded.header("anthropic-beta") == "extra-beta,server-side-fallback-2026-07-01,user-profiles-2026-08-18")
            #expect(recorded.header("anthropic-user-profile-id") == "prof_7")
            #expect(recorded.header("content-type") == "application/json")
            #expect(recorded.header("accept") == "text/event-stream")
            #expect(Array(recorded.body.utf8) == (try RequestEncoder.encode(request)).body)
            #expect(recorded.json?["stream"]?.boolValue == true)
            #expect(recorded.json?["fallbacks"]?.compactJSON == #"[{"model":"claude-sonnet-4-6","output_config":{"effort":"high"}}]"#)
            #expect(!recorded.body.contains(testKey))
        }
    }

    @Test func proxiedCredentialsSendOnlyTheGivenHeaders() async throws {
        try await withLoopbackServer { server in
            let credentials = Credentials.proxied(headers: [HTTPHeader("X-Relay-Token", "relay-secret-123456")])
            _ = try await loopbackClient(server, "echo", credentials: credentials).send(simpleRequest)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.header("x-relay-token") == "relay-secret-123456")
            #expect(recorded.header("x-api-key") == nil)
            #expect(recorded.header("authorization") == nil)
        }
    }

    @Test func assistantTurnReplaysThePreviousSnapshotVerbatim() async throws {
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(Array(thinkingStream.utf8))
        let previous = try accumulator.finish()
        let contentJSON = previous.contentJSON().compactJSON
        #expect(contentJSON.contains("EqQBCgIYAhIM+/opaque=="))
        #expect(contentJSON.contains("ENCRYPTED/+=="))
        try await withLoopbackServer { server in
            let request = MessageRequest(
                model: .opus5,
                messages: [
                    .user("First"), .assistant(replaying: previous), .user("Second"),
                ])
            _ = try await loopbackClient(server, "echo").send(request)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.json?["messages"]?[1]?["role"]?.stringValue == "assistant")
            #expect(recorded.json?["messages"]?[1]?["content"]?.compactJSON == contentJSON)
            #expect(recorded.body.contains(#""content":\#(contentJSON)"#))
        }
    }

    @Test func theUserAgentNamesThisPackageAndItsPlatform() async throws {
        // Only this package's name and version, and where it runs: not the HTTP library's default.
        let pattern = /claude-streaming\/[0-9]+\.[0-9]+\.[0-9]+ \((Linux|macOS|iOS|tvOS|watchOS|visionOS); (x86_64|arm64)\)/
        #expect(ClientConfiguration.userAgent.wholeMatch(of: pattern) != nil, "\(ClientConfiguration.userAgent)")
        #expect(ClientConfiguration.userAgent.contains(ClaudeStreamingVersion.current))
        try await withLoopbackServer { server in
            try await server.script("ua", [.stream(StreamScript().text("hi").end("end_turn"))])
            let client = MessagesClient(configuration: ClientConfiguration(baseURL: server.base("ua"), credentials: .apiKey(testKey)))
            _ = try await client.send(simpleRequest)
            let sent = try #require(try await server.recorded("ua").first?["headers"]?["user-agent"]?.stringValue)
            #expect(sent == ClientConfiguration.userAgent)
            #expect(!sent.contains("curl") && !sent.contains("unknown version"))
        }
    }

    @Test func modelCapabilitiesFromTheModelsAPI() async throws {
        try await withLoopbackServer { server in
            let client = loopbackClient(server, "models/claude-new-1")
            let model = try await client.model(lookingUp: "claude-new-1")
            #expect(model.id == "claude-new-1")
            #expect(model.capabilities.effortLevels == [.low, .medium, .high, .max])
            #expect(model.capabilities.adaptiveThinking)
            #expect(model.capabilities.structuredOutput)
            #expect(model.capabilities.imageInput)
            #expect(model.capabilities.sampling.isEmpty)
            #expect(model.capabilities.serverTools.contains(.codeExecution))
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.method == "GET")
            #expect(recorded.header("anthropic-version") == "2023-06-01")
            #expect(recorded.header("user-agent") == ClientConfiguration.userAgent)
            // An unknown route answers 404: a typed HTTP failure.
            do throws(TransportError) {
                _ = try await loopbackClient(server, "nowhere").model(lookingUp: "x")
                Issue.record("expected a 404")
            } catch {
                #expect(error.httpFailure?.kind == .notFound)
            }
        }
    }

    @Test func connectionRefusedIsANetworkError() async throws {
        // Nothing listens on the discard port of loopback.
        let client = MessagesClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "http://127.0.0.1:9")), credentials: .apiKey(testKey), idleTimeout: 5))
        do throws(TransportError) {
            _ = try await client.send(simpleRequest)
            Issue.record("expected a network error")
        } catch {
            guard case .network(let reason) = error else {
                Issue.record("expected .network, got \(error)")
                return
            }
            #expect(!reason.contains(testKey))
        }
    }
}
