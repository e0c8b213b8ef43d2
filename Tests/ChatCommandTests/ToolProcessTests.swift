// Tool processes of `chat`: how they end, and that nothing outlives chat.
// Each tool writes its shell's pid (`$$`, the id of its process group) to a
// file, so the test can check with kill(-pgid, 0) that the whole group is
// gone once chat has ended, whichever way it ended.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The group ids the tools wrote to `file`, one a line.
private func groups(in file: String) -> [pid_t] {
    ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
}

private let clock = ContinuousClock()

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// What a chat run gave whose model called one shell tool once.
private struct OneToolRun {
    var run: ChatRun
    /// From the start of chat to its end.
    var elapsed: Duration
    /// The request bodies the server received, oldest first.
    var bodies: [JSONValue]
    /// The result sent for the call, when a second request came.
    var result: JSONValue? { bodies.count > 1 ? lastResults(bodies[1]).first : nil }
}

/// `chat Go --final-json FLAGS --tool NAME=COMMAND` against a server whose
/// model calls `name` once (with `id`), then ends the turn.
private func runOneTool(_ name: String, _ command: String, flags: [String] = [], id: String = "toolu_1") throws -> OneToolRun {
    let server = try ChatScript(oneCallThenText(name, id: id))
    let began = clock.now
    let run = try runChat(["Go", "--final-json", "--base-url", server.base] + flags + ["--tool", "\(name)=\(command)"])
    let elapsed = clock.now - began
    return OneToolRun(run: run, elapsed: elapsed, bodies: try server.bodies())
}

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"), .serialized)
struct ToolProcessTests {
    @Test func aNormalEndLeavesNoProcessBehind() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // The background sleep keeps stdout open; it dies with its group when the tool's shell exits.
        let tool = try runOneTool("bg", "sleep 30 & echo $$ > \(scratch.file("pgid")); echo ok")
        #expect(tool.run.status == 0, "\(tool.run.stderr)")
        #expect(tool.elapsed < .seconds(10))
        #expect(tool.result?["content"]?.stringValue == "ok")
        let group = try #require(groups(in: scratch.file("pgid")).first)
        #expect(eventually(within: 2) { !groupExists(group) })
    }

    @Test func theOverallTimeoutKillsARunningTool() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tool = try runOneTool("hang", "echo $$ > \(scratch.file("pgid")); sleep 30", flags: ["--timeout", "2"])
        #expect(tool.run.status == 3, "\(tool.run.stderr)")
        #expect(tool.run.stderr.contains("--timeout"), "\(tool.run.stderr)")
        // Gone within 2 s of the deadline: chat waits for the group before it exits.
        #expect(tool.elapsed < .seconds(4.5), "\(seconds(tool.elapsed)) s")
        let group = try #require(groups(in: scratch.file("pgid")).first)
        #expect(!groupExists(group))
        #expect(tool.bodies.count == 1)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalToChatKillsItsTools(signal: Int32) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([
            response([toolUse("toolu_1", "hang", "{}"), toolUse("toolu_2", "hang", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let child = try ChatChild([
            "Go", "--final-json", "--base-url", server.base,
            "--tool", "hang=echo $$ >> \(scratch.file("pgid")); sleep 30",
        ])
        #expect(eventually(within: 20) { groups(in: scratch.file("pgid")).count == 2 })
        let sent = clock.now
        child.signal(signal)
        let run = child.wait()
        #expect(clock.now - sent < .seconds(2))
        #expect(run.status == 128 + signal, "\(run.stderr)")
        for group in groups(in: scratch.file("pgid")) { #expect(!groupExists(group)) }
    }

    /// A second Ctrl-C does not wait for the grace: every group gets SIGKILL
    /// and chat exits at once. (Its orphans then belong to init, which may
    /// be slow to reap them, so the check is that no member still runs.)
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs /proc"))
    func aSecondSIGINTKillsEverythingAtOnce() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript(oneCallThenText("stubborn"))
        let child = try ChatChild([
            "Go", "--final-json", "--base-url", server.base, "--tool", "stubborn=trap '' TERM; echo $$ > \(scratch.file("pgid")); sleep 30",
        ])
        #expect(eventually(within: 20) { !groups(in: scratch.file("pgid")).isEmpty })
        child.signal(SIGINT)
        child.signal(SIGINT)
        let run = child.wait()
        #expect(run.status == 130, "\(run.stderr)")
        let group = try #require(groups(in: scratch.file("pgid")).first)
        #expect(eventually(within: 2) { runningMembers(of: group).isEmpty }, "\(runningMembers(of: group))")
    }

    /// chat killed with SIGKILL runs no code of its own at all: its tools
    /// still die with it, by the parent-death signal each was started with
    /// (Linux). The tool's leader execs sleep, so the leader is the process
    /// that must die.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs Linux's /proc"))
    func aToolDiesWithChatEvenWhenChatIsKilled() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript(oneCallThenText("hang"))
        let child = try ChatChild(["Go", "--final-json", "--base-url", server.base, "--tool", "hang=echo $$ > \(scratch.file("pgid")); exec sleep 30"])
        #expect(eventually(within: 20) { !groups(in: scratch.file("pgid")).isEmpty })
        child.signal(SIGKILL)
        let run = child.wait()
        #expect(run.status == 128 + SIGKILL)
        let group = try #require(groups(in: scratch.file("pgid")).first)
        #expect(eventually(within: 5) { runningMembers(of: group).isEmpty }, "\(runningMembers(of: group))")
    }

    @Test func theToolTimeoutKillsAGroupThatIgnoresSIGTERM() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let tool = try runOneTool(
            "stubborn", "trap '' TERM; echo $$ > \(scratch.file("pgid")); sleep 30; sleep 30", flags: ["--tool-timeout", "1"])
        #expect(tool.run.status == 0, "\(tool.run.stderr)")
        #expect(tool.elapsed < .seconds(6))
        let result = try #require(tool.result)
        #expect(result["is_error"]?.boolValue == true)
        #expect(result["content"]?.stringValue?.contains("stopped after 1 s (its time limit)") == true, "\(result)")
        let group = try #require(groups(in: scratch.file("pgid")).first)
        #expect(!groupExists(group))
    }

    @Test func aPipelineEndedBySIGPIPEFinishesAtOnce() throws {
        let tool = try runOneTool("yes", "while :; do echo x; done | head -1", flags: ["--tool-timeout", "60"])
        #expect(tool.run.status == 0, "\(tool.run.stderr)")
        #expect(tool.elapsed < .seconds(10))
        let result = try #require(tool.result)
        #expect(result["content"]?.stringValue == "x")
        #expect(result["is_error"] == nil)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout"), "needs timeout(1)"))
    func aToolsOwnTimeoutWorks() throws {
        let tool = try runOneTool("t", "timeout 1 sleep 10")
        #expect(tool.run.status == 0, "\(tool.run.stderr)")
        #expect(tool.elapsed > .seconds(0.9) && tool.elapsed < .seconds(5), "\(seconds(tool.elapsed)) s")
        let result = try #require(tool.result)
        #expect(result["is_error"]?.boolValue == true)
        #expect(result["content"]?.stringValue?.contains("status 124") == true, "\(result)")
    }

    @Test func toolsOfOneResponseRunConcurrently() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([
            response([toolUse("toolu_1", "nap", "{}"), toolUse("toolu_2", "nap", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let times = scratch.file("times")
        let run = try runChat([
            "Go", "--final-json", "--base-url", server.base,
            "--tool", "nap=date +%s.%N >> \(times); sleep 2; date +%s.%N >> \(times)",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let stamps = ((try? String(contentsOfFile: times, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Double($0) }
        #expect(stamps.count == 4)
        if let first = stamps.min(), let last = stamps.max() { #expect(last - first < 3, "\(last - first) s") }
    }

    @Test func manyCallsRunABoundedNumberAtOnceAndStopAtTheTimeout() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let calls = (0..<200).map { toolUse("toolu_\($0)", "hang", "{}") }
        let server = try ChatScript([response(calls, stop: "tool_use"), response([textBlock], stop: "end_turn")])
        let began = clock.now
        let run = try runChat([
            "Go", "--final-json", "--base-url", server.base, "--timeout", "3", "--tool-concurrency", "3",
            "--tool", "hang=echo $$ >> \(scratch.file("pgid")); sleep 30",
        ])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(clock.now - began < .seconds(6))
        let started = groups(in: scratch.file("pgid"))
        #expect(started.count == 3)
        for group in started { #expect(!groupExists(group)) }
    }

    @Test func aFailureSendsItsStatusAndTheTailOfStderr() throws {
        let server = try ChatScript([
            response([toolUse("toolu_1", "fail", "{}"), toolUse("toolu_2", "noisy", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let run = try runChat([
            "Go", "--final-json", "--base-url", server.base, "--tool", "fail=echo oops >&2; exit 3",
            "--tool", "noisy=head -c 100000 /dev/zero | tr '\\0' a >&2; echo END >&2; exit 1",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let results = lastResults(try server.bodies()[1])
        let text = results.first?["content"]?.stringValue ?? ""
        #expect(results.first?["is_error"]?.boolValue == true)
        #expect(text.contains("status 3") && text.contains("oops"), "\(text)")
        let noisy = results.last?["content"]?.stringValue ?? ""
        #expect(noisy.contains("END") && noisy.utf8.count < 4096, "\(noisy.utf8.count) bytes")
    }

    @Test func toolJSONSendsAnyValue() throws {
        let server = try ChatScript([
            response([toolUse("toolu_1", "product", "{}"), toolUse("toolu_2", "text", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        let run = try runChat([
            "Go", "--final-json", "--base-url", server.base,
            "--tool-json", #"product=echo '{"product":6}'"#, "--tool-json", #"text=echo '"plain"'"#,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let results = lastResults(try server.bodies()[1])
        #expect(results.first?["content"]?.stringValue == #"{"product":6}"#)
        #expect(results.first?["is_error"] == nil)
        #expect(results.last?["content"]?.stringValue == "plain")
    }

    @Test func aCutOffInputIsAnErrorResultAndTheToolDoesNotRun() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let server = try ChatScript([cutOffToolCall("toolu_c", "mark", partialInput: #"{"a":1,"b":"#), response([textBlock], stop: "end_turn")])
        let run = try runChat(["Go", "--final-json", "--base-url", server.base, "--tool", "mark=touch \(scratch.file("ran")); cat"])
        let bodies = try server.bodies()
        #expect(bodies.count == 2, "\(run.stderr)")
        let result = try #require(bodies.last.map(lastResults)?.first)
        #expect(result["tool_use_id"]?.stringValue == "toolu_c")
        #expect(result["is_error"]?.boolValue == true, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("ran")))
    }

    @Test func aHugeToolUseIDIsExplainedWithoutFoundationText() throws {
        let tool = try runOneTool("echo", "cat", id: "toolu_" + String(repeating: "x", count: 300_000))
        #expect(tool.run.status == 0, "\(tool.run.stderr)")
        let result = try #require(tool.result)
        let text = result["content"]?.stringValue ?? ""
        #expect(result["is_error"]?.boolValue == true)
        #expect(text.contains("could not start"), "\(text.prefix(300))")
        #expect(!text.contains("NSCocoaErrorDomain") && !tool.run.stderr.contains("NSCocoaErrorDomain"))
    }
}
