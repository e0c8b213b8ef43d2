import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeTransport

// The `request-id` of a successful response on the stream and on every
// snapshot's metadata; an output schema turns on JSON parsing by itself.

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct ResponseIdentityTests {
    @Test func requestIDOnTheStreamAndTheFinalSnapshot() async throws {
        try await withLoopbackServer { server in
            let stream = try loopbackClient(server, "echo").stream(MessageRequest(model: .opus5, messages: [.user("Hi")]))
            var last: MessageSnapshot?
            for try await snapshot in stream { last = snapshot }
            let final = try #require(last)
            #expect(final.isComplete)
            #expect(final.metadata.requestID == "req_loopback_stream")
            #expect(stream.requestID == "req_loopback_stream")
        }
    }

    @Test func outputSchemaTurnsOnStructuredParsing() async throws {
        struct Anything: Decodable, Sendable {}
        try await withLoopbackServer { server in
            let schema = JSONSchema.object([.init("a", .string())]).jsonValue
            let request = MessageRequest(model: .opus5, messages: [.user("Hi")], outputSchema: schema)
            var last: StructuredSnapshot<Anything>?
            for try await element in try loopbackClient(server, "echo").stream(request, generating: Anything.self) { last = element }
            // The echo text is a hex digest, not JSON: parsing it proves it was parsed.
            let issue = try #require(last?.issue)
            guard case .invalidJSON(let index, _) = issue else {
                Issue.record("expected invalid JSON, got \(issue)")
                return
            }
            #expect(index == 0)
            // Without a schema the same text is plain text.
            let plain = try await loopbackClient(server, "echo").send(MessageRequest(model: .opus5, messages: [.user("Hi")]))
            #expect(throws: StructuredOutputError.notRequested) { try plain.decodeStructured(Anything.self, complete: true) }
        }
    }
}
