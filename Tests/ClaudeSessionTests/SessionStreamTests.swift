import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import IncrementalJSON
import Synchronization
import Testing

// The session's stream on the in-process transport: every snapshot names
// its round; text deltas and block events cover every round, the final
// answer included; collect() gives the final response; and every way a
// call fails carries the partial response and says whether the prompt is
// in the transcript.

private let calling = StreamScript(id: "msg_1").text("Let me ", "add.").toolUse("toolu_1", "add", #"{"a":1,"b":2}"#).end("tool_use")
private let answer = StreamScript(id: "msg_2").text("The sum ", "is ", "3.").end("end_turn")

private func session(_ answers: [FakeAnswer], _ configuration: SessionConfiguration = SessionConfiguration()) -> (ClaudeSession, FakeTransport) {
    let transport = FakeTransport(answers)
    return (ClaudeSession(setup: testSetup(), tools: [CountingTool(counter: CallCounter())], configuration: configuration, transport: transport), transport)
}

@Suite struct SessionStreamTests {
    @Test func textDeltasCoverEveryRoundAndTheFinalAnswer() async throws {
        for pieces in [1, 2, 7, 40] {
            let (session, _) = session([.stream(calling, pieces: pieces), .stream(answer, pieces: pieces)])
            var text = ""
            for try await piece in session.streamResponse(to: "Add").textDeltas { text += piece }
            #expect(text == "Let me add.The sum is 3.", "pieces \(pieces)")
        }
    }

    @Test func theMessageLevelHelpersOverTheMappedStreamCoverEveryRoundToo() async throws {
        // The obvious spelling: the session's messages through the helpers of
        // any snapshot sequence. Each round is a message of its own.
        for pieces in [1, 2, 7, 40] {
            let (first, _) = session([.stream(calling, pieces: pieces), .stream(answer, pieces: pieces)])
            var text = ""
            for try await piece in first.streamResponse(to: "Add").map(\.message).textDeltas { text += piece }
            #expect(text == "Let me add.The sum is 3.", "pieces \(pieces)")

            let (second, _) = session([.stream(calling, pieces: pieces), .stream(answer, pieces: pieces)])
            var started: [String] = []
            var stops: [String?] = []
            for try await event in second.streamResponse(to: "Add").map(\.message).blockEvents {
                if case .blockStarted(_, let type) = event { started.append(type) }
                if case .messageStopped(let reason) = event { stops.append(reason) }
            }
            #expect(started == ["text", "tool_use", "text"], "pieces \(pieces)")
            #expect(stops == ["tool_use", "end_turn"], "pieces \(pieces)")
        }
    }

    @Test func blockEventsStopEachRoundAndSnapshotsNameTheirRound() async throws {
        let (first, _) = session([.stream(calling, pieces: 5), .stream(answer, pieces: 5)])
        var stops: [String?] = []
        var started: [String] = []
        for try await event in first.streamResponse(to: "Add").blockEvents {
            if case .messageStopped(let reason) = event { stops.append(reason) }
            if case .blockStarted(_, let type) = event { started.append(type) }
        }
        #expect(stops == ["tool_use", "end_turn"])
        #expect(started == ["text", "tool_use", "text"])

        let (second, _) = session([.stream(calling, pieces: 5), .stream(answer, pieces: 5)])
        var rounds: [Int] = []
        var iterator = second.streamResponse(to: "Add").makeAsyncIterator()
        while let snapshot = try await iterator.next() {
            if rounds.last != snapshot.round { rounds.append(snapshot.round) }
            #expect(second.isResponding)
        }
        #expect(rounds == [0, 1])
        #expect(iterator.response?.text == "The sum is 3.")
        #expect(iterator.response?.requests == 2)
        #expect(!second.isResponding)
    }

    @Test func collectGivesTheFinalResponse() async throws {
        let (session, transport) = session([.stream(calling), .stream(answer)])
        let response = try await session.streamResponse(to: "Add").collect()
        #expect(response.text == "The sum is 3.")
        #expect(response.transcript.responses.count == 2)
        #expect(transport.requests.count == 2)
    }

    @Test func structuredCollectDecodesOrSaysWhy() async throws {
        struct Sum: StructuredResponse {
            struct Partial: Decodable, Sendable { var sum: Int? }
            var sum: Int
            static var outputSchema: JSONValue { JSONSchema.object([.init("sum", .integer())]).jsonValue }
        }
        let good = StreamScript().text(#"{"sum":"#, "3}").end("end_turn")
        let (first, transport) = session([.stream(good)])
        #expect(try await first.streamResponse(to: "Sum", generating: Sum.self).collect().sum == 3)
        #expect(transport.bodies[0]["output_config"]?["format"]?["schema"] == Sum.outputSchema)

        let bad = StreamScript().text(#"{"total":3}"#).end("end_turn")
        let (second, _) = session([.stream(bad)])
        do throws(SessionError) {
            _ = try await second.streamResponse(to: "Sum", generating: Sum.self).collect()
            Issue.record("decoded an answer without its field")
        } catch {
            guard case .structuredOutput(let why) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect("\(why)".contains("sum"))
            #expect(error.promptInTranscript)
        }
    }

    @Test func aFailureBeforeTheFirstResponseLeavesThePromptOutAndSaysSo() async throws {
        let limited = TransportError.network("429-like refusal before any byte")
        let (session, _) = session([.failure(limited), .stream(answer)])
        do throws(SessionError) {
            _ = try await session.respond(to: "Add")
            Issue.record("expected the failure")
        } catch {
            guard case .transport = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(error.promptInTranscript == false)
            #expect(error.partial == nil)
            #expect(error.round == 0)
            #expect(error.transcript.entries.isEmpty)
        }
    }

    @Test func aDroppedStreamInALaterRoundCarriesItsPartialResponse() async throws {
        let (session, _) = session([.stream(calling), .dropped(answer, after: answer.utf8.count * 2 / 3)])
        do throws(SessionError) {
            for try await _ in session.streamResponse(to: "Add") {}
            Issue.record("expected the drop")
        } catch {
            guard case .transport(.connectionLost) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(error.promptInTranscript)
            #expect(error.round == 1)
            #expect(error.partial?.text.hasPrefix("The sum") == true)
            // The first round is kept whole; the broken one is not in it.
            #expect(error.transcript.responses.count == 1)
            #expect(error.transcript.pendingToolCalls.isEmpty)
        }
    }

    @Test func cancellationMidStreamCarriesThePartialResponse() async throws {
        let (session, _) = session([.hang(answer)])
        let task = Task { try await session.respond(to: "Wait") }
        for _ in 0..<200 where !session.isResponding { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let outcome = await task.result
        guard case .failure(let failure) = outcome, let error = failure as? SessionError, case .cancelled = error.kind else {
            Issue.record("expected cancellation, got \(outcome)")
            return
        }
        #expect(error.partial?.text.isEmpty == false)
        #expect(error.promptInTranscript == false)
        #expect(session.transcript.entries.isEmpty)
    }

    @Test func aRequestBreakingTheToolRulesIsRefusedBeforeTraffic() async throws {
        // A hand-trimmed history that opens with an orphan tool_result.
        let body =
            #"{"model":"claude-opus-5","max_tokens":100,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_gone","content":"4"}]}]}"#
        do throws(TranscriptError) {
            _ = try SessionTranscript(jsonBytes: Array(body.utf8))
            Issue.record("read a history that opens with an orphan tool_result")
        } catch {
            #expect(error.kind == .breaksToolRules(.orphanToolResult(toolUseID: "toolu_gone", turn: 0)))
        }
        // The same messages given to a session directly are refused at the send, naming the turn.
        let transport = FakeTransport([.stream(answer)])
        let session = ClaudeSession(setup: testSetup(), transport: transport)
        do throws(SessionError) {
            _ = try await session.respond(to: [.toolResult(ToolResult(toolUseID: "toolu_gone", content: .text("4")))])
            Issue.record("sent an orphan tool_result")
        } catch {
            guard case .invalidRequest(.orphanToolResult("toolu_gone", 0)) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(error.promptInTranscript == false)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func countTokensCountsTheNextRequest() async throws {
        let (session, _) = session([.stream(answer)])
        #expect(try await session.countTokens(prompt: [.text("How long?")]).inputTokens == 10)
        let plain = ClaudeSession(setup: testSetup(), transport: PlainTransport())
        do throws(SessionError) {
            _ = try await plain.countTokens(prompt: [.text("x")])
            Issue.record("counted without a counting transport")
        } catch {
            guard case .tokenCountingUnsupported = error.kind else {
                Issue.record("\(error)")
                return
            }
        }
    }
}

/// A transport that streams but cannot count.
private struct PlainTransport: MessageStreaming {
    func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        throw .network("not used")
    }
}
