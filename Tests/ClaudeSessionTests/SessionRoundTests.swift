import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import IncrementalJSON
import Synchronization
import Testing

// Rounds under the caller's control, on the in-process transport: the hook
// sees each round's calls and runs, denies, stops or adds; pending calls run
// only through resume(); a new prompt answers them as not run (or is
// refused), never re-running a tool; every complete round is reported with
// the transcript to save; nextRequest is always a request the API accepts.

/// Counts its calls, so a test can tell whether a tool ran again.
final class CallCounter: Sendable {
    let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
}

struct CountingTool: ClientTool {
    struct Arguments: Decodable, Sendable {
        var a: Int
        var b: Int
    }
    let counter: CallCounter
    var name: String { "add" }
    var description: String { "Adds two integers" }
    var inputSchema: JSONValue { JSONSchema.object([.init("a", .integer()), .init("b", .integer())]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        counter.count.withLock { $0 += 1 }
        return .text("\(arguments.a + arguments.b)")
    }
}

/// Notes every round the session reports.
final class RoundLog: Sendable {
    let rounds = Mutex<[CompletedRound]>([])
    let asked = Mutex<[ToolRound]>([])
    var completed: [CompletedRound] { rounds.withLock { $0 } }
}

private let twoCalls = StreamScript(id: "msg_calls")
    .toolUse("toolu_1", "add", #"{"a":1,"b":2}"#)
    .toolUse("toolu_2", "add", #"{"a":3,"b":4}"#)
    .end("tool_use")
private let done = StreamScript(id: "msg_done").text("Done.").end("end_turn")

@Suite struct SessionRoundTests {
    @Test func theHookDeniesOneCallAndAddsContent() async throws {
        let counter = CallCounter()
        let log = RoundLog()
        let transport = FakeTransport([.stream(twoCalls), .stream(done)])
        let configuration = SessionConfiguration(
            onToolCalls: { round in
                log.asked.withLock { $0.append(round) }
                return .deny("toolu_2", reason: "not allowed today").adding([.text("Be quick.")])
            },
            onRoundCompleted: { round in log.rounds.withLock { $0.append(round) } })
        let session = ClaudeSession(setup: testSetup(), tools: [CountingTool(counter: counter)], configuration: configuration, transport: transport)
        let response = try await session.respond(to: "Add")
        #expect(response.text == "Done.")
        #expect(counter.value == 1)
        let asked = log.asked.withLock { $0 }
        #expect(asked.map(\.calls.count) == [2])
        #expect(asked.first?.round == 0)
        let sent = lastTurnBlocks(transport.bodies[1])
        #expect(sent.map { $0["type"]?.stringValue } == ["tool_result", "tool_result", "text"])
        #expect(sent[0]["content"]?.stringValue == "3")
        #expect(sent[1]["is_error"]?.boolValue == true)
        #expect(sent[1]["content"]?.stringValue == "the call was denied: not allowed today")
        #expect(sent[2]["text"]?.stringValue == "Be quick.")
        // Both rounds reported, each with the transcript as it then stood.
        let rounds = log.completed
        #expect(rounds.map(\.round) == [0, 1])
        #expect(rounds.map(\.isLast) == [false, true])
        #expect(rounds[0].toolOutputs.map(\.toolUseID) == ["toolu_1", "toolu_2"])
        #expect(rounds[0].transcript.responses.count == 1)
        #expect(rounds[1].transcript == session.transcript)
    }

    @Test func stoppingLeavesCallsPendingAndResumeRunsThem() async throws {
        let counter = CallCounter()
        let stop = Mutex(true)
        let transport = FakeTransport([.stream(twoCalls), .stream(done)])
        let configuration = SessionConfiguration(onToolCalls: { _ in stop.withLock { $0 } ? .stop : .run })
        let session = ClaudeSession(setup: testSetup(), tools: [CountingTool(counter: counter)], configuration: configuration, transport: transport)
        let stopped = try await session.respond(to: "Add")
        #expect(stopped.pendingToolCalls.map(\.id) == ["toolu_1", "toolu_2"])
        #expect(counter.value == 0)
        #expect(session.transcript.pendingToolCalls.map(\.id) == ["toolu_1", "toolu_2"])
        // With calls pending, the next request cannot be built without running them.
        #expect(throws: SessionError.self) { try session.nextRequest() }
        stop.withLock { $0 = false }
        let resumed = try await session.resume()
        #expect(resumed.text == "Done.")
        #expect(counter.value == 2)
        #expect(lastTurnBlocks(transport.bodies[1]).map { $0["content"]?.stringValue } == ["3", "7"])
    }

    @Test func aNewPromptAnswersPendingCallsAsNotRunAndNeverRunsThem() async throws {
        let counter = CallCounter()
        let transport = FakeTransport([.stream(twoCalls), .stream(done)])
        let session = ClaudeSession(
            setup: testSetup(), tools: [CountingTool(counter: counter)],
            configuration: SessionConfiguration(maxTurns: 1), transport: transport)
        await #expect(throws: SessionError.self) { try await session.respond(to: "Add") }
        #expect(counter.value == 0)
        // The request a prompt would send is valid: the calls are answered as not run.
        let next = try session.nextRequest(prompt: [.text("Never mind")])
        #expect(throws: Never.self) { try RequestEncoder.validate(next) }
        _ = try await session.respond(to: "Never mind")
        #expect(counter.value == 0)
        let sent = lastTurnBlocks(transport.bodies[1])
        #expect(sent.map { $0["type"]?.stringValue } == ["tool_result", "tool_result", "text"])
        #expect(sent.allSatisfy { $0["type"]?.stringValue == "text" || $0["is_error"]?.boolValue == true })
        #expect(sent[0]["content"]?.stringValue?.contains("not run") == true)
    }

    @Test func underTheRefusePolicyAPromptWithPendingCallsThrows() async throws {
        let transport = FakeTransport([.stream(twoCalls)])
        let session = ClaudeSession(
            setup: testSetup(), tools: [CountingTool(counter: CallCounter())],
            configuration: SessionConfiguration(pendingCalls: .refuse, onToolCalls: { _ in .stop }),
            transport: transport)
        _ = try await session.respond(to: "Add")
        do throws(SessionError) {
            _ = try await session.respond(to: "Something else")
            Issue.record("a prompt went out with calls pending")
        } catch {
            guard case .pendingToolCalls(let calls) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(calls.map(\.id) == ["toolu_1", "toolu_2"])
            #expect(error.promptInTranscript == false)
        }
        #expect(transport.requests.count == 1)
        // Dropping them answers each as not run; then a prompt may follow.
        #expect(try session.answerPendingCalls(reason: "dropped by the user").count == 2)
        #expect(session.transcript.pendingToolCalls.isEmpty)
        let next = try session.nextRequest(prompt: [.text("Something else")])
        #expect(next.messages.count == 3)
    }

    @Test func turnLimitReportsTheRoundBeforeThrowing() async throws {
        let log = RoundLog()
        let transport = FakeTransport([.stream(twoCalls)])
        let session = ClaudeSession(
            setup: testSetup(), tools: [CountingTool(counter: CallCounter())],
            configuration: SessionConfiguration(maxTurns: 1, onRoundCompleted: { round in log.rounds.withLock { $0.append(round) } }),
            transport: transport)
        do throws(SessionError) {
            _ = try await session.respond(to: "Add")
            Issue.record("expected the turn limit")
        } catch {
            guard case .turnLimitReached(let turns, let pending) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(turns == 1)
            #expect(pending.count == 2)
            #expect(error.promptInTranscript)
        }
        #expect(log.completed.map(\.pendingCalls.count) == [2])
        #expect(log.completed.first?.isLast == true)
    }

    @Test func atMostMaxConcurrentToolsRunAtOnce() async throws {
        final class Box: Sendable { let running = Mutex((now: 0, most: 0)) }
        let box = Box()
        var script = StreamScript()
        for index in 0..<9 { script = script.toolUse("toolu_\(index)", "gauge", "{}") }
        let transport = FakeTransport([.stream(script.end("tool_use")), .stream(done)])
        struct Shared: ClientTool {
            struct Arguments: Decodable, Sendable {}
            let box: Box
            var name: String { "gauge" }
            var description: String { "Notes how many run at once" }
            var inputSchema: JSONValue { JSONSchema.object([]).jsonValue }
            func call(_ arguments: Arguments) async throws -> ToolOutput {
                box.running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                try await Task.sleep(for: .milliseconds(30))
                box.running.withLock { $0.now -= 1 }
                return .text("ok")
            }
        }
        let session = ClaudeSession(
            setup: testSetup(), tools: [Shared(box: box)],
            configuration: SessionConfiguration(maxConcurrentTools: 3), transport: transport)
        _ = try await session.respond(to: "Go")
        let most = box.running.withLock { $0.most }
        #expect(most <= 3)
        #expect(most >= 2)  // they do run side by side
        #expect(lastTurnBlocks(transport.bodies[1]).count == 9)
    }

    @Test func toolDefinitionsFromTheSetupWinOverTheToolsOwn() async throws {
        let given = ToolDefinition.client(
            ClientToolDefinition(name: "add", description: "from the file", inputSchemaJSON: .object([("type", .string("object"))])))
        var setup = testSetup()
        setup.tools = [given]
        let transport = FakeTransport([.stream(done)])
        let session = ClaudeSession(setup: setup, tools: [CountingTool(counter: CallCounter()), Weather()], transport: transport)
        _ = try await session.respond(to: "Hi")
        let tools = Array(transport.bodies[0]["tools"]?.arrayValue ?? JSONArray())
        #expect(tools.map { $0["name"]?.stringValue } == ["add", "weather"])
        #expect(tools[0]["description"]?.stringValue == "from the file")
        #expect(session.toolNames == ["add", "weather"])
    }
}

/// Answers with the id and name of the call it runs, as the session tells it.
private struct WhoAmITool: ClientTool {
    struct Arguments: Decodable, Sendable {}
    var name: String { "whoami" }
    var description: String { "Says which call it is" }
    var inputSchema: JSONValue { JSONSchema.object([]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        let call = ClientToolCall.current
        return .text("\(call?.id ?? "none") \(call?.name ?? "none")")
    }
}

@Suite struct ClientToolCallTests {
    @Test func aToolLearnsTheCallItRuns() async throws {
        let calls = StreamScript(id: "msg_calls").toolUse("toolu_a", "whoami", "{}").toolUse("toolu_b", "whoami", "{}").end("tool_use")
        let transport = FakeTransport([.stream(calls), .stream(done)])
        let session = ClaudeSession(setup: testSetup(), tools: [WhoAmITool()], transport: transport)
        _ = try await session.respond(to: "Who?")
        let results = Array(transport.bodies.last?["messages"]?.arrayValue?.last?["content"]?.arrayValue ?? JSONArray())
        #expect(results.map { $0["content"]?.stringValue } == ["toolu_a whoami", "toolu_b whoami"])
        #expect(ClientToolCall.current == nil)
    }
}
