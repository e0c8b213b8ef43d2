import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import IncrementalJSON
import Testing

// Server-side compaction is switched on by the request (`context_management`
// with a `compact_20260112` edit, and its beta); the setup carries it as an
// additional field. A response's `compaction` block is then part of the
// conversation: the next request must send it back exactly as it came.

private let compacting = StreamFixture.sse([
    StreamFixture.messageStart(id: "msg_c", model: "claude-opus-5"),
    #"{"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":"","encrypted_content":null}}"#,
    #"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"Earlier: the user asked about pelicans.","encrypted_content":"Zm9v/+=="}}"#,
    StreamFixture.stop(0),
    StreamFixture.textStart(1), StreamFixture.text(1, "Pélican in French."), StreamFixture.stop(1),
    StreamFixture.messageDelta(), StreamFixture.messageStop,
])

@Suite struct CompactionTests {
    @Test func theCompactionBlockGoesBackVerbatim() async throws {
        var setup = RequestSetup(model: .opus5, betas: ["compact-2026-01-12"])
        let management = try JSONValue.parse(#"{"edits":[{"type":"compact_20260112","trigger":{"type":"input_tokens","value":150000}}]}"#)
        setup.additionalFields = JSONObject([("context_management", management)])
        let transport = FakeTransport([.stream(String(decoding: compacting, as: UTF8.self)), .stream(StreamScript().text("Pelicano.").end("end_turn"))])
        let session = ClaudeSession(setup: setup, transport: transport)
        let first = try await session.respond(to: "And in French?")
        #expect(first.text == "Pélican in French.")
        _ = try await session.respond(to: "And in Spanish?")

        let bodies = transport.bodies
        #expect(bodies.count == 2)
        // Switched on by the request, as given, on every request.
        for body in bodies { #expect(body["context_management"]?.compactJSON == management.compactJSON) }
        let headers = try RequestEncoder.encode(try #require(transport.requests.last)).headers
        #expect(headers.contains { $0.name == "anthropic-beta" && $0.value.split(separator: ",").contains("compact-2026-01-12") })
        // The compaction block of the response, byte for byte, in the assistant turn.
        let assistant = try #require(bodies[1]["messages"]?[1])
        #expect(assistant["role"]?.stringValue == "assistant")
        #expect(
            assistant["content"]?.compactJSON
                == #"[{"type":"compaction","content":"Earlier: the user asked about pelicans.","encrypted_content":"Zm9v/+=="},{"type":"text","text":"Pélican in French."}]"#
        )
        // And the transcript file keeps it too.
        let restored = try SessionTranscript(jsonBytes: try session.transcript.jsonBytes())
        #expect(restored.responses.first?.content == session.transcript.responses.first?.content)
    }
}
