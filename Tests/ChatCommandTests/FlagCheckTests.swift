// Flags of `chat` the API would refuse are usage errors before any
// traffic (the base URL points at a closed port: reaching it would exit
// 2), `--tool NAME=COMMAND` declares its tool, and `--help` explains every
// flag.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct FlagCheckTests {
    @Test(arguments: [
        ["--effort", "ultra"],
        ["--model", "claude-haiku-4-5", "--effort", "high"],
        ["--tool-choice", "tool:nosuch"],
        ["--tool", "get=cat", "--tool-choice", "tool:nosuch"],
        ["--tool-concurrency", "0"],
        ["--tool-timeout", "-1"],
    ])
    func refusedFlagsExit64BeforeTraffic(flags: [String]) throws {
        let run = try runChat(["Hi", "--base-url", "http://127.0.0.1:9/"] + flags)
        #expect(run.status == 64, "\(flags): \(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func aToolFlagDeclaresItsTool() throws {
        let server = try ChatScript([response([textBlock], stop: "end_turn"), response([textBlock], stop: "end_turn")])
        #expect(try runChat(["Hi", "--final-json", "--base-url", server.base, "--tool", "get=cat", "--tool-choice", "tool:get"]).status == 0)
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tools = scratch.file("tools.json")
        try Data(#"[{"name":"get","description":"Fetches","input_schema":{"type":"object","properties":{"k":{"type":"string"}}}}]"#.utf8)
            .write(to: URL(fileURLWithPath: tools))
        #expect(
            try runChat([
                "Hi", "--final-json", "--base-url", server.base, "--tool", "get=cat", "--tool", "put=cat",
                "--tools", tools,
            ]).status == 0)
        let bodies = try server.bodies()
        let declared = try #require(bodies[0]["tools"]?.arrayValue.map(Array.init))
        #expect(declared.count == 1)
        #expect(declared.first?["name"]?.stringValue == "get")
        #expect(declared.first?["input_schema"]?.compactJSON == #"{"type":"object"}"#)
        #expect(bodies[0]["tool_choice"]?.compactJSON == #"{"type":"tool","name":"get"}"#)
        // The file's definition wins; `put`, which the file does not name, declares itself.
        let both = Array(bodies[1]["tools"]?.arrayValue ?? JSONArray())
        #expect(both.first?.compactJSON == #"{"name":"get","description":"Fetches","input_schema":{"type":"object","properties":{"k":{"type":"string"}}}}"#)
        #expect(both.map { $0["name"]?.stringValue } == ["get", "put"])
        #expect(both.last?["input_schema"]?.compactJSON == #"{"type":"object"}"#)
    }

    @Test func helpExplainsEveryFlagTheToolsFormatAndTheExitCodes() throws {
        let run = try runChat(["--help"])
        #expect(run.status == 0)
        for flag in [
            "--request", "--tools", "--tool", "--tool-json", "--tool-choice", "--tool-timeout", "--tool-concurrency",
            "--max-turns", "--retries", "--transcript", "--final-json", "--timeout", "--model", "--system", "--effort", "--search",
            "--schema", "--base-url", "--max-tokens", "--bedrock", "--vertex",
        ] {
            #expect(run.stdout.contains("  \(flag) "), "\(flag) is not explained")
        }
        #expect(run.stdout.contains("input_schema"))
        for code in ["0", "1", "2", "3", "4", "64", "65", "66", "73", "130"] {
            #expect(run.stdout.contains("  \(code) "), "exit code \(code) is not explained")
        }
    }

    @Test func aPythonSDKStyleRequestContinuesAsAConversation() throws {
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // What `client.messages.create(**body)` of the Python SDK takes, dumped as JSON.
        let body =
            #"{"model":"claude-opus-5","max_tokens":1024,"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],"metadata":{"user_id":"u-1"},"stop_sequences":["END"],"tools":[{"name":"get_weather","description":"Weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],"messages":[{"role":"user","content":"Weather in Paris?"},{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"18 C"}]},{"role":"assistant","content":"It is 18 C."}]}"#
        let file = scratch.file("request.json")
        try Data(body.utf8).write(to: URL(fileURLWithPath: file))
        let run = try runChat(["And tomorrow?", "--final-json", "--base-url", server.base, "--request", file])
        #expect(run.status == 0, "\(run.stderr)")
        let sent = try #require(try server.bodies().first)
        let original = try JSONValue.parse(body)
        for key in ["model", "max_tokens", "system", "metadata", "stop_sequences", "tools"] {
            #expect(sent[key]?.compactJSON == original[key]?.compactJSON, "\(key)")
        }
        let messages = Array(sent["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.count == 5)
        // The body's messages go out as written (string content stays a string); the new prompt follows.
        #expect(Array(messages.prefix(4)).map(\.compactJSON) == Array(original["messages"]?.arrayValue ?? JSONArray()).map(\.compactJSON))
        #expect(messages.last?.compactJSON == #"{"role":"user","content":[{"type":"text","text":"And tomorrow?"}]}"#)
    }
}
