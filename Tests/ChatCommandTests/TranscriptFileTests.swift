// The file of `chat --transcript`: private, written through links, replaced
// atomically after every complete round, never overwritten when it cannot
// be read, and an exit status that says when it could not be written.

import ClaudeSession
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func messages(_ path: String) throws -> [JSONValue] {
    let value = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), options: .init(maxDepth: 1000))
    return Array(value["messages"]?.arrayValue ?? JSONArray())
}

private let savedConversation =
    #"{"model":"claude-opus-5","max_tokens":100,"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[{"type":"text","text":"Hello"}]}]}"#

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"), .serialized)
struct TranscriptFileTests {
    @Test func aNewTranscriptIsPrivateAndAnExistingOneKeepsItsMode() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([response([textBlock], stop: "end_turn"), response([textBlock], stop: "end_turn")])
        let fresh = scratch.file("new.json")
        #expect(try runChat(["Hi", "--final-json", "--base-url", server.base, "--transcript", fresh]).status == 0)
        #expect(mode(fresh) == 0o600)
        let shared = scratch.file("shared.json")
        try Data(savedConversation.utf8).write(to: URL(fileURLWithPath: shared))
        chmod(shared, 0o640)
        #expect(try runChat(["Again", "--final-json", "--base-url", server.base, "--transcript", shared]).status == 0)
        #expect(mode(shared) == 0o640)
        #expect(try messages(shared).count == 4)
        // No temporary copy is left beside them.
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(names == ["new.json", "shared.json"])
    }

    @Test func aSymlinkIsWrittenThroughToItsTarget() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let target = scratch.file("target.json")
        try Data(savedConversation.utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o600)
        let link = scratch.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        #expect(try runChat(["Again", "--final-json", "--base-url", server.base, "--transcript", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
        #expect(try messages(target).count == 4)
        #expect(mode(target) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["link.json", "target.json"])
    }

    @Test(arguments: [
        "{\"model\":\"m\",\"messages\":[",
        #"{"model":"m","messages":{"role":"user","content":"precious"}}"#,
        #"[{"role":"user","content":"precious"}]"#,
        #"{"model":"m","messages":[{"role":"user"}]}"#,
        #"{"model":"m","messages":[{"role":"user","content":"#
            + String(repeating: "[", count: 700) + String(repeating: "]", count: 700) + "}]}",
    ])
    func aTranscriptThatCannotBeReadIsLeftAsItIs(text: String) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let file = scratch.file("t.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base, "--transcript", file])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(file))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        #expect(try server.bodies().isEmpty)
    }

    @Test func whatChatWritesItReadsBackEvenDeeplyNested() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let deep = String(repeating: #"{"a":"#, count: 510) + "1" + String(repeating: "}", count: 510)
        let server = try ChatScript(oneCallThenText("nocommand", id: "toolu_d", input: deep))
        let file = scratch.file("t.json")
        let first = try runChat(["Hi", "--final-json", "--base-url", server.base, "--transcript", file, "--tool", "other=cat"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runChat(["Next", "--final-json", "--base-url", server.base, "--transcript", file, "--tool", "other=cat"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try messages(file).count == 4)
    }

    @Test func aTranscriptThatCannotBeWrittenExits73() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base, "--transcript", scratch.file("missing/t.json")])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write the transcript"), "\(run.stderr)")
        #expect(try server.bodies().count == 1)
    }

    @Test func ctrlCKeepsTheCompletedRounds() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([
            response([toolUse("toolu_1", "quick", #"{"n":1}"#)], stop: "tool_use"),
            response([toolUse("toolu_2", "quick", #"{"n":2}"#)], stop: "tool_use"),
            response([toolUse("toolu_3", "hang", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let file = scratch.file("t.json")
        let marker = scratch.file("hanging")
        let child = try ChatChild([
            "Go", "--final-json", "--base-url", server.base, "--transcript", file,
            "--tool", "quick=cat", "--tool", "hang=touch \(marker); sleep 30",
        ])
        #expect(eventually(within: 20) { FileManager.default.fileExists(atPath: marker) })
        child.signal(SIGINT)
        let run = child.wait()
        #expect(run.status == 130, "\(run.stderr)")
        let saved = try messages(file)
        #expect(saved.map { $0["role"]?.stringValue } == ["user", "assistant", "user", "assistant", "user"])
        #expect(saved.last?["content"]?[0]?["tool_use_id"]?.stringValue == "toolu_2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["hanging", "t.json"])
    }

    @Test func pauseTurnAtTheTurnLimitExitsFour() throws {
        let server = try ChatScript([response([#"{"type":"text","text":"Working"}"#], stop: "pause_turn"), response([textBlock], stop: "end_turn")])
        let run = try runChat(["Search", "--final-json", "--base-url", server.base, "--max-turns", "1"])
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains("pause_turn"))
        #expect(try server.bodies().count == 1)
    }
}

/// The transcript file and `SessionTranscript` are one format: either side
/// reads what the other wrote.
@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct TranscriptFormatSharingTests {
    @Test func sessionTranscriptReadsWhatChatWrote() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript(oneCallThenText("echo", input: #"{"q":"x"}"#))
        let file = scratch.file("t.json")
        let run = try runChat([
            "Hi", "--final-json", "--base-url", server.base, "--transcript", file, "--system", "Be brief",
            "--tool", "echo=cat",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let transcript = try SessionTranscript(jsonBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(transcript.setup.system == "Be brief")
        #expect(transcript.responses.count == 2)
        #expect(transcript.toolCalls.map(\.id) == ["toolu_1"])
        #expect(transcript.messages.count == 4)
        #expect(transcript.pendingToolCalls.isEmpty)
    }

    @Test func chatContinuesWhatSessionTranscriptWrote() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var transcript = SessionTranscript(setup: RequestSetup(model: .opus5, system: "Be brief", maxTokens: 321))
        transcript.appendPrompt([.text("Hello")])
        let file = scratch.file("t.json")
        try Data(try transcript.jsonBytes()).write(to: URL(fileURLWithPath: file))
        let server = try ChatScript([response([textBlock], stop: "end_turn")])
        // The transcript ends with the user's turn: chat answers it without a prompt.
        let run = try runChat(["--final-json", "--base-url", server.base, "--transcript", file])
        #expect(run.status == 0, "\(run.stderr)")
        let body = try #require(try server.bodies().first)
        #expect(body["system"]?.stringValue == "Be brief")
        #expect(body["max_tokens"]?.compactJSON == "321")
        #expect(body["messages"]?.compactJSON == #"[{"role":"user","content":[{"type":"text","text":"Hello"}]}]"#)
        let saved = try SessionTranscript(jsonBytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(saved.responses.count == 1)
    }
}
