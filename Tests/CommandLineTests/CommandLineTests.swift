// The command line as outside checks drive it: exit codes, output lines and
// error messages of `replay`, `events` and `json`, run as a real process.

import ClaudeStreaming
import ClaudeTestSupport
import CommandLineDisplay
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `claude-stream` beside this test bundle.
struct CLI {
    static let executable: URL? = {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [here, here.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("claude-stream")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// Runs to the end. The input is written from another thread while
    /// stdout and stderr are read here, so a child that prints more than a
    /// pipe holds before it has read all its input cannot deadlock the test.
    static func run(_ arguments: [String], input: [UInt8]? = nil) throws -> Result {
        let finished = try ProgramUnderTest.run(arguments) { child in
            if let input { child.send(input) }
        }
        return Result(status: finished.status, stdout: finished.stdoutText, stderr: finished.stderr)
    }

    /// A file holding `bytes`, in a directory of this test process's own
    /// that is removed when the process exits.
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = try scratchDirectory.get().appendingPathComponent("cli-\(UUID().uuidString).sse")
        try Data(bytes).write(to: url)
        return url.path
    }

    private static let scratchDirectory: Swift.Result<URL, any Error> = Swift.Result { try makeScratchDirectory() }

    private static func makeScratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("claude-stream-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        atexit { CLI.removeScratchDirectory() }
        return url
    }

    private static func removeScratchDirectory() {
        if case .success(let url) = scratchDirectory { try? FileManager.default.removeItem(at: url) }
    }
}

extension ProgramUnderTest {
    /// Starts the built `claude-stream` with `arguments`.
    convenience init(_ arguments: [String], stdout: Output = .pipe, measuringPeak: Bool = false) throws {
        guard let binary = CLI.executable else { throw CocoaError(.fileNoSuchFile) }
        try self.init(executable: binary.path, arguments, stdout: stdout, measuringPeak: measuringPeak)
    }

    /// Runs the built `claude-stream` to the end, `input` written from a background thread.
    static func run(
        _ arguments: [String], stdout: Output = .pipe, measuringPeak: Bool = false,
        input: @escaping @Sendable (ProgramUnderTest) -> Void
    ) throws -> Result {
        guard let binary = CLI.executable else { throw CocoaError(.fileNoSuchFile) }
        return try run(executable: binary.path, arguments, stdout: stdout, measuringPeak: measuringPeak, input: input)
    }
}

/// The events of the command-line tests' streams, framed; each stream shows
/// one case the recordings do not have.
typealias Fixtures = StreamFixture.Framed

extension StreamFixture.Framed {
    /// `{"path":"notes.txt","recursive":false,"dry_run":trUE}`: invalid at byte 50.
    static let invalidToolInput =
        messageStart()
        + start(0, #"{"type":"tool_use","id":"toolu_bad","name":"list_files","input":{}}"#)
        + input(0, #"{\"path\":\"notes.txt\",\"recursive\":false,\"dry_run\":trUE}"#)
        + stop(0) + end("tool_use")
}

@Suite(.enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct CommandLineTests {
    @Test func replayWithoutFilePlaysTheBundledRecording() throws {
        let result = try CLI.run(["replay", "--speed", "0"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("web search: Lisbon weather forecast this weekend"))
        #expect(result.stdout.contains("→ 2 results"))
        #expect(result.stdout.contains("stop: tool_use"))
        #expect(!result.stdout.contains("\u{1B}["), "no escape codes when stdout is not a terminal")
    }

    @Test func finalJSONIsTheSameUnderEveryChunking() throws {
        let reference = try CLI.run(["replay", "--final-json"])
        #expect(reference.status == 0)
        #expect(reference.lines.count == 1)
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(DemoRecording.bytes)
        #expect(reference.lines.first == (try accumulator.finish()).messageJSON().compactJSON)
        for flags in [["--chunk", "1"], ["--chunks", "3,1,7"], ["--random-chunks", "42"]] {
            let chunked = try CLI.run(["replay", "--final-json"] + flags)
            #expect(chunked.stdout == reference.stdout, "\(flags)")
        }
    }

    @Test func incompleteStreamExitsThreeAndStillPrints() throws {
        let cut = Array(DemoRecording.bytes.prefix(2000))
        let result = try CLI.run(["replay", "--final-json", try CLI.temporaryFile(cut)])
        #expect(result.status == 3)
        #expect(result.lines.count == 1)
        #expect(result.stderr.contains("stream ended before message_stop"))
    }

    @Test func protocolErrorExitsOneWithPlace() throws {
        let start =
            #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}"#
        let bytes = Array("data: \(start)\n\ndata: \(start)\n\n".utf8)
        let result = try CLI.run(["replay", "--final-json", try CLI.temporaryFile(bytes)])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("event 1, offset "))
        #expect(result.stderr.contains("message_start before the previous message_stop"))
    }

    @Test func aMessageFinishedBeforeAFailureIsStillPrinted() throws {
        // Two messages; with --single the second message_start is an error,
        // in the same read as the first message's message_stop.
        let twice = try CLI.temporaryFile(DemoRecording.bytes + DemoRecording.bytes)
        let reference = try CLI.run(["replay", "--final-json"])
        for flags in [[], ["--chunk", "1"], ["--random-chunks", "7"]] {
            let single = try CLI.run(["replay", "--final-json", "--single", twice] + flags)
            #expect(single.status == 1, "\(flags)")
            #expect(single.stdout == reference.stdout, "\(flags)")
            #expect(single.stderr.contains("message_start"), "\(flags)")
            let sequential = try CLI.run(["replay", "--final-json", twice] + flags)
            #expect(sequential.status == 0, "\(flags)")
            #expect(sequential.stdout == reference.stdout + reference.stdout, "\(flags)")
        }
    }

    @Test func eventsPrintsOneLinePerEvent() throws {
        let result = try CLI.run(["events"], input: Array("event: a\ndata: x\nid: 7\nretry: 15\n\ndata: y\n\n".utf8))
        #expect(result.status == 0)
        #expect(
            result.lines == [
                #"{"event":"a","data":"x","id":"7","retry":15}"#,
                #"{"event":null,"data":"y","id":"7","retry":null}"#,
            ])
        let count = try CLI.run(["events", "--count", "--chunk", "1"], input: DemoRecording.bytes)
        let events = DemoRecording.sse.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count
        #expect(count.lines == ["\(events) events \(DemoRecording.bytes.count) bytes"])
    }

    @Test func eventsLimitErrorExitsOne() throws {
        let result = try CLI.run(["events", "--max-line", "8"], input: Array("data: far too long\n\n".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("offset "))
    }

    @Test func jsonValidatesAndReportsOffsets() throws {
        let valid = try CLI.run(["json"], input: Array(#" { "a" : [1, 2.50, "x"] } "#.utf8))
        #expect(valid.status == 0)
        #expect(valid.lines == [#"{"a":[1,2.50,"x"]}"#])
        let invalid = try CLI.run(["json"], input: Array(#"{"a": tru}"#.utf8))
        #expect(invalid.status == 1)
        #expect(invalid.stderr.hasPrefix("offset "))
    }

    @Test func unknownCommandIsAUsageError() throws {
        let result = try CLI.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("usage: claude-stream"))
    }
}
