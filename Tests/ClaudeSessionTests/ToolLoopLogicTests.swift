import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import IncrementalJSON
import Synchronization
import Testing

// The loop's limits on the in-process transport: the turn limit stops a
// runaway loop (at tool calls and at pause_turn) and resume() goes on; a
// cancellation during a tool keeps the response and leaves its call
// pending; a second call while one runs is refused; the transcript's own
// guard refuses a tool output that answers nothing; a setup that cannot be
// written is a typed error.

@Suite struct ToolLoopLogicTests {
    @Test func turnLimitStopsWithPendingCallsAndResumes() async throws {
        let call = StreamScript().toolUse("toolu_1", "add", #"{"a":1,"b":1}"#).end("tool_use")
        let call2 = StreamScript().toolUse("toolu_2", "add", #"{"a":2,"b":2}"#).end("tool_use")
        let done = StreamScript().text("done").end("end_turn")
        let transport = FakeTransport([.stream(call), .stream(call2), .stream(done)])
        let session = ClaudeSession(model: .opus5, tools: [AddTool()], configuration: SessionConfiguration(maxTurns: 2), transport: transport)
        do throws(SessionError) {
            _ = try await session.respond(to: "count")
            Issue.record("expected the turn limit")
        } catch {
            guard case .turnLimitReached(let turns, let pending) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(turns == 2)
            #expect(pending.map(\.id) == ["toolu_2"])
            #expect(error.transcript.responses.count == 2)
            #expect(error.transcript.pendingToolCalls.map(\.id) == ["toolu_2"])
        }
        #expect(transport.requests.count == 2)
        // Resuming answers the pending call before anything else.
        let response = try await session.resume()
        #expect(response.text == "done")
        let sent = lastTurnBlocks(transport.bodies[2])
        #expect(sent.map { $0["tool_use_id"]?.stringValue } == ["toolu_2"])
        #expect(sent.first?["content"]?.stringValue == "4")
    }

    @Test func turnLimitAtPauseTurnAndResume() async throws {
        let paused = StreamScript().text("Working").end("pause_turn")
        let done = StreamScript().text("done").end("end_turn")
        let transport = FakeTransport([.stream(paused), .stream(done)])
        let session = ClaudeSession(model: .opus5, configuration: SessionConfiguration(maxTurns: 1), transport: transport)
        do throws(SessionError) {
            _ = try await session.respond(to: "go")
            Issue.record("expected the turn limit")
        } catch {
            guard case .turnLimitReached(1, let pending) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(pending.isEmpty)
            #expect(error.promptInTranscript)
        }
        #expect(try await session.resume().text == "done")
        // The continuation sends the paused turn back as the last message.
        #expect(transport.bodies[1]["messages"]?.arrayValue?.last?["role"]?.stringValue == "assistant")
    }

    @Test func cancellationDuringAToolCall() async throws {
        let call = StreamScript().toolUse("toolu_x", "block", "{}").end("tool_use")
        let transport = FakeTransport([.stream(call)])
        let started = Rendezvous()
        let session = ClaudeSession(model: .opus5, tools: [BlockingTool(started: started)], transport: transport)
        let task = Task { try await session.respond(to: "go") }
        for _ in 0..<500 where started.arrived.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(started.arrived.withLock { $0 } == 1)
        task.cancel()
        let outcome = await task.result
        guard case .failure(let failure) = outcome, let error = failure as? SessionError, case .cancelled = error.kind else {
            Issue.record("expected cancellation, got \(outcome)")
            return
        }
        // The response is kept, the interrupted round is not: its call is pending.
        #expect(error.transcript.responses.count == 1)
        #expect(error.transcript.pendingToolCalls.map(\.id) == ["toolu_x"])
        #expect(error.promptInTranscript)
        #expect(transport.requests.count == 1)
    }

    @Test func aSecondCallWhileOneRunsIsRefused() async throws {
        let slow = StreamScript().text("a", "b").end("end_turn")
        let session = ClaudeSession(model: .opus5, transport: FakeTransport([.hang(slow)]))
        let first = Task { try await session.respond(to: "one") }
        for _ in 0..<500 where !session.isResponding { try await Task.sleep(for: .milliseconds(2)) }
        do throws(SessionError) {
            _ = try await session.respond(to: "two")
            Issue.record("a second call ran beside the first")
        } catch {
            guard case .busy = error.kind else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(throws: SessionError.self) { try session.answerPendingCalls(reason: "busy") }
        first.cancel()
        _ = await first.result
        #expect(!session.isResponding)
        #expect(session.transcript.responses.isEmpty)
    }

    @Test func theTranscriptRefusesAnOutputThatAnswersNothing() throws {
        var transcript = SessionTranscript(setup: testSetup())
        transcript.appendPrompt([.text("hi")])
        do throws(TranscriptError) {
            try transcript.appendToolOutputs([ToolResult(toolUseID: "toolu_none", content: .text("x"))])
            Issue.record("added an output for no call")
        } catch {
            #expect(error.kind == .breaksToolRules(.orphanToolResult(toolUseID: "toolu_none", turn: 1)))
        }
        #expect(transcript.entries.count == 1)
    }

    @Test func aSetupThatCannotBeWrittenIsATypedError() {
        var setup = testSetup()
        setup.serverTools = [.webSearch(WebToolSettings(allowedDomains: ["a.example"], blockedDomains: ["b.example"]))]
        do throws(TranscriptError) {
            _ = try SessionTranscript(setup: setup).jsonBytes()
            Issue.record("wrote a setup the API refuses")
        } catch {
            #expect(error.kind == .unwritableSetup(.conflictingDomainFilters(.webSearch)))
        }
    }
}
