import ClaudeSession
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// count_tokens for the request a session would send next: the counting
// body (no stream, no max_tokens), the answer, and a typed HTTP failure.

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct TokenCountingTests {
    @Test func countsTheNextRequest() async throws {
        try await withLoopbackServer { server in
            try await server.script(
                "count",
                [
                    ScriptedAnswer(json: ["body": #"{"input_tokens":1234}"#, "content_type": "application/json"]),
                    .status(400, #"{"type":"error","error":{"type":"invalid_request_error","message":"bad tool"}}"#),
                ])
            let client = server.client("count")
            let session = ClaudeSession(model: .opus5, system: "Be brief.", tools: [AddTool()], transport: client)
            let request = try session.nextRequest(prompt: [.text("How long is this?")])
            let count = try await client.countTokens(request)
            #expect(count.inputTokens == 1234)
            let recorded = try await server.recorded("count")
            #expect(recorded.first?["path"]?.stringValue == "/s/count/v1/messages/count_tokens")
            let body = try JSONValue.parse(recorded.first?["body"]?.stringValue ?? "")
            #expect(body["stream"] == nil && body["max_tokens"] == nil)
            #expect(body["tools"]?[0]?["name"]?.stringValue == "add")
            #expect(body["messages"]?[0]?["content"]?[0]?["text"]?.stringValue == "How long is this?")
            #expect(recorded.first?["headers"]?["x-api-key"]?.stringValue == "sk-ant-session-test-0123456789")
            do throws(TransportError) {
                _ = try await client.countTokens(request)
                Issue.record("expected a 400")
            } catch {
                #expect(error.httpFailure?.status == 400)
                #expect(error.httpFailure?.message == "bad tool")
            }
        }
    }
}
