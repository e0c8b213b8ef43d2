import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

// A round whose stream broke after it began is sent again by the session,
// from the same retry budget as the client's own retries: against the
// scripted server, the number of requests, the request sent again (the
// same bytes), the waits by the server's clock, the restart announced to
// a streaming caller, the transcript untouched by the broken attempt, and
// no tool run twice.

private let fine = StreamScript().text("Recovered ", "in full").end("end_turn")
private let long = StreamScript().text("This answer is cut ", "in the middle of a block").end("end_turn")
private let longText = "This answer is cut in the middle of a block"

/// `long` up to its second text delta: the stream broke mid-block, after
/// the caller was shown `This answer is cut `.
private var broken: ScriptedAnswer {
    let secondDelta = long.components(separatedBy: "in the middle of a block").first ?? ""
    let cut = secondDelta.components(separatedBy: "event: content_block_delta").dropLast().joined(separator: "event: content_block_delta")
    return .dropped(long, after: cut.utf8.count)
}

/// A stream that began, then sent an `error` event of `type`.
private func errorEvent(_ type: String) -> ScriptedAnswer {
    let head =
        StreamFixture.Framed.messageStart("msg_err") + StreamFixture.Framed.start(0, #"{"type":"text","text":""}"#)
        + StreamFixture.Framed.text(0, "Half an ans")
    return .stream(head + StreamFixture.Framed.event(#"{"type":"error","error":{"type":"\#(type)","message":"scripted"}}"#))
}

/// A stream that ends cleanly, but before `message_stop`.
private var cut: ScriptedAnswer {
    .stream(StreamFixture.Framed.messageStart("msg_cut") + StreamFixture.Framed.start(0, #"{"type":"text","text":""}"#) + StreamFixture.Framed.text(0, "Cut"))
}

private final class Heard: Sendable {
    let retries = Mutex<[RetryAttempt]>([])
    let restarts = Mutex<[ResponseSnapshot]>([])
    let attempts = Mutex<[Int]>([])
    let rounds = Mutex<[SessionTranscript]>([])
}

private func session(
    _ server: LoopbackServer, _ id: String, tools: [any ClientTool] = [], maxRetries: Int = 2, heard: Heard
) -> ClaudeSession {
    let policy = RetryPolicy(
        maxRetries: maxRetries, baseDelay: 0.1, maxDelay: 0.4, jitter: 0,
        onRetry: { attempt in heard.retries.withLock { $0.append(attempt) } })
    return ClaudeSession(
        model: .opus5, tools: tools,
        configuration: SessionConfiguration(onRoundCompleted: { round in heard.rounds.withLock { $0.append(round.transcript) } }),
        transport: server.client(id, retryPolicy: policy))
}

/// Streams the response to `prompt`, recording attempts and restarts.
private func stream(_ session: ClaudeSession, _ prompt: String, _ heard: Heard) async throws(SessionError) -> SessionResponse {
    var iterator = session.streamResponse(to: prompt).makeAsyncIterator()
    while let snapshot = try await iterator.next() {
        heard.attempts.withLock { $0.append(snapshot.attempt) }
        if snapshot.restart != nil { heard.restarts.withLock { $0.append(snapshot) } }
    }
    guard let response = iterator.response else { throw SessionError(.cancelled, transcript: session.transcript) }
    return response
}

private final class CallCount: Sendable {
    let value = Mutex(0)
}

/// A tool that counts its calls.
private struct SharedCountingTool: ClientTool {
    struct Arguments: Decodable, Sendable { var city: String }
    let count: CallCount
    var name: String { "weather" }
    var description: String { "Weather" }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        count.value.withLock { $0 += 1 }
        return .text("sunny in \(arguments.city)")
    }
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct SessionRetryTests {
    @Test func aRoundWhoseStreamBrokeIsSentAgain() async throws {
        try await withLoopbackServer { server in
            try await server.script("dropped", [broken, .stream(fine)])
            let heard = Heard()
            let chat = session(server, "dropped", heard: heard)
            let response = try await stream(chat, "Hi", heard)
            #expect(response.text == "Recovered in full")
            #expect(response.requests == 1)
            // The same request twice, waited for as the policy says.
            let recorded = try await server.recorded("dropped")
            #expect(recorded.count == 2)
            #expect(recorded[0]["body"] == recorded[1]["body"])
            #expect(try await server.gaps("dropped").first ?? 0 >= 0.09)
            let retries = heard.retries.withLock { $0 }
            #expect(retries.map(\.retry) == [1])
            #expect(retries.first?.restartsStream == true)
            #expect(retries.first?.delay == 0.1)
            // The caller saw the restart: the partial it must clear, then attempt 1.
            let restarts = heard.restarts.withLock { $0 }
            #expect(restarts.count == 1)
            #expect(restarts.first?.attempt == 0)
            #expect(restarts.first?.restart?.retry == 1)
            let partial = try #require(restarts.first?.message)
            #expect(!partial.isComplete)
            #expect(!partial.text.isEmpty && longText.hasPrefix(partial.text), "\(partial.text)")
            #expect(heard.attempts.withLock { $0.last } == 1)
            // Only the complete answer is in the transcript.
            let transcript = chat.transcript
            #expect(transcript.responses.count == 1)
            #expect(transcript.responses.first?.snapshot.text == "Recovered in full")
            #expect(heard.rounds.withLock { $0.count } == 1)
        }
    }

    /// `textDeltas` cannot take text back: after a restart the round's text
    /// comes again from its start, as documented; the snapshots say when
    /// (`restart`), for a caller that must clear what it showed.
    @Test func textDeltasGiveTheNewAttemptsTextFromItsStart() async throws {
        try await withLoopbackServer { server in
            try await server.script("deltas", [errorEvent("overloaded_error"), .stream(fine)])
            let heard = Heard()
            var pieces: [String] = []
            var iterator = session(server, "deltas", heard: heard).streamResponse(to: "Hi").textDeltas.makeAsyncIterator()
            while let piece = try await iterator.next() { pieces.append(piece) }
            // (Pieces a slow reader has not taken yet come as one.)
            #expect(pieces.first == "Half an ans")
            #expect(pieces.joined() == "Half an ansRecovered in full")
            #expect(iterator.response?.text == "Recovered in full")
            #expect(try await server.recorded("deltas").count == 2)
        }
    }

    @Test(arguments: ["overloaded_error", "api_error", "rate_limit_error", "timeout_error"])
    func aTransientErrorEventRestartsTheRound(type: String) async throws {
        try await withLoopbackServer { server in
            try await server.script("event", [errorEvent(type), .stream(fine)])
            let heard = Heard()
            let response = try await session(server, "event", heard: heard).respond(to: "Hi")
            #expect(response.text == "Recovered in full")
            #expect(try await server.recorded("event").count == 2)
            guard case .stream(let error)? = heard.retries.withLock({ $0.first?.error }), case .apiError(let event) = error.kind else {
                Issue.record("expected the error event to be retried")
                return
            }
            #expect(event.type == type)
        }
    }

    @Test func aCutBeforeMessageStopRestartsTheRound() async throws {
        try await withLoopbackServer { server in
            try await server.script("cut", [cut, .stream(fine)])
            let heard = Heard()
            let response = try await session(server, "cut", heard: heard).respond(to: "Hi")
            #expect(response.text == "Recovered in full")
            #expect(try await server.recorded("cut").count == 2)
        }
    }

    @Test(arguments: ["invalid_request_error", "authentication_error", "billing_error"])
    func aFinalErrorEventIsNotRetried(type: String) async throws {
        try await withLoopbackServer { server in
            try await server.script("final", [errorEvent(type), .stream(fine)])
            let heard = Heard()
            let chat = session(server, "final", heard: heard)
            do throws(SessionError) {
                _ = try await chat.respond(to: "Hi")
                Issue.record("expected the \(type) event to end the call")
            } catch {
                guard case .transport(.stream(let stream)) = error.kind, case .apiError(let event) = stream.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(event.type == type)
                #expect(error.partial?.text == "Half an ans")
                #expect(error.transcript.responses.isEmpty)
            }
            #expect(try await server.recorded("final").count == 1)
            #expect(heard.retries.withLock { $0.isEmpty })
        }
    }

    @Test func theClientAndTheSessionShareOneBudget() async throws {
        try await withLoopbackServer { server in
            // A 529 (the client retries it), then two broken streams (the
            // session restarts the first): 2 retries in all, 3 requests.
            try await server.script("shared", [.apiError(529, "overloaded_error"), broken, broken, .stream(fine)])
            let heard = Heard()
            let chat = session(server, "shared", heard: heard)
            let before = chat.transcript
            do throws(SessionError) {
                _ = try await stream(chat, "Hi", heard)
                Issue.record("expected the budget to run out")
            } catch {
                guard case .transport(let transport) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(transport.brokeStream)
                #expect(error.transcript == before)
                #expect(error.promptInTranscript == false)
                #expect(error.partial.map { longText.hasPrefix($0.text) } == true)
            }
            #expect(try await server.recorded("shared").count == 3)
            let retries = heard.retries.withLock { $0 }
            #expect(retries.map(\.retry) == [1, 2])
            #expect(retries.map(\.restartsStream) == [false, true])
            #expect(chat.transcript == before)
            #expect(heard.rounds.withLock { $0.isEmpty })
            let gaps = try await server.gaps("shared")
            #expect(gaps.count == 2)
            #expect(gaps[0] >= 0.09)
            #expect(gaps[1] >= 0.19)
        }
    }

    @Test func noToolRunsTwice() async throws {
        try await withLoopbackServer { server in
            let call = StreamScript().toolUse("toolu_1", "weather", #"{"city":"Oslo"}"#).end("tool_use")
            let answer = StreamScript().text("Sunny, it says.").end("end_turn")
            try await server.script("tools", [.dropped(call, after: call.utf8.count - 40), .stream(call), .dropped(answer, after: 60), .stream(answer)])
            let heard = Heard()
            let count = CallCount()
            let chat = session(server, "tools", tools: [SharedCountingTool(count: count)], maxRetries: 3, heard: heard)
            let response = try await chat.respond(to: "Weather in Oslo?")
            #expect(response.text == "Sunny, it says.")
            #expect(response.requests == 2)
            #expect(count.value.withLock { $0 } == 1)
            let bodies = try await server.bodies("tools")
            #expect(bodies.count == 4)
            #expect(bodies[0] == bodies[1])
            #expect(bodies[2] == bodies[3])
            // The request after the tool round carries one result for one call.
            let messages = Array(bodies[3]["messages"]?.arrayValue ?? JSONArray())
            #expect(messages.count == 3)
            #expect(messages[2]["content"]?[0]?["type"]?.stringValue == "tool_result")
            #expect(messages[2]["content"]?.arrayValue?.count == 1)
            #expect(chat.transcript.responses.count == 2)
            #expect(heard.rounds.withLock { $0.count } == 2)
        }
    }

    @Test func restartsCanBeTurnedOff() async throws {
        try await withLoopbackServer { server in
            try await server.script("off", [broken, .stream(fine)])
            let policy = RetryPolicy(baseDelay: 0.05, restartsBrokenStreams: false)
            let chat = ClaudeSession(model: .opus5, transport: server.client("off", retryPolicy: policy))
            do throws(SessionError) {
                _ = try await chat.respond(to: "Hi")
                Issue.record("expected the broken stream to end the call")
            } catch {
                guard case .transport(let transport) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(transport.brokeStream)
            }
            #expect(try await server.recorded("off").count == 1)
        }
    }
}
