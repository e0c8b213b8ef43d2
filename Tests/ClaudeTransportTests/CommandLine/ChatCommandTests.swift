// `claude-stream chat` run as a real process against the loopback server:
// exit codes, the final message, the typed HTTP error on stderr, and the key
// appearing nowhere in what it prints.

import Foundation
import Testing

/// The built `claude-stream` beside this test bundle, when there is one.
private let chatExecutable: URL? = {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [here, here.deletingLastPathComponent()] {
        let url = folder.appendingPathComponent("claude-stream")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}()

private let chatKey = "sk-ant-chat-test-key-0123456789"

private struct ChatRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

private func runChat(_ arguments: [String], key: String? = chatKey) throws -> ChatRun {
    guard let chatExecutable else { throw ServerStartError(description: "claude-stream not built") }
    let process = Process()
    process.executableURL = chatExecutable
    process.arguments = ["chat"] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["ANTHROPIC_API_KEY"] = key
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ChatRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
}

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
            let run = try runChat(["Hello", "--base-url", server.url("fault/429").absoluteString])
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
