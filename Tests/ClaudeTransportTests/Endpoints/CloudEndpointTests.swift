// Bedrock and Vertex endpoints against the loopback server: the path, the
// body differences from the Anthropic request, the headers, the signing
// hook, the event-stream framing end to end, and that the key or token
// never appears in anything the client reports.

import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeTransport

private let bedrockKey = "ABSKbedrock-api-key-0123456789"
private let vertexToken = "ya29.vertex-token-0123456789"

private struct FixedToken: BearerTokenProvider {
    func token(refresh: Bool) async throws -> String { vertexToken }
}

private struct RecordingSigner: RequestSigner {
    func sign(_ request: SignableRequest) async throws -> [HTTPHeader] {
        // A stand-in for SigV4: proves the hook sees the final URL and body.
        [
            HTTPHeader("authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/signature-\(request.body.count)"),
            HTTPHeader("x-amz-date", "20261201T000000Z"),
            HTTPHeader("x-amz-security-token", "session-token-secret-0123"),
            HTTPHeader("x-test-signed-path", request.url.path),
        ]
    }
}

private func client(_ server: LoopbackServer, _ endpoint: ClaudeEndpoint, credentials: Credentials?) -> MessagesClient {
    MessagesClient(configuration: ClientConfiguration(credentials: credentials, idleTimeout: loopbackIdleTimeout, overallTimeout: 600).using(endpoint))
}

