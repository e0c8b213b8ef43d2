// `claude-stream chat` run as a real process against the loopback server
// and the scripted server of the session tests: exit codes, the final
// message, the typed HTTP error on stderr, the key appearing nowhere in what
// it prints, the tool loop with shell commands, --max-turns, --transcript,
// --request, --tools, --tool-choice, and the bounds of numeric flags.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct ChatCommandTests {
    @Test func finalJSONOfAStreamedAnswer() async throws {
        try await withLoopbackServer { server in
            let run = try runChat(["Hello", "--final-json", "--base-url", server.url("echo").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            let line = try #require(run.stdout.split(separator: "\n").first)
            let message = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(message?["type"] as? String == "message")
            #expect((message?["content"] as? [Any])?.isEmpty == false)
            #expect(!run.stdout.contains(chatKey) && !run.stderr.contains(chatKey))
        }
    }

    @Test func httpFailureExitsTwoWithTheTypedError() async throws {
        try await withLoopbackServer { server in
            let run = try runChat(["Hello", "--retries", "0", "--base-url", server.url("fault/429").absoluteString])
            #expect(run.status == 2)
            #expect(run.stderr.contains("429"))
            #expect(run.stderr.contains("rate_limit_error"))
            #expect(run.stderr.contains("retry after 1"))
            #expect(!run.stdout.contains(chatKey) && !run.stderr.contains(chatKey))
        }
    }

    @Test func echoedKeyIsNeverPrinted() async throws {
        try await withLoopbackServer { server in
            let run = try runChat(["Hello", "--base-url", server.url("fault/401-echo").absoluteString])
            #expect(run.status == 2)
            #expect(!run.stdout.contains(chatKey) && !run.stderr.contains(chatKey), "\(run.stderr)")
        }
    }

    @Test func missingKeyFailsBeforeAnyTraffic() throws {
        let run = try runChat(["Hello", "--base-url", "http://127.0.0.1:9/"], key: nil)
        #expect(run.status == 2)
        #expect(run.stderr.contains("ANTHROPIC_API_KEY"), "\(run.stderr)")
    }
}

// MARK: The conversation loop

/// A first run that stops at `--max-turns 1` with its call `toolu_p` to
/// `echo` pending, saved in `transcript`; the server it returns ends the
/// turn at the next request.
private func runLeavingACallPending(transcript: String) throws -> ChatScript {
    let server = try ChatScript(oneCallThenText("echo", id: "toolu_p", input: #"{"n":1}"#))
    let first = try runChat(["Go", "--final-json", "--base-url", server.base, "--tool", "echo=cat", "--max-turns", "1", "--transcript", transcript])
    #expect(first.status == 4, "\(first.stderr)")
    return server
}

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"), .serialized)
struct ChatLoopTests {
    @Test func toolCommandsRunAndTheLoopContinues() throws {
        let server = try ChatScript([
            response(
                [
                    toolUse("toolu_1", "echo", #"{"city":"Paris"}"#), toolUse("toolu_2", "blocks", "{}"),
                    toolUse("toolu_3", "fail", "{}"), toolUse("toolu_4", "env", "{}"), toolUse("toolu_5", "bad", "{}"),
                ], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let run = try runChat([
            "Weather?", "--final-json", "--base-url", server.base,
            "--tool", "echo=cat", "--tool", "fail=echo broken; exit 3",
            "--tool-json", #"blocks=printf '[{"type":"text","text":"%s %s"}]' "$CLAUDE_TOOL_USE_ID" "$CLAUDE_TOOL_NAME""#,
            "--tool", #"env=printf '%s' "${ANTHROPIC_API_KEY:-none}""#, "--tool-json", "bad=echo not json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 2)
        let bodies = try server.bodies()
        #expect(bodies.count == 2)
        #expect(bodies.allSatisfy { $0["stream"]?.boolValue == true })
        let results = lastResults(bodies[1])
        #expect(results.map { $0["tool_use_id"]?.stringValue } == ["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5"])
        // --tool-json output that is not JSON is an error result, not a crash.
        #expect(results[4]["is_error"]?.boolValue == true)
        #expect(results[4]["content"]?.stringValue?.contains("not JSON") == true)
        #expect(results[0]["content"]?.stringValue == #"{"city":"Paris"}"#)
        #expect(results[0]["is_error"] == nil)
        #expect(results[1]["content"]?.compactJSON == #"[{"type":"text","text":"toolu_2 blocks"}]"#)
        #expect(results[2]["content"]?.stringValue?.hasPrefix("broken\n") == true)
        #expect(results[2]["content"]?.stringValue?.contains("status 3") == true)
        #expect(results[2]["is_error"]?.boolValue == true)
        // The tool runs without the API key in its environment.
        #expect(results[3]["content"]?.stringValue == "none")
        #expect(!run.stdout.contains(chatKey) && !run.stderr.contains(chatKey))
    }

    /// Without a PROMPT argument and with stdin not a terminal, the whole
    /// of stdin is the prompt, bytes as sent (over one read's worth here);
    /// an empty stdin is a usage error before any request.
    @Test func aPromptReadFromStdin() throws {
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let prompt = "Summarise: " + String(repeating: "é line\n", count: 40_000)
        let run = try runChat(["--final-json", "--base-url", server.base], stdin: prompt)
        #expect(run.status == 0, "\(run.stderr)")
        let sent = try #require(try server.bodies().first)
        let message = sent["messages"]?.arrayValue?.last
        let text = message?["content"]?.stringValue ?? message?["content"]?.arrayValue?.first?["text"]?.stringValue
        #expect(text == prompt)

        let empty = try runChat(["--base-url", server.base], stdin: " \n")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("missing PROMPT"), "\(empty.stderr)")
        #expect(try server.bodies().count == 1)
    }

    @Test func maxTurnsWithPendingCallsExitsFour() throws {
        let call = response([toolUse("toolu_1", "echo", "{}")], stop: "tool_use")
        let server = try ChatScript([call, call, call])
        let run = try runChat(["Loop", "--final-json", "--base-url", server.base, "--tool", "echo=cat", "--max-turns", "2"])
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains("--max-turns"))
        #expect(try server.bodies().count == 2)
    }

    /// A new prompt never re-runs tools silently: calls left pending by an
    /// earlier run are answered as not run, and the prompt follows.
    @Test func aNewPromptAnswersCallsLeftPendingAsNotRun() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.file("chat.json")
        let server = try runLeavingACallPending(transcript: file)
        let second = try runChat(["Next", "--final-json", "--base-url", server.base, "--tool", "echo=cat", "--transcript", file])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("answered as not run"), "\(second.stderr)")
        let last = try #require(try server.bodies().last)
        let content = Array(last["messages"]?.arrayValue?.last?["content"]?.arrayValue ?? JSONArray())
        #expect(content.map { $0["type"]?.stringValue } == ["tool_result", "text"])
        #expect(content.first?["tool_use_id"]?.stringValue == "toolu_p")
        #expect(content.first?["is_error"]?.boolValue == true)
        #expect(content.first?["content"]?.stringValue?.contains("not run") == true)
    }

    /// Without a prompt, chat resumes: the pending calls run, then the loop goes on.
    @Test func resumingWithoutAPromptRunsThePendingCalls() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.file("chat.json")
        let server = try runLeavingACallPending(transcript: file)
        let second = try runChat(["--final-json", "--base-url", server.base, "--tool", "echo=cat", "--transcript", file])
        #expect(second.status == 0, "\(second.stderr)")
        let content = lastResults(try #require(try server.bodies().last))
        #expect(content.map { $0["type"]?.stringValue } == ["tool_result"])
        #expect(content.first?["content"]?.stringValue == #"{"n":1}"#)
    }

    @Test(.enabled(if: TerminalRun.available, "needs script(1) for a terminal"))
    func interactiveChatKeepsTheConversationBetweenLines() throws {
        let server = try ChatScript([response([textBlock], stop: "end_turn"), response([textBlock], stop: "end_turn")])
        guard let chatExecutable else { return }
        var environment = ProcessInfo.processInfo.environment
        environment["ANTHROPIC_API_KEY"] = chatKey
        let terminal = try TerminalRun("'\(chatExecutable.path)' chat --final-json --base-url '\(server.base)'", environment: environment)
        for line in ["Hello\n", "Again\n"] {
            try terminal.type(line)
            var waited = 0
            while try server.bodies().count < (line == "Hello\n" ? 1 : 2), waited < 300 {
                Thread.sleep(forTimeInterval: 0.02)
                waited += 1
            }
        }
        try terminal.type("\n")  // an empty line ends the chat
        let (status, bytes) = try terminal.finish()
        let printed = String(decoding: bytes, as: UTF8.self)
        #expect(status == 0, "\(printed)")
        let bodies = try server.bodies()
        #expect(bodies.count == 2)
        let messages = Array(bodies.last?["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user"])
        #expect(messages.last?["content"]?[0]?["text"]?.stringValue == "Again")
        #expect(!printed.contains(chatKey))
    }

    @Test func aToolWithoutACommandStopsTheLoop() throws {
        let server = try ChatScript(oneCallThenText("unknown"))
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base, "--tool", "echo=cat"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.bodies().count == 1)
    }

    @Test func pauseTurnIsContinued() throws {
        let server = try ChatScript([response([#"{"type":"text","text":"Working"}"#], stop: "pause_turn"), response([textBlock], stop: "end_turn")])
        let run = try runChat(["Search", "--final-json", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        let bodies = try server.bodies()
        #expect(bodies.count == 2)
        #expect(bodies[1]["messages"]?.arrayValue?.last?["role"]?.stringValue == "assistant")
        #expect(bodies[1]["messages"]?.arrayValue?.count == 2)
    }

    @Test func transcriptCarriesTheConversationAcrossRuns() throws {
        let opaque = #"{"type":"thinking","thinking":"hm","signature":"Sig/+=="}"#
        let server = try ChatScript([response([opaque, textBlock], stop: "end_turn"), response([textBlock], stop: "end_turn")])
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.file("chat.json")
        let first = try runChat(["Hello", "--final-json", "--base-url", server.base, "--transcript", file, "--system", "Be brief"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runChat(["Again", "--final-json", "--base-url", server.base, "--transcript", file])
        #expect(second.status == 0, "\(second.stderr)")
        let bodies = try server.bodies()
        let messages = Array(bodies[1]["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user"])
        #expect(messages[1]["content"]?.compactJSON == "[\(opaque),\(textBlock)]")
        #expect(bodies[1]["system"]?.stringValue == "Be brief")
        let saved = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(saved["messages"]?.arrayValue?.count == 4)
        #expect(saved["stream"] == nil)
    }

    @Test func requestFileToolsAndToolChoiceAreSentAsGiven() throws {
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let folder = FileManager.default.temporaryDirectory
        let request = folder.appendingPathComponent("req-\(UUID().uuidString).json")
        let tools = folder.appendingPathComponent("tools-\(UUID().uuidString).json")
        defer {
            try? FileManager.default.removeItem(at: request)
            try? FileManager.default.removeItem(at: tools)
        }
        try Data(#"{"model":"claude-x-custom","max_tokens":77,"temperature":0.30,"x_future":{"a":1.50},"messages":[{"role":"user","content":"first"}]}"#.utf8)
            .write(to: request)
        try Data(#"[{"type":"text_editor_20250728","name":"str_replace_based_edit_tool"},{"name":"get","input_schema":{"type":"object"}}]"#.utf8).write(
            to: tools)
        let run = try runChat([
            "second", "--final-json", "--base-url", server.base, "--request", request.path,
            "--tools", tools.path, "--tool-choice", "tool:get",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let body = try #require(try server.bodies().first)
        #expect(body["model"]?.stringValue == "claude-x-custom")
        #expect(body["max_tokens"]?.compactJSON == "77")
        #expect(body["temperature"]?.compactJSON == "0.30")
        #expect(body["x_future"]?.compactJSON == #"{"a":1.50}"#)
        #expect(body["tools"]?.arrayValue?.count == 2)
        #expect(body["tools"]?[0]?["type"]?.stringValue == "text_editor_20250728")
        #expect(body["tool_choice"]?.compactJSON == #"{"type":"tool","name":"get"}"#)
        #expect(body["messages"]?.compactJSON == #"[{"role":"user","content":[{"type":"text","text":"first"},{"type":"text","text":"second"}]}]"#)
    }

    @Test func overallTimeoutEndsATrickle() throws {
        var trickle = response([textBlock], stop: "end_turn")
        trickle["pieces"] = 1
        trickle["interval"] = 1.0
        let server = try ChatScript([trickle])
        let clock = ContinuousClock()
        let began = clock.now
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base, "--timeout", "2"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("timeout") || run.stderr.contains("timed out"), "\(run.stderr)")
        #expect(clock.now - began < .seconds(20))
    }
}

@Suite(.enabled(if: chatExecutable != nil, "needs the built claude-stream"))
struct ChatFlagTests {
    @Test(arguments: ["--max-turns", "--max-tokens", "--timeout"])
    func badNumbersAreUsageErrors(flag: String) throws {
        for value in ["0", "-1", "99999999999999999999999", "NaN", "nan", "inf", "-inf", "1e308", "abc", ""] {
            let run = try runChat(["Hi", flag, value, "--base-url", "http://127.0.0.1:9/"])
            #expect(run.status == 64, "\(flag) \(value): \(run.stderr)")
            #expect(run.stderr.contains(flag), "\(flag) \(value): \(run.stderr)")
        }
        let huge = try runChat(["Hi", flag, "100000000", "--base-url", "http://127.0.0.1:9/"])
        #expect(huge.status == 64)
    }

    @Test func badRetryCountsAreUsageErrors() throws {
        for value in ["-1", "101", "99999999999999999999999", "NaN", "inf", "1.5", "abc", ""] {
            let run = try runChat(["Hi", "--retries", value, "--base-url", "http://127.0.0.1:9/"])
            #expect(run.status == 64, "--retries \(value): \(run.stderr)")
            #expect(run.stderr.contains("--retries"), "--retries \(value): \(run.stderr)")
        }
    }

    @Test func badCloudFlagsAreUsageErrors() throws {
        for arguments in [["--vertex", "proj"], ["--vertex", "/us"], ["--vertex", "proj/"], ["--vertex", "a/b/c"], ["--bedrock", ""]] {
            let run = try runChat(["Hi"] + arguments, environment: ["CLOUDSDK_AUTH_ACCESS_TOKEN": "t", "AWS_BEARER_TOKEN_BEDROCK": "k"])
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(arguments[0]), "\(arguments): \(run.stderr)")
        }
    }

    @Test func badToolSpecsAreUsageErrors() throws {
        for arguments in [
            ["--tool", "noequals"], ["--tool", "=cmd"], ["--tool", "a="], ["--tool-choice", "maybe"],
            ["--tool", "a=x", "--tool-json", "a=y"],
        ] {
            let run = try runChat(["Hi"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
    }

    @Test func noPromptAndNothingOnStdinIsAUsageError() throws {
        let run = try runChat(["--base-url", "http://127.0.0.1:9/"])
        #expect(run.status == 64, "\(run.stderr)")
    }
}
