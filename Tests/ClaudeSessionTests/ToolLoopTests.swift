import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

// The tool loop where the wire is the point, through a real HTTP exchange
// with the scripted server: parallel calls run concurrently with results in
// block order, a throwing tool, undecodable arguments and unparseable input
// become error results, pause_turn is continued, the request id reaches the
// transcript, and a 429, a dropped stream or a cancellation that closes the
// request leave the transcript at its last complete step. The loop's logic
// alone is tested in-process (ToolLoopLogicTests).

struct AddTool: ClientTool {
    struct Arguments: Decodable, Sendable {
        var a: Int
        var b: Int
    }
    var name: String { "add" }
    var description: String { "Adds two integers" }
    var inputSchema: JSONValue {
        JSONSchema.object([.init("a", .integer()), .init("b", .integer())]).jsonValue
    }
    func call(_ arguments: Arguments) async throws -> ToolOutput { .text("\(arguments.a + arguments.b)") }
}

struct FailingTool: ClientTool {
    struct Arguments: Decodable, Sendable {}
    struct Broken: Error, CustomStringConvertible { var description: String { "the weather service is down" } }
    var name: String { "weather" }
    var description: String { "Current weather" }
    var inputSchema: JSONValue { JSONSchema.object([]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput { throw Broken() }
}

/// Two of these meet: each waits (up to 5 s) until the other has started,
/// so they only both say "together" when run concurrently.
final class Rendezvous: Sendable {
    let arrived = Mutex(0)
}

struct MeetTool: ClientTool {
    struct Arguments: Decodable, Sendable { var who: String }
    let rendezvous: Rendezvous
    var name: String { "meet" }
    var description: String { "Waits for the other caller" }
    var inputSchema: JSONValue { JSONSchema.object([.init("who", .string())]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        rendezvous.arrived.withLock { $0 += 1 }
        for _ in 0..<500 {
            if rendezvous.arrived.withLock({ $0 }) >= 2 { return .json(.object([("who", .string(arguments.who)), ("met", .bool(true))])) }
            try await Task.sleep(for: .milliseconds(10))
        }
        return .json(.object([("who", .string(arguments.who)), ("met", .bool(false))]))
    }
}

/// Blocks until cancelled, noting that it started.
struct BlockingTool: ClientTool {
    struct Arguments: Decodable, Sendable {}
    let started: Rendezvous
    var name: String { "block" }
    var description: String { "Never finishes" }
    var inputSchema: JSONValue { JSONSchema.object([]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        started.arrived.withLock { $0 = 1 }
        try await Task.sleep(for: .seconds(30))
        return .text("finished")
    }
}

private func results(of body: JSONValue) -> [JSONValue] {
    let last = body["messages"]?.arrayValue?.last
    return Array(last?["content"]?.arrayValue ?? JSONArray())
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct ToolLoopTests {
    @Test func parallelCallsErrorsAndPauseTurn() async throws {
        try await withLoopbackServer { server in
            let first = StreamScript(id: "msg_1")
                .text("Let me check.")
                .toolUse("toolu_a", "meet", #"{"who":"a"}"#)
                .toolUse("toolu_b", "meet", #"{"who":"b"}"#)
                .toolUse("toolu_c", "weather", "{}")
                .toolUse("toolu_d", "add", #"{"a":"one","b":2}"#)
                .toolUse("toolu_e", "add", #"{"a":1,"#)
                .toolUse("toolu_f", "nowhere", "{}")
                .toolUse("toolu_g", "add", #"{"a":40,"b":2}"#)
                .end("tool_use")
            let paused = StreamScript(id: "msg_2").text("Still working").end("pause_turn")
            let done = StreamScript(id: "msg_3", model: "claude-sonnet-5").text("The answer is 42.").end("end_turn", outputTokens: 7)
            try await server.script("loop", [.stream(first, pieces: 7), .stream(paused), .stream(done)])
            let session = ClaudeSession(
                model: .opus5, system: "Be exact.",
                tools: [AddTool(), FailingTool(), MeetTool(rendezvous: Rendezvous())],
                transport: server.client("loop"))
            let response = try await session.respond(to: "What is 40 + 2?")
            #expect(response.text == "The answer is 42.")
            #expect(response.requests == 3)

            let bodies = try await server.bodies("loop")
            #expect(bodies.count == 3)
            #expect(bodies[0]["tools"]?.arrayValue?.map { $0["name"]?.stringValue } == ["add", "weather", "meet"])
            #expect(bodies[0]["system"]?.stringValue == "Be exact.")
            let sent = results(of: bodies[1])
            #expect(sent.map { $0["tool_use_id"]?.stringValue } == ["toolu_a", "toolu_b", "toolu_c", "toolu_d", "toolu_e", "toolu_f", "toolu_g"])
            #expect(sent.map { $0["is_error"]?.boolValue ?? false } == [false, false, true, true, true, true, false])
            // Both meet calls found each other: they ran at the same time.
            #expect(sent[0]["content"]?[0]?["text"]?.stringValue == #"{"who":"a","met":true}"#)
            #expect(sent[1]["content"]?[0]?["text"]?.stringValue == #"{"who":"b","met":true}"#)
            #expect(sent[2]["content"]?.stringValue == "the weather service is down")
            #expect(sent[3]["content"]?.stringValue?.contains("does not match") == true)
            #expect(sent[4]["content"]?.stringValue?.contains("did not run") == true)
            #expect(sent[5]["content"]?.stringValue?.contains("no tool named 'nowhere'") == true)
            #expect(sent[6]["content"]?.stringValue == "42")
            // After pause_turn the request ends with the paused assistant turn itself.
            let third = Array(bodies[2]["messages"]?.arrayValue ?? JSONArray())
            #expect(third.count == 4)
            #expect(third.last?["role"]?.stringValue == "assistant")
            #expect(third.last?["content"]?[0]?["text"]?.stringValue == "Still working")

            let transcript = session.transcript
            #expect(transcript.responses.count == 3)
            #expect(transcript.toolCalls.count == 7)
            #expect(transcript.entries.filter { if case .toolOutput = $0 { true } else { false } }.count == 7)
            #expect(transcript.pendingToolCalls.isEmpty)
            #expect(transcript.usageByModel["claude-opus-5"] == TokenUsage(inputTokens: 20, outputTokens: 10))
            #expect(transcript.usageByModel["claude-sonnet-5"] == TokenUsage(inputTokens: 10, outputTokens: 7))
            #expect(transcript.responses[0].requestID == "req_script_1")
            #expect(transcript.responses[0].segments.first == .text("Let me check."))
        }
    }

    @Test func rateLimitAndDroppedStreamLeaveNoHalfTurn() async throws {
        try await withLoopbackServer { server in
            let hello = StreamScript().text("Hello!").end("end_turn")
            let long = StreamScript().text("This answer is cut ", "in the middle of a block").end("end_turn")
            let fine = StreamScript().text("Recovered").end("end_turn")
            try await server.script(
                "faults",
                [
                    .stream(hello),
                    .status(429, #"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#, headers: ["retry-after": "3"]),
                    .dropped(long, after: long.utf8.count / 2),
                    .stream(fine),
                ])
            let session = ClaudeSession(model: .opus5, transport: server.client("faults"))
            _ = try await session.respond(to: "Hi")
            let before = session.transcript
            do throws(SessionError) {
                _ = try await session.respond(to: "second")
                Issue.record("expected a 429")
            } catch {
                guard case .transport(let transport) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(transport.httpFailure?.status == 429)
                #expect(error.transcript == before)
            }
            do throws(SessionError) {
                _ = try await session.respond(to: "third")
                Issue.record("expected a dropped stream")
            } catch {
                guard case .transport = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(error.transcript == before)
            }
            #expect(session.transcript == before)
            _ = try await session.respond(to: "fourth")
            let last = try #require(try await server.bodies("faults").last)
            let messages = Array(last["messages"]?.arrayValue ?? JSONArray())
            // Only the complete exchange and the new prompt: no trace of the failed ones.
            #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user"])
            #expect(messages[2]["content"]?.compactJSON == #"[{"type":"text","text":"fourth"}]"#)
        }
    }

    @Test func cancellationDuringTheStreamClosesTheRequest() async throws {
        try await withLoopbackServer { server in
            let slow = StreamScript().text("a", "b", "c").end("end_turn")
            try await server.script("cancel-stream", [.stream(slow, pieces: 40, hold: 120)])
            let session = ClaudeSession(model: .opus5, transport: server.client("cancel-stream"))
            let stream = session.streamResponse(to: "go")
            let task = Task {
                var count = 0
                for try await _ in stream { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(300))
            let clock = ContinuousClock()
            let began = clock.now
            task.cancel()
            let outcome = await task.result
            // The consumer is told it was cancelled, not that the response is done.
            guard case .failure(let failure) = outcome, let error = failure as? SessionError, case .cancelled = error.kind else {
                Issue.record("expected cancellation, got \(outcome)")
                return
            }
            // Ending the hold would take 120 s: the request was closed instead.
            // (Half the hold as the bound, so a loaded machine cannot fail it.)
            #expect(clock.now - began < .seconds(60))
            #expect(session.transcript.entries.isEmpty)
        }
    }
}
