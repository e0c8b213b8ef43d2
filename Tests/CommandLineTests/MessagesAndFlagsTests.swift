// Every message clear: --help and --version, one line naming the input and
// what is wrong with it (each with its own exit code), and numeric flags at
// their extremes either used safely or refused with exit 64 (before this
// change `--chunks 1,9223372036854775807` and `--speed 0.000001` trapped).

import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import CommandLineDisplay
import Foundation
import Testing

@Suite(.enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct MessagesAndFlagsTests {
    @Test(arguments: ["replay", "events", "json", "chat"])
    func helpPrintsTheCommandsUsage(command: String) throws {
        for flag in ["-h", "--help"] {
            let result = try CLI.run([command, flag])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: claude-stream \(command)"))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test func topLevelHelpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for command in ["replay", "events", "json", "chat"] { #expect(help.stdout.contains("  \(command) ")) }
        #expect(help.stdout.contains("4 empty input"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.lines.count == 1 && version.stdout.hasPrefix("claude-stream "))
        // The package's one version, which requests name in their user-agent too.
        #expect(version.stdout == "claude-stream \(ClaudeStreamingVersion.current)\n")
    }

    @Test func inputProblemsAreOneLineWithTheirOwnExitCode() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let missing = directory + "/no-such-file-\(UUID().uuidString)"
        let html = try CLI.temporaryFile(Array("<!DOCTYPE html>\n<html><body>Bad gateway</body></html>\n".utf8))
        let errorBody = try CLI.temporaryFile(Array(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}"#.utf8))
        let empty = try CLI.temporaryFile([])
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["replay", directory], 5, "replay: \(directory): is a directory, not a file"),
            (["events", directory], 5, "events: \(directory): is a directory, not a file"),
            (["json", directory], 5, "json: \(directory): is a directory, not a file"),
            (["replay", missing], 66, "replay: \(missing): cannot open: No such file or directory"),
            (["json", missing], 66, "json: \(missing): cannot open: No such file or directory"),
            (["replay", empty], 4, "replay: \(empty): empty input"),
            (["events", empty], 4, "events: \(empty): empty input"),
            (["json", empty], 4, "json: \(empty): empty input"),
            (["replay", html], 2, "replay: \(html): not an event stream: an HTML or XML page (starts with '<!DOCTYPE html>')"),
            (
                ["replay", "--final-json", errorBody], 2,
                "replay: \(errorBody): not an event stream: an API error body: overloaded_error: Overloaded"
            ),
            (["events", html], 2, "events: \(html): not an event stream: an HTML or XML page (starts with '<!DOCTYPE html>')"),
        ]
        for (arguments, status, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message + "\n", "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        let stdin = try CLI.run(["replay", "-"], input: [])
        #expect(stdin.status == 4)
        #expect(stdin.stderr == "replay: stdin: empty input\n")
    }

    /// Only comments: still an event stream, just without events.
    @Test func eventsWithOnlyCommentsIsNotAnError() throws {
        let result = try CLI.run(["events", "--count"], input: Array(": keep-alive\n\n".utf8))
        #expect(result.status == 0)
        #expect(result.lines == ["0 events 14 bytes"])
    }

    @Test func numericFlagsAtTheirExtremes() throws {
        let stream = try CLI.temporaryFile(DemoRecording.bytes)
        let reference = try CLI.run(["replay", "--final-json", stream]).stdout
        let extremes = [
            "0", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "18446744073709551615", "18446744073709551616", "nan", "NaN", "inf", "-inf", "1e308", "0.5", "",
        ]
        for value in extremes {
            for flag in ["--chunk", "--random-chunks"] {
                let result = try CLI.run(["replay", "--final-json", stream, flag, value])
                #expect([0, 64].contains(result.status), "\(flag) \(value): \(result.status) \(result.stderr)")
                if result.status == 0 {
                    #expect(result.stdout == reference, "\(flag) \(value)")
                } else {
                    #expect(result.stderr.hasPrefix("replay: \(flag) "), "\(flag) \(value): \(result.stderr)")
                }
            }
            for flag in ["--max-line", "--max-event"] {
                let result = try CLI.run(["events", "--count", stream, flag, value])
                #expect([0, 1, 64].contains(result.status), "\(flag) \(value): \(result.status) \(result.stderr)")
            }
            for flag in ["--max-bytes", "--max-depth"] {
                let result = try CLI.run(["json", flag, value], input: Array(#"{"a":[1]}"#.utf8))
                #expect([0, 1, 64].contains(result.status), "\(flag) \(value): \(result.status) \(result.stderr)")
            }
            let speed = try CLI.run(["replay", stream, "--speed", value])
            #expect([0, 64].contains(speed.status), "--speed \(value): \(speed.status) \(speed.stderr)")
        }
        // The two that trapped.
        let chunks = try CLI.run(["events", "--count", stream, "--chunks", "1,9223372036854775807"])
        #expect(chunks.status == 0)
        #expect(chunks.lines == ["\(DemoRecording.sse.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count) events \(DemoRecording.bytes.count) bytes"])
        let slow = try CLI.run(["replay", stream, "--speed", "0.000001"])
        #expect(slow.status == 64)
        #expect(slow.stderr.hasPrefix("replay: --speed takes 0 (no pauses) or a finite number from 0.01 on, not '0.000001'"))
        for value in ["nan", "inf", "-1", "1e-300"] {
            #expect(try CLI.run(["replay", stream, "--speed", value]).status == 64, "--speed \(value)")
        }
        let huge = try CLI.run(["replay", stream, "--speed", "1e308"])
        #expect(huge.status == 0)
        for value in ["0", "-1", "1,0", "1,,2", "1,-2", ",", "9223372036854775808"] {
            let result = try CLI.run(["events", stream, "--chunks", value])
            #expect(result.status == 64, "--chunks \(value)")
        }
        let zeroLine = try CLI.run(["events", stream, "--max-line", "0"])
        #expect(zeroLine.status == 1)
        #expect(zeroLine.stderr.hasPrefix("offset 0: "))
    }

    @Test func finalJSONNamesAToolInputThatIsNotJSON() throws {
        let stream = try CLI.temporaryFile(Array(Fixtures.invalidToolInput.utf8))
        let result = try CLI.run(["replay", "--final-json", stream])
        #expect(result.status == 1)
        #expect(result.lines.count == 1, "the message is still printed")
        #expect(result.stderr.hasPrefix("replay: message 0, block 0 (tool_use list_files, id toolu_bad): input is not valid JSON: offset 50: "))
        #expect(result.stderr.components(separatedBy: "\n").count == 2, "one line")
        let live = try CLI.run(["replay", stream])
        #expect(live.status == 1)
        #expect(live.stdout.contains("→ list_files: input is not valid JSON (offset 50: "))
    }
}
