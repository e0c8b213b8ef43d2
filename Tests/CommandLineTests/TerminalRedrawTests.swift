// The live redraw on a real terminal: tmux runs `replay` in a pane 40 and
// 120 columns wide, and the screen is read back. A server-tool line is
// redrawn in place as its input streams; with wide characters, combining
// marks and emoji in it, a line cut too long would wrap, and `\r` plus
// erase-line then leaves its first rows behind on every redraw. Skipped when
// tmux is not installed.

import ClaudeShellTools
import ClaudeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Tmux {
    static let path: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Stops the private server and removes its socket file.
    static func stop(_ socket: String) {
        _ = try? run(socket, ["kill-server"])
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// Runs `tmux` on a private server socket and returns its output. Its
    /// output goes to a file, not a pipe: the server tmux forks inherits
    /// the client's descriptors and outlives it, so a pipe would not end.
    @discardableResult
    static func run(_ socket: String, _ arguments: [String]) throws -> String {
        guard let path else { return "" }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try ChildProcess(
            executable: path, arguments: ["-L", socket, "-f", "/dev/null"] + arguments, standardInput: .null,
            standardOutput: .file(output), standardError: .null, timeLimit: .seconds(60))
        _ = child.collect()
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}

@Suite(
    .enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"),
    .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct TerminalRedrawTests {
    /// The query, streamed in pieces that split a combining mark from its
    /// letter and an emoji sequence in the middle.
    static let queryPieces = ["東京の天気 ☔️ cafe", "\u{301} 👩‍", "👩‍👧 週末の予報と京都の紅葉", " forecast for the weekend"]

    static var stream: String {
        Fixtures.messageStart("msg_wide")
            + Fixtures.start(0, #"{"type":"text","text":""}"#) + Fixtures.text(0, "調べます — let me check ☔️.") + Fixtures.stop(0)
            + Fixtures.start(1, #"{"type":"server_tool_use","id":"srv_wide","name":"web_search","input":{}}"#)
            + Fixtures.input(1, #"{\"query\": \""#)
            + queryPieces.map { Fixtures.input(1, $0) }.joined()
            + Fixtures.input(1, #"\"}"#) + Fixtures.stop(1)
            + Fixtures.start(2, #"{"type":"web_search_tool_result","tool_use_id":"srv_wide","content":[]}"#) + Fixtures.stop(2)
            + Fixtures.end()
    }

    @Test(arguments: [40, 120])
    func activityLineRedrawsInPlace(columns: Int) throws {
        guard let executable = CLI.executable else { return }
        let file = try CLI.temporaryFile(Array(Self.stream.utf8))
        let socket = "claude-stream-test-\(UUID().uuidString.prefix(8))"
        defer { Tmux.stop(socket) }
        // Slow pacing so every piece of the query is a separate redraw.
        let command = "'\(executable.path)' replay '\(file)' --speed 0.5; sleep 30"
        try Tmux.run(socket, ["new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "30", command])
        var screen = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            screen = try Tmux.run(socket, ["capture-pane", "-p", "-t", "t"])
            if screen.contains("── stop") { break }
        }
        #expect(screen.contains("── stop"), "replay finished: \(screen)")
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let query = "東京の天気 ☔️ café 👩‍👩‍👧 週末の予報と京都の紅葉 forecast for the weekend"
        let activity = rows.filter { $0.contains("⚙") }
        #expect(activity.count == 1, "one activity line at \(columns) columns:\n\(screen)")
        // No row left behind by an earlier, wrapped redraw.
        let fragments = rows.filter { !$0.contains("⚙") && ($0.contains("週末") || $0.contains("forecast for")) }
        #expect(fragments.isEmpty, "leftover rows at \(columns) columns:\n\(screen)")
        if columns >= 120 {
            #expect(activity.first?.trimmingCharacters(in: .whitespaces) == "⚙ web search: " + query)
        } else {
            #expect(activity.first?.hasPrefix("⚙ web search: 東京の天気") == true)
            #expect(activity.first?.hasSuffix("…") == true, "cut to fit: \(activity.first ?? "")")
        }
        #expect(rows.contains { $0.hasPrefix("  → 0 results") })
    }

    /// An escape sequence in the model's text must not reach the terminal:
    /// here it would clear the screen, hiding everything drawn before it.
    @Test func controlCharactersInTextDoNotReachTheTerminal() throws {
        guard let executable = CLI.executable else { return }
        let stream =
            Fixtures.messageStart("msg_escape")
            + Fixtures.start(0, #"{"type":"text","text":""}"#) + Fixtures.text(0, "before ") + Fixtures.text(0, #"\u001b[2J\u001b[Hafter"#)
            + Fixtures.stop(0) + Fixtures.end()
        let file = try CLI.temporaryFile(Array(stream.utf8))
        let socket = "claude-stream-test-\(UUID().uuidString.prefix(8))"
        defer { Tmux.stop(socket) }
        try Tmux.run(
            socket,
            [
                "new-session", "-d", "-s", "t", "-x", "80", "-y", "20",
                "'\(executable.path)' replay '\(file)' --speed 0; sleep 30",
            ])
        var screen = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && !screen.contains("── stop") {
            Thread.sleep(forTimeInterval: 0.2)
            screen = try Tmux.run(socket, ["capture-pane", "-p", "-t", "t"])
        }
        #expect(screen.contains("[msg_escape · claude-test]"), "the header is still on screen:\n\(screen)")
        #expect(screen.contains(#"before \u{1B}[2J\u{1B}[Hafter"#), "\(screen)")
    }
}
