// `claude-stream chat --bedrock REGION` and `--vertex PROJECT/REGION` run
// as a real process against the loopback server's Bedrock and Vertex
// routes: the request path (model ID mapped to the cloud's form), the body
// differences, the auth header from the cloud's variable, the answer read
// in the cloud's framing, and the key or token in no output.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

private let bedrockToken = "ABSKcli-bedrock-key-0123456789abcdef"
private let vertexToken = "ya29.cli-vertex-token-0123456789"

/// The credential variables unset, so a test controls which one is present.
private let noCloudCredentials: [String: String?] = ["AWS_BEARER_TOKEN_BEDROCK": nil, "CLOUDSDK_AUTH_ACCESS_TOKEN": nil]

/// A cloud as chat reaches it: the variable its credential comes from, and
/// the credential the tests put there.
private enum Cloud {
    case bedrock, vertex

    var variable: String { self == .bedrock ? "AWS_BEARER_TOKEN_BEDROCK" : "CLOUDSDK_AUTH_ACCESS_TOKEN" }
    var token: String { self == .bedrock ? bedrockToken : vertexToken }
}

/// `chat PROMPT --final-json ARGUMENTS` against `route` of a loopback server
/// of its own, with only `cloud`'s variable set among the cloud credentials:
/// the run, and the first request the server recorded (nil when none came).
private func runCloudChat(
    _ cloud: Cloud, _ prompt: String, _ arguments: [String], route: String
) async throws -> (run: ChatRun, request: RecordedRequest?) {
    try await withLoopbackServer { server in
        var environment = noCloudCredentials
        environment[cloud.variable] = cloud.token
        let base = server.url(route).absoluteString
        let run = try runChat([prompt, "--final-json"] + arguments + ["--base-url", base], environment: environment)
        return (run, try await server.recordedRequests().first)
    }
}

private func final(_ run: ChatRun) throws -> JSONValue {
    try JSONValue.parse(Array(try #require(run.stdout.split(separator: "\n").first).utf8))
}

private func expectNoSecret(_ run: ChatRun, _ secret: String) {
    // The whole secret and every 8-character piece of it.
    for start in 0...(secret.count - 8) {
        let piece = String(secret.dropFirst(start).prefix(8))
        #expect(!run.stdout.contains(piece) && !run.stderr.contains(piece), "'\(piece)' printed")
    }
}

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct ChatCloudTests {
    @Test func bedrockSendsToTheModelPathWithTheBedrockKey() async throws {
        let (run, request) = try await runCloudChat(
            .bedrock, "Hello", ["--bedrock", "us-east-1", "--model", "claude-opus-4-6"], route: "t-cb1/bedrock-echo")
        #expect(run.status == 0, "\(run.stderr)")
        let message = try final(run)
        #expect(message["type"]?.stringValue == "message")
        // The echo stream's text is the SHA-256 of the body, in hex: the answer came through the event-stream framing.
        let text = message["content"]?[0]?["text"]?.stringValue ?? ""
        #expect(text.count == 64 && text.allSatisfy(\.isHexDigit), "\(text)")
        let recorded = try #require(request)
        #expect(recorded.path == "/t-cb1/bedrock-echo/model/anthropic.claude-opus-4-6-v1:0/invoke-with-response-stream")
        #expect(recorded.header("authorization") == "Bearer \(bedrockToken)")
        #expect(recorded.header("x-api-key") == nil)
        #expect(recorded.header("accept") == "application/vnd.amazon.eventstream")
        let body = try #require(recorded.json)
        #expect(body["model"] == nil && body["stream"] == nil)
        #expect(body["anthropic_version"]?.stringValue == "bedrock-2023-05-31")
        #expect(body["messages"]?[0]?["content"]?[0]?["text"]?.stringValue == "Hello")
        expectNoSecret(run, bedrockToken)
        expectNoSecret(run, chatKey)
    }

    @Test func bedrockTakesTheCloudsOwnModelID() async throws {
        let (run, request) = try await runCloudChat(
            .bedrock, "Hi", ["--bedrock", "us-west-2", "--model", "us.anthropic.claude-opus-4-6-v1:0"], route: "t-cb2/bedrock-echo")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(request?.path == "/t-cb2/bedrock-echo/model/us.anthropic.claude-opus-4-6-v1:0/invoke-with-response-stream")
    }

    @Test func vertexSendsToStreamRawPredictWithTheToken() async throws {
        let (run, request) = try await runCloudChat(
            .vertex, "Hello", ["--vertex", "my-project/us-east5", "--model", "claude-haiku-4-5-20251001"], route: "t-cv1/vertex-echo")
        #expect(run.status == 0, "\(run.stderr)")
        let text = try final(run)["content"]?[0]?["text"]?.stringValue ?? ""
        #expect(text.count == 64, "\(text)")
        let recorded = try #require(request)
        #expect(
            recorded.path
                == "/t-cv1/vertex-echo/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict")
        #expect(recorded.header("authorization") == "Bearer \(vertexToken)")
        #expect(recorded.header("x-api-key") == nil)
        let body = try #require(recorded.json)
        #expect(body["model"] == nil)
        #expect(body["anthropic_version"]?.stringValue == "vertex-2023-10-16")
        expectNoSecret(run, vertexToken)
    }

    @Test func aMissingCredentialNamesTheVariableAndSendsNothing() async throws {
        try await withLoopbackServer { server in
            for (flag, value, variable) in [
                ("--bedrock", "us-east-1", "AWS_BEARER_TOKEN_BEDROCK"),
                ("--vertex", "p/us-east5", "CLOUDSDK_AUTH_ACCESS_TOKEN"),
            ] {
                let run = try runChat(
                    ["Hi", flag, value, "--base-url", server.url("t-cm/bedrock-echo").absoluteString],
                    environment: noCloudCredentials)
                #expect(run.status == 2)
                #expect(run.stderr == "chat: no credential: set \(variable)\n", "\(run.stderr)")
                expectNoSecret(run, chatKey)  // the Anthropic key is not used in its place
            }
            let sent = try await server.recordedRequests().filter { $0.method == "POST" }
            #expect(sent.isEmpty, "\(sent.map(\.path))")
        }
    }

    @Test func anEchoedBedrockKeyIsNeverPrinted() async throws {
        let run = try await runCloudChat(.bedrock, "Hi", ["--bedrock", "us-east-1"], route: "t-cb3/bedrock-403-echo").run
        #expect(run.status == 2)
        #expect(run.stderr.contains("403"), "\(run.stderr)")
        #expect(run.stderr.contains("AccessDeniedException"), "\(run.stderr)")
        expectNoSecret(run, bedrockToken)
    }

    @Test func cloudFlagsAreCheckedBeforeAnythingIsSent() throws {
        let bad = try runChat(["Hi", "--vertex", "only-a-project"], environment: noCloudCredentials)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--vertex: expected PROJECT/REGION"), "\(bad.stderr)")
        let both = try runChat(["Hi", "--bedrock", "us-east-1", "--vertex", "p/r"], environment: noCloudCredentials)
        #expect(both.status == 64)
        #expect(both.stderr.contains("one of --bedrock and --vertex"), "\(both.stderr)")
    }
}