private let bedrockModel = ClaudeModel.bedrock("us.anthropic.claude-opus-4-6-v1:0")

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct CloudEndpointTests {
    @Test func bedrockRequestShapeAndEventStreamAnswer() async throws {
        try await withLoopbackServer { server in
            let model = try #require(bedrockModel)
            let request = MessageRequest(model: model, messages: [.user("Hello")], betas: ["context-1m-2025-08-07"])
            let endpoint = ClaudeEndpoint.bedrock(region: "us-east-1", baseURL: server.url("t-b1/bedrock-echo"))
            let message = try await client(server, endpoint, credentials: .apiKey(bedrockKey)).send(request)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.path == "/t-b1/bedrock-echo/model/us.anthropic.claude-opus-4-6-v1:0/invoke-with-response-stream")
            #expect(recorded.header("authorization") == "Bearer \(bedrockKey)")
            #expect(recorded.header("x-api-key") == nil)
            #expect(recorded.header("anthropic-version") == nil)
            #expect(recorded.header("anthropic-beta") == nil)
            #expect(recorded.header("accept") == "application/vnd.amazon.eventstream")
            let body = try #require(recorded.json)
            #expect(body["model"] == nil)
            #expect(body["stream"] == nil)
            #expect(body["anthropic_version"]?.stringValue == "bedrock-2023-05-31")
            #expect(body["anthropic_beta"]?.compactJSON == #"["context-1m-2025-08-07"]"#)
            #expect(body["max_tokens"] != nil && body["messages"] != nil)
            // The answer came back in the AWS event-stream framing, 50-byte pieces.
            #expect(message.text.count == 64 && message.isComplete)
        }
    }

    @Test func bedrockSigningHookSignsTheFinalRequest() async throws {
        try await withLoopbackServer { server in
            let request = MessageRequest(model: try #require(bedrockModel), messages: [.user("Hi")])
            let endpoint = ClaudeEndpoint.bedrock(region: "us-west-2", baseURL: server.url("t-b2/bedrock-echo"), signer: RecordingSigner())
            _ = try await client(server, endpoint, credentials: nil).send(request)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(recorded.header("authorization") == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/signature-\(recorded.body.utf8.count)")
            #expect(recorded.header("x-amz-date") == "20261201T000000Z")
            #expect(recorded.header("x-test-signed-path") == recorded.path)
        }
    }

    @Test func bedrockExceptionMidStreamKeepsTheSnapshot() async throws {
        try await withLoopbackServer { server in
            let endpoint = ClaudeEndpoint.bedrock(region: "us-east-1", baseURL: server.url("t-b3/bedrock-exception"))
            let model = try #require(bedrockModel)
            do throws(TransportError) {
                _ = try await client(server, endpoint, credentials: .apiKey(bedrockKey))
                    .send(MessageRequest(model: model, messages: [.user("Hi")]))
                Issue.record("the exception frame did not fail the stream")
            } catch {
                guard case .stream(let streamError) = error,
                    case .eventStreamException(let exception) = streamError.kind
                else {
                    Issue.record("\(error)")
                    return
                }
                #expect(exception.type == "throttlingException")
                #expect(streamError.snapshot?.text == String(repeating: "y", count: 40))
                #expect(!"\(error)".contains(bedrockKey))
            }
        }
    }

    @Test func credentialEchoedByBedrockIsRedacted() async throws {
        try await withLoopbackServer { server in
            let endpoint = ClaudeEndpoint.bedrock(region: "us-east-1", baseURL: server.url("t-b4/bedrock-403-echo"))
            let model = try #require(bedrockModel)
            do throws(TransportError) {
                _ = try await client(server, endpoint, credentials: .apiKey(bedrockKey))
                    .send(MessageRequest(model: model, messages: [.user("Hi")]))
                Issue.record("a 403 did not fail")
            } catch {
                #expect(error.httpFailure?.status == 403)
                for text in ["\(error)", String(reflecting: error), "\(String(describing: error.httpFailure))"] {
                    #expect(!text.contains(bedrockKey), "\(text)")
                    #expect(!text.contains(String(bedrockKey.suffix(12))), "\(text)")
                }
            }
            let signed = ClaudeEndpoint.bedrock(region: "us-east-1", baseURL: server.url("t-b5/bedrock-403-echo"), signer: RecordingSigner())
            do throws(TransportError) {
                _ = try await client(server, signed, credentials: nil).send(MessageRequest(model: model, messages: [.user("Hi")]))
                Issue.record("a 403 did not fail")
            } catch {
                #expect(error.httpFailure?.status == 403)
                #expect(!"\(error)".contains("AKIDEXAMPLE/signature"), "\(error)")
            }
        }
    }

    @Test(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func bedrockRecordingOverTheNetworkMatchesTheFile() async throws {
        let name = "fantasy__TestBedrockCommon__bedrock-anthropic-claude-3-haiku__tool_streaming.0@3e101dd1.eventstream"
        let file = TestPaths.corpus.deletingLastPathComponent().appendingPathComponent("bedrock-eventstream/recorded/bedrock/\(name)")
        let bytes = try Data(contentsOf: file)
        var offline = MessageAccumulator(options: MessageAccumulatorOptions(framing: .awsEventStream))
        _ = try offline.feed(Array(bytes))
        let expected = try offline.finish()
        try await withLoopbackServer { server in
            for mode in ["bytes", "random-7", "chunk-1000"] {
                let endpoint = ClaudeEndpoint.bedrock(region: "us-east-1", baseURL: server.url("bedrock-replay/\(name)/\(mode)"))
                let message = try await client(server, endpoint, credentials: .apiKey(bedrockKey))
                    .send(MessageRequest(model: try #require(bedrockModel), messages: [.user("Hi")]))
                #expect(message.messageJSON().compactJSON == expected.messageJSON().compactJSON, "\(mode)")
            }
        }
    }

    @Test func vertexRequestShape() async throws {
        try await withLoopbackServer { server in
            let model = try #require(ClaudeModel.vertex("claude-opus-4-6@20260101"))
            let request = MessageRequest(model: model, messages: [.user("Hello")], betas: ["extra-beta"])
            let endpoint = ClaudeEndpoint.vertex(project: "my-project", region: "us-east5", baseURL: server.url("t-v1/vertex-echo"))
            let message = try await client(server, endpoint, credentials: .bearer(FixedToken())).send(request)
            let recorded = try #require(try await server.recordedRequests().first)
            #expect(
                recorded.path
                    == "/t-v1/vertex-echo/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-opus-4-6@20260101:streamRawPredict")
            #expect(recorded.header("authorization") == "Bearer \(vertexToken)")
            #expect(recorded.header("anthropic-version") == nil)
            #expect(recorded.header("anthropic-beta") == "extra-beta")
            let body = try #require(recorded.json)
            #expect(body["model"] == nil)
            #expect(body["stream"]?.boolValue == true)
            #expect(body["anthropic_version"]?.stringValue == "vertex-2023-10-16")
            #expect(message.text.count == 64)
            #expect(!"\(message.messageJSON().compactJSON)".contains(vertexToken))
        }
    }
}

@Suite struct CloudEndpointShapeTests {
    @Test func publicHostsPerRegion() throws {
        let base = try #require(URL(string: "https://api.anthropic.com"))
        #expect(
            try ClaudeEndpoint.bedrock(region: "eu-west-3").endpointURL(model: "anthropic.claude-haiku-4-5-20251001-v1:0", anthropicBase: base).absoluteString
                == "https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-haiku-4-5-20251001-v1:0/invoke-with-response-stream")
        #expect(
            try ClaudeEndpoint.vertex(project: "p-1", region: "global").endpointURL(model: "claude-opus-4-6", anthropicBase: base).absoluteString
                == "https://aiplatform.googleapis.com/v1/projects/p-1/locations/global/publishers/anthropic/models/claude-opus-4-6:streamRawPredict")
        #expect(
            try ClaudeEndpoint.vertex(project: "p-1", region: "europe-west1").endpointURL(model: "claude-opus-4-6", anthropicBase: base).host
                == "europe-west1-aiplatform.googleapis.com")
        #expect(try ClaudeEndpoint.anthropic.endpointURL(model: "x", anthropicBase: base).absoluteString == "https://api.anthropic.com/v1/messages")
        // An inference-profile ARN keeps its '/' inside one path segment.
        let arn = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-6-v1:0"
        #expect(
            try ClaudeEndpoint.bedrock(region: "us-east-1").endpointURL(model: arn, anthropicBase: base).path(percentEncoded: true)
                == "/model/arn:aws:bedrock:us-east-1:123456789012:inference-profile%2Fus.anthropic.claude-opus-4-6-v1:0/invoke-with-response-stream")
    }

    @Test func invalidRegionIsARequestError() {
        let request = MessageRequest(model: .opus4_6, messages: [.user("x")])
        for endpoint in [ClaudeEndpoint.bedrock(region: "us-east-1.evil.com/"), .vertex(project: "p", region: ""), .vertex(project: "a/b", region: "us")] {
            let client = MessagesClient(configuration: ClientConfiguration(credentials: .apiKey(bedrockKey)).using(endpoint))
            #expect(throws: TransportError.self) { _ = try client.stream(request) }
        }
    }

    @Test func bedrockAndVertexModelIDsCarryFirstPartyCapabilities() {
        #expect(ClaudeModel.firstPartyID(ofBedrock: "us.anthropic.claude-opus-4-6-v1:0") == "claude-opus-4-6")
        #expect(ClaudeModel.firstPartyID(ofBedrock: "anthropic.claude-haiku-4-5-20251001-v1:0") == "claude-haiku-4-5-20251001")
        #expect(ClaudeModel.firstPartyID(ofBedrock: "global.anthropic.claude-sonnet-4-6") == "claude-sonnet-4-6")
        #expect(ClaudeModel.firstPartyID(ofBedrock: "amazon.titan-text-v1") == nil)
        #expect(ClaudeModel.bedrock("eu.anthropic.claude-opus-4-6-v1:0")?.capabilities == ClaudeModel.opus4_6.capabilities)
        #expect(ClaudeModel.bedrock("eu.anthropic.claude-opus-4-6-v1:0")?.id == "eu.anthropic.claude-opus-4-6-v1:0")
        #expect(ClaudeModel.bedrock("anthropic.claude-haiku-4-5-20251001-v1:0")?.capabilities == ClaudeModel.haiku4_5.capabilities)
        #expect(ClaudeModel.vertex("claude-haiku-4-5@20251001")?.capabilities == ClaudeModel.haiku4_5.capabilities)
        #expect(ClaudeModel.vertex("claude-unknown-9") == nil)
    }

    @Test func bodyDifferencesFromTheAnthropicRequest() throws {
        let request = MessageRequest(model: .opus4_6, messages: [.user("x")], betas: ["b1", "b2"])
        let anthropic = try RequestEncoder.encode(request)
        let base = try #require(URL(string: "https://api.anthropic.com"))
        let (bedrock, bedrockURL) = try ClaudeEndpoint.bedrock(region: "us-east-1").route(anthropic, anthropicBase: base)
        let (vertex, vertexURL) = try ClaudeEndpoint.vertex(project: "p", region: "us-east5").route(anthropic, anthropicBase: base)
        // The model leaves the body for the path.
        #expect(bedrockURL.absoluteString.hasSuffix("/model/\(ClaudeModel.opus4_6.id)/invoke-with-response-stream"))
        #expect(vertexURL.absoluteString.hasSuffix("/models/\(ClaudeModel.opus4_6.id):streamRawPredict"))
        let original = try JSONValue.parse(anthropic.body)
        let b = try JSONValue.parse(bedrock.body)
        let v = try JSONValue.parse(vertex.body)
        for key in original.objectValue?.keys ?? [] where key != "model" && key != "stream" {
            #expect(b[key] == original[key], "\(key)")
            #expect(v[key] == original[key], "\(key)")
        }
        #expect(b["anthropic_beta"]?.compactJSON == #"["b1","b2"]"#)
        #expect(v["anthropic_beta"] == nil && v["stream"]?.boolValue == true)
        #expect(!bedrock.headers.contains { $0.name == "anthropic-beta" })
        #expect(vertex.headers.contains { $0.name == "anthropic-beta" && $0.value == "b1,b2" })
        #expect(ClaudeEndpoint.bedrock(region: "x").framing == .awsEventStream)
        #expect(ClaudeEndpoint.vertex(project: "p", region: "r").framing == .serverSentEvents)
    }
}

@Suite struct CloudEndpointEnvironmentTests {
    @Test func credentialsFromTheEnvironment() async throws {
        let environment = ["AWS_BEARER_TOKEN_BEDROCK": bedrockKey, "CLOUDSDK_AUTH_ACCESS_TOKEN": vertexToken]
        guard case .apiKey(let key)? = ClaudeEndpoint.bedrock(region: "us-east-1").credentials(from: environment) else {
            Issue.record("no Bedrock key")
            return
        }
        #expect(key == bedrockKey)
        guard case .bearer(let provider)? = ClaudeEndpoint.vertex(project: "p", region: "r").credentials(from: environment) else {
            Issue.record("no Vertex token")
            return
        }
        #expect(try await provider.token(refresh: true) == vertexToken)
        #expect(ClaudeEndpoint.anthropic.credentials(from: environment) == nil)
        #expect(ClaudeEndpoint.bedrock(region: "x").credentials(from: ["AWS_BEARER_TOKEN_BEDROCK": ""]) == nil)
    }
}
