// `chat` with its default flags against the scripted server's faults: what
// is retried (and how many requests reach the server, after what waits),
// what is not (the exit codes stay those of a failure), the answer printed
// once, one stderr line per retry, and the transcript untouched by an
// attempt that broke.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

private func apiError(_ status: Int, _ type: String, headers: [String: String] = [:]) -> [String: Any] {
    ["status": status, "body": #"{"type":"error","error":{"type":"\#(type)","message":"scripted \#(status)"}}"#, "headers": headers]
}

private var answer: [String: Any] { response([#"{"type":"text","text":"Recovered."}"#], stop: "end_turn") }

/// `answer` cut after `bytes` bytes: the stream broke mid-way.
private func broken(after bytes: Int = 300) -> [String: Any] {
    var cut = answer
    cut["drop_after"] = bytes
    return cut
}

/// The start of `answer`, then an `error` event of `type`.
private func errorEvent(_ type: String) -> [String: Any] {
    let body = (answer["body"] as? String) ?? ""
    let head = body.components(separatedBy: "event: content_block_stop").first ?? body
    return ["body": head + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"\(type)\",\"message\":\"scripted\"}}\n\n"]
}

private func retryLines(_ run: ChatRun) -> [Substring] {
    run.stderr.split(separator: "\n").filter { $0.hasPrefix("chat: retry ") }
}

/// How often the answer's text appears in `text`.
private func answerCount(_ text: String) -> Int {
    text.components(separatedBy: "Recovered.").count - 1
}

/// The wait between the first two requests the server saw (0 when it saw
/// fewer). The first retry waits 0.5 s less up to 25% jitter, at most
/// 0.5 s: a server clock's gap in [0.37, 3] is that wait, with room for a
/// loaded machine.
private func firstWait(_ server: ChatScript) throws -> Double {
    try server.gaps().first ?? 0
}

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct ChatRetryTests {
    @Test(arguments: [(503, "api_error"), (529, "overloaded_error"), (500, "api_error"), (408, "timeout_error"), (409, "api_error")])
    func aRetryableStatusIsRetriedAndTheAnswerPrintedOnce(status: Int, type: String) throws {
        let server = try ChatScript([apiError(status, type), answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(run.stdout.contains("Recovered."))
        #expect(try server.recorded().count == 2)
        let lines = retryLines(run)
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("chat: retry 1 of 2 in 0.") == true)
        #expect(lines.first?.contains("HTTP \(status)") == true)
        let wait = try firstWait(server)
        #expect(wait >= 0.37 && wait < 3, "\(wait) s")
    }

    @Test func rateLimitedWaitsRetryAfterMilliseconds() throws {
        let server = try ChatScript([apiError(429, "rate_limit_error", headers: ["retry-after-ms": "1500"]), answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.recorded().count == 2)
        let wait = try firstWait(server)
        #expect(wait >= 1.49 && wait < 4, "\(wait) s")
        #expect(retryLines(run).first?.hasPrefix("chat: retry 1 of 2 in 1.50 s") == true, "\(run.stderr)")
    }

    @Test func aConnectionResetBeforeTheAnswerIsRetried() throws {
        let server = try ChatScript([["reset": true], answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.recorded().count == 2)
        #expect(retryLines(run).count == 1)
        #expect(answerCount(run.stdout) == 1, "\(run.stdout)")
        let wait = try firstWait(server)
        #expect(wait >= 0.37 && wait < 3, "\(wait) s")
    }

    @Test func aStreamCutMidWayIsSentAgainAndPrintedOnce() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let transcript = scratch.path + "/t.json"
        // Cut after the text delta: the broken attempt had shown the answer.
        let server = try ChatScript([broken(after: 420), answer])
        let run = try runChat(["Hi", "--final-json", "--transcript", transcript, "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(answerCount(run.stdout) == 1, "\(run.stdout)")
        let wait = try firstWait(server)
        #expect(wait >= 0.37 && wait < 3, "\(wait) s")
        let bodies = try server.bodies()
        #expect(bodies.count == 2)
        #expect(bodies[0] == bodies[1])
        #expect(retryLines(run).first?.contains("sending the round again") == true, "\(run.stderr)")
        // The transcript has the prompt and the complete answer, nothing of the cut one.
        let saved = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: transcript))))
        let messages = Array(saved["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant"])
        #expect(messages[1]["content"]?[0]?["text"]?.stringValue == "Recovered.")
    }

    @Test func anOverloadedErrorMidStreamIsSentAgain() throws {
        let server = try ChatScript([errorEvent("overloaded_error"), answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.recorded().count == 2)
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(answerCount(run.stdout) == 1, "\(run.stdout)")
        let lines = retryLines(run)
        #expect(lines.count == 1 && lines.first?.contains("sending the round again") == true, "\(run.stderr)")
        let wait = try firstWait(server)
        #expect(wait >= 0.37 && wait < 3, "\(wait) s")
    }

    @Test func aRenderedAnswerSaysItRestarted() throws {
        let server = try ChatScript([broken(after: 420), answer])
        let run = try runChat(["Hi", "--base-url", server.base])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the round is sent again"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("out 4 tokens\n"), "\(run.stdout)")
    }

    @Test func whatIsNotRetryableKeepsItsExitCode() throws {
        let refused = try ChatScript([apiError(400, "invalid_request_error"), answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", refused.base])
        #expect(run.status == 2)
        #expect(try refused.recorded().count == 1)
        #expect(retryLines(run).isEmpty)
        let invalid = try ChatScript([errorEvent("invalid_request_error"), answer])
        let event = try runChat(["Hi", "--final-json", "--base-url", invalid.base])
        #expect(event.status == 1, "\(event.stderr)")
        #expect(try invalid.recorded().count == 1)
    }

    @Test func whenTheRetriesRunOutTheExitCodeIsTheLastFailures() throws {
        let cut = try ChatScript([broken(), broken(), broken(), answer])
        let run = try runChat(["Hi", "--final-json", "--base-url", cut.base])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(try cut.recorded().count == 3)
        #expect(retryLines(run).count == 2)
        let overloaded = try ChatScript([apiError(529, "overloaded_error"), apiError(529, "overloaded_error"), apiError(529, "overloaded_error"), answer])
        let exhausted = try runChat(["Hi", "--final-json", "--base-url", overloaded.base])
        #expect(exhausted.status == 2)
        #expect(try overloaded.recorded().count == 3)
    }

    @Test func retriesZeroTurnsThemOff() throws {
        let server = try ChatScript([apiError(529, "overloaded_error"), answer])
        let run = try runChat(["Hi", "--final-json", "--retries", "0", "--base-url", server.base])
        #expect(run.status == 2)
        #expect(try server.recorded().count == 1)
        #expect(retryLines(run).isEmpty)
    }

    @Test func noRetryIsSentPastTheTimeout() throws {
        let server = try ChatScript([apiError(529, "overloaded_error", headers: ["retry-after": "5"]), answer])
        let clock = ContinuousClock()
        let began = clock.now
        let run = try runChat(["Hi", "--final-json", "--timeout", "2", "--base-url", server.base])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(try server.recorded().count == 1)
        #expect(clock.now - began < .seconds(5))
    }
}
