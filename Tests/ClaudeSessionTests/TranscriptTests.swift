import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// The transcript saved and restored: a new session sends every opaque field
// (thinking signature, redacted thinking, encrypted content, `caller`,
// unknown blocks, number text) byte for byte, and the transcript's view of
// the response (segments, server tool placeholders, handovers, usage) is
// what arrived.

private let opaqueResponse = StreamScript(id: "msg_opaque")
    .block(#"{"type":"thinking","thinking":"Let me think","signature":"EqQBCgIYAhIM+/opaque=="}"#)
    .block(#"{"type":"redacted_thinking","data":"ENCRYPTED/+=="}"#)
    .text("Searching.")
    .block(#"{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"swift"},"caller":{"type":"direct"}}"#)
    .block(
        #"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://swift.org","title":"Swift","encrypted_content":"Eo8E+zz==","page_age":null}]}"#
    )
    .block(#"{"type":"fallback","from":{"model":"claude-opus-5"},"to":{"model":"claude-sonnet-5"},"trigger":{"type":"refusal"}}"#)
    .block(#"{"type":"x_future_block","weight":1.50,"big":12345678901234567890123,"z":{"b":1,"a":2}}"#)
    .toolUse("toolu_1", "add", #"{"a":1,"b":2}"#, extra: #","caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_9"}"#)
    .end("tool_use")

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct TranscriptTests {
    @Test func savedAndRestoredSessionSendsOpaqueFieldsByteForByte() async throws {
        try await withLoopbackServer { server in
            let done = StreamScript().text("3").end("end_turn")
            try await server.script("save", [.stream(opaqueResponse, pieces: 5), .stream(done), .stream(done)])
            let session = ClaudeSession(model: .opus5, tools: [AddTool()], transport: server.client("save"))
            _ = try await session.respond(to: "Add 1 and 2")

            let saved = try session.transcript.jsonBytes()
            let restored = try SessionTranscript(jsonBytes: saved)
            #expect(restored == session.transcript)
            let again = ClaudeSession(transcript: restored, tools: [AddTool()], transport: server.client("save"))
            _ = try await again.respond(to: "Thanks")

            let recorded = try await server.recorded("save")
            let original = try #require(session.transcript.responses.first).content.text
            for request in recorded.dropFirst() {
                let body = request["body"]?.stringValue ?? ""
                #expect(body.contains(#"{"role":"assistant","content":\#(original)}"#))
            }
            for opaque in [
                "EqQBCgIYAhIM+/opaque==", "ENCRYPTED/+==", "Eo8E+zz==", #""weight":1.50"#,
                "12345678901234567890123", #""z":{"b":1,"a":2}"#, #""caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_9"}"#,
            ] {
                #expect(original.contains(opaque), "\(opaque)")
            }
            // Both sessions built the same messages up to the new prompt.
            let first = try JSONValue.parse(recorded[1]["body"]?.stringValue ?? "")["messages"]?.arrayValue
            let second = try JSONValue.parse(recorded[2]["body"]?.stringValue ?? "")["messages"]?.arrayValue
            #expect(first.map { Array($0.prefix(3)) } == second.map { Array($0.prefix(3)) })
        }
    }

    @Test func responseEntryShowsSegmentsInContentOrder() async throws {
        try await withLoopbackServer { server in
            let done = StreamScript().text("3").end("end_turn")
            try await server.script("segments", [.stream(opaqueResponse), .stream(done)])
            let session = ClaudeSession(model: .opus5, tools: [AddTool()], transport: server.client("segments"))
            _ = try await session.respond(to: "Add")
            let entry = try #require(session.transcript.responses.first)
            #expect(
                entry.segments == [
                    .thinking("Let me think"), .redactedThinking, .text("Searching."),
                    .serverToolActivity(id: "srvtoolu_1", name: "web_search", input: RawJSON(.object([("query", .string("swift"))]))),
                    .serverToolResult(toolUseID: "srvtoolu_1", type: "web_search_tool_result"),
                    .handover(fromModel: "claude-opus-5", toModel: "claude-sonnet-5"),
                    .other(type: "x_future_block"), .toolCall(id: "toolu_1", name: "add"),
                ])
            #expect(entry.model == "claude-sonnet-5")
            #expect(entry.requestedModel == "claude-opus-5")
            #expect(entry.handovers == [Handover(contentIndex: 5, fromModel: "claude-opus-5", toModel: "claude-sonnet-5")])
            #expect(session.transcript.usageByModel.keys.sorted() == ["claude-opus-5", "claude-sonnet-5"])
            let ledger = session.transcript.serverToolLedger
            #expect(ledger.activities.map(\.id) == ["srvtoolu_1"])
            #expect(ledger.pending.isEmpty)
        }
    }

    @Test func ledgerPairsAResultFromALaterResponse() async throws {
        try await withLoopbackServer { server in
            let call = StreamScript()
                .block(#"{"type":"server_tool_use","id":"srvtoolu_late","name":"web_fetch","input":{"url":"https://example.com"}}"#)
                .toolUse("toolu_1", "add", #"{"a":1,"b":2}"#)
                .end("tool_use")
            let result = StreamScript()
                .block(#"{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_late","content":{"type":"web_fetch_result","url":"https://example.com"}}"#)
                .text("Fetched.")
                .end("end_turn")
            try await server.script("ledger", [.stream(call), .stream(result)])
            let session = ClaudeSession(model: .opus5, tools: [AddTool()], transport: server.client("ledger"))
            _ = try await session.respond(to: "Fetch")
            let ledger = session.transcript.serverToolLedger
            #expect(ledger.activities.map(\.id) == ["srvtoolu_late"])
            #expect(ledger.activities.first?.outcome != nil)
            #expect(session.transcript.responses[0].snapshot.serverToolActivities.first?.outcome == nil)
        }
    }
}
