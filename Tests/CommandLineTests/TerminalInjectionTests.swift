// Escape-sequence injection through every server field the renderer shows.
// A crafted recording puts one payload (ESC, OSC 52 clipboard write, OSC 8
// hyperlink, CSI clear screen, C1 CSI and OSC) in each field after a tag,
// and `claude-stream replay FILE` runs on a terminal:
// - under tmux, whose screen is read back: each tag must be followed by the
//   payload's escaped form (a payload that reached tmux raw would be obeyed
//   and vanish from the screen, or clear it);
// - under script(1), whose log is the bytes written to the terminal: the
//   only control sequences may be the renderer's own styling.
// `--final-json` of the same file must stay byte-exact, escapes and all.

import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

enum HostileRecording {
    /// The payload as JSON string content: ESC ] 52 … BEL, ESC ] 8 … ESC \,
    /// ESC [ 2J, U+009B 1m, U+009D.
    static let payload = #"\u001b]52;c;SGk=\u0007\u001b]8;;u\u001b\\\u001b[2J\u009b1m\u009d"#
    /// How the screen shows it after a plain string field.
    static let shown = #"\u{1B}]52;c;SGk=\u{7}\u{1B}]8;;u\u{1B}\\u{1B}[2J\u{9B}1m\u{9D}"#

    /// `tag` and the payload, as JSON string content.
    static func field(_ tag: String) -> String { tag + payload }

    /// A field inside JSON text that is itself a JSON string (`partial_json`).
    static func nested(_ tag: String) -> String {
        (#"{""# + "k" + #"":""# + field(tag) + #""}"#)
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    static func call(_ index: Int, id: String, name: String, inputTag: String, key: String) -> String {
        let input = (#"{""# + key + #"":""# + field(inputTag) + #""}"#)
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return Fixtures.start(index, #"{"type":"server_tool_use","id":"\#(id)","name":"\#(name)","input":{}}"#)
            + Fixtures.input(index, input) + Fixtures.stop(index)
    }

    static func result(_ index: Int, type: String, id: String, content: String) -> String {
        Fixtures.start(index, #"{"type":"\#(type)","tool_use_id":"\#(id)","content":\#(content)}"#) + Fixtures.stop(index)
    }

    /// Tags of the fields shown as plain strings (each followed on screen by ``shown``).
    static let plainTags = (1...40).map { String(format: "F%02d:", $0) }

    static var stream: String {
        func f(_ n: Int) -> String { field(plainTags[n - 1]) }
        let start =
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"\(f(1))\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"\(f(2))\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
            + "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
        var body = start
        // Text with citations of four kinds, then thinking.
        body += Fixtures.start(0, #"{"type":"text","text":""}"#) + Fixtures.text(0, f(3))
        body += Fixtures.delta(
            0,
            #"{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"x","url":"\#(f(4))","title":"\#(f(5))","encrypted_index":"e"}}"#
        )
        body += Fixtures.delta(
            0,
            #"{"type":"citations_delta","citation":{"type":"search_result_location","cited_text":"x","source":"\#(f(6))","title":"\#(f(7))","search_result_index":0,"start_block_index":0,"end_block_index":1}}"#
        )
        body += Fixtures.delta(
            0,
            #"{"type":"citations_delta","citation":{"type":"page_location","cited_text":"x","document_index":0,"document_title":"\#(f(8))","start_page_number":1,"end_page_number":2}}"#
        )
        body += Fixtures.delta(0, #"{"type":"citations_delta","citation":{"type":"\#(f(9))","cited_text":"x"}}"#)
        body += Fixtures.stop(0)
        body +=
            Fixtures.start(1, #"{"type":"thinking","thinking":"","signature":""}"#)
            + Fixtures.delta(1, #"{"type":"thinking_delta","thinking":"\#(f(10))"}"#) + Fixtures.stop(1)
        // Client and MCP calls.
        body +=
            Fixtures.start(2, #"{"type":"tool_use","id":"toolu_1","name":"\#(f(11))","input":{}}"#)
            + Fixtures.input(2, nested("J01:")) + Fixtures.stop(2)
        body +=
            Fixtures.start(3, #"{"type":"mcp_tool_use","id":"mcp_1","name":"\#(f(12))","server_name":"\#(f(13))","input":{}}"#)
            + Fixtures.input(3, "{}") + Fixtures.stop(3)
        body += result(4, type: "mcp_tool_result", id: "mcp_1", content: #"[{"type":"text","text":"\#(f(14))"}]"#)
        // Server tools and their results.
        body += call(5, id: "srv_1", name: "web_search", inputTag: plainTags[14], key: "query")
        body += result(
            6, type: "web_search_tool_result", id: "srv_1",
            content: #"[{"type":"web_search_result","title":"\#(f(16))","url":"\#(f(17))","encrypted_content":"e"}]"#)
        body += call(7, id: "srv_2", name: "web_fetch", inputTag: plainTags[17], key: "url")
        body += result(
            8, type: "web_fetch_tool_result", id: "srv_2",
            content: #"{"type":"web_fetch_result","url":"\#(f(19))","retrieved_at":"\#(f(20))","content":{"type":"document","title":"\#(f(21))"}}"#)
        body += call(9, id: "srv_3", name: "code_execution", inputTag: plainTags[21], key: "code")
        body += result(
            10, type: "code_execution_tool_result", id: "srv_3",
            content: #"{"type":"code_execution_result","stdout":"\#(f(23))","stderr":"\#(f(24))","return_code":0}"#)
        body += call(11, id: "srv_4", name: "bash_code_execution", inputTag: plainTags[24], key: "command")
        body += result(
            12, type: "bash_code_execution_tool_result", id: "srv_4",
            content: #"{"type":"\#(f(26))_error","error_code":"\#(f(27))"}"#)
        body +=
            Fixtures.start(13, #"{"type":"server_tool_use","id":"srv_5","name":"text_editor_code_execution","input":{}}"#)
            + Fixtures.input(
                13,
                (#"{"command":""# + f(28) + #"","path":""# + f(29) + #""}"#)
                    .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
            + Fixtures.stop(13)
        body += call(14, id: "srv_6", name: f(30), inputTag: "J02:", key: "x")
        // A result of an unknown type, for a call never seen.
        body += result(15, type: "widget_tool_result", id: f(31), content: "[]")
        body += Fixtures.start(16, #"{"type":"container_upload","file_id":"\#(f(32))"}"#) + Fixtures.stop(16)
        body += Fixtures.start(17, #"{"type":"compaction","content":"\#(f(33))"}"#) + Fixtures.stop(17)
        body += Fixtures.start(18, #"{"type":"\#(f(34))"}"#) + Fixtures.stop(18)
        body +=
            Fixtures.start(19, #"{"type":"fallback","from":{"model":"\#(f(35))"},"to":{"model":"\#(f(36))"},"trigger":{"t":"\#(field("J03:"))"}}"#)
            + Fixtures.stop(19)
        body += Fixtures.event(
            #"{"type":"message_delta","delta":{"stop_reason":"\#(f(37))","stop_sequence":null,"stop_details":{"type":"refusal","category":"\#(f(38))","explanation":"\#(f(39))"}},"usage":{"output_tokens":20}}"#
        )
        body += Fixtures.event(#"{"type":"message_stop"}"#)
        return body
    }

    /// A stream that ends in an `error` event whose type and message carry the payload (shown on stderr).
    static var errorStream: String {
        Fixtures.messageStart("msg_error") + Fixtures.start(0, #"{"type":"text","text":""}"#) + Fixtures.text(0, "partial")
            + Fixtures.event(#"{"type":"error","error":{"type":"\#(field("E01:"))","message":"\#(field("E02:"))"}}"#)
    }
}

@Suite(.enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct TerminalInjectionTests {
    @Test(.enabled(if: Tmux.path != nil, "tmux is not installed"))
    func everyServerFieldShowsItsEscapesEscaped() throws {
        guard let executable = CLI.executable else { return }
        let file = try CLI.temporaryFile(Array(HostileRecording.stream.utf8))
        let errorFile = try CLI.temporaryFile(Array(HostileRecording.errorStream.utf8))
        let socket = "claude-stream-test-\(UUID().uuidString.prefix(8))"
        defer { Tmux.stop(socket) }
        let command =
            "'\(executable.path)' replay '\(file)' --speed 0; '\(executable.path)' replay '\(errorFile)' --speed 0;"
            + " echo END-OF-RUNS; sleep 30"
        try Tmux.run(socket, ["new-session", "-d", "-s", "t", "-x", "400", "-y", "100", command])
        var screen = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !screen.contains("END-OF-RUNS") {
            Thread.sleep(forTimeInterval: 0.2)
            screen = try Tmux.run(socket, ["capture-pane", "-p", "-J", "-t", "t"])
        }
        #expect(screen.contains("END-OF-RUNS"), "both runs finished:\n\(screen)")
        // Fields shown as plain strings: the tag, then the escaped payload.
        // F15, F18, F22, F25 are the server-tool inputs; F26 is an error type
        // (its error code F27 is what is shown); F40 is unused.
        let notShown: Set<String> = ["F26:", "F40:"]
        for tag in HostileRecording.plainTags where !notShown.contains(tag) {
            #expect(screen.contains(tag + HostileRecording.shown), "\(tag) is not shown escaped:\n\(screen)")
        }
        // Fields shown inside JSON (a tool input, a fallback's trigger): ESC
        // is JSON-escaped there, the C1 controls still by the sanitizer.
        for tag in ["J01:", "J02:", "J03:"] {
            #expect(
                screen.contains(tag + #"\u001b]52;c;SGk=\u0007\u001b]8;;u\u001b\\\u001b[2J\u{9B}1m\u{9D}"#),
                "\(tag) is not shown escaped:\n\(screen)")
        }
        // The error event on stderr: type and message.
        for tag in ["E01:", "E02:"] {
            #expect(screen.contains(tag + HostileRecording.shown), "\(tag) is not shown escaped:\n\(screen)")
        }
    }

    /// What reaches the terminal, byte for byte: no control but line feed,
    /// tab and the renderer's own dim, reset and `\r` + erase line.
    @Test(.enabled(if: TerminalRun.available, "needs script(1)"))
    func theOnlyControlSequencesOnTheTerminalAreTheRenderersOwn() throws {
        guard let executable = CLI.executable else { return }
        for stream in [HostileRecording.stream, HostileRecording.errorStream] {
            let file = try CLI.temporaryFile(Array(stream.utf8))
            let (status, bytes) = try TerminalRun.run("'\(executable.path)' replay '\(file)' --speed 0")
            #expect(status == 0 || status == 1)
            #expect(bytes.count > 200, "\(String(decoding: bytes, as: UTF8.self))")
            let problems = TerminalBytes.foreignControls(in: bytes)
            #expect(problems.isEmpty, "\(problems.prefix(5))")
        }
    }

    /// `events` on a terminal: its JSON lines keep their values, with DEL
    /// and C1 written as JSON escapes; to a pipe, the bytes are as before.
    @Test(.enabled(if: TerminalRun.available, "needs script(1)"))
    func eventsOnATerminalEscapeC1AsJSON() throws {
        guard let executable = CLI.executable else { return }
        let stream = "event: \u{9B}2J\ndata: {\"t\":\"\u{9D}52;c;eA==\u{9C}\u{7F}\"}\n\n"
        let file = try CLI.temporaryFile(Array(stream.utf8))
        let bytes = try TerminalRun.run("'\(executable.path)' events '\(file)'").bytes
        let shown = String(decoding: bytes, as: UTF8.self)
        #expect(TerminalBytes.foreignControls(in: bytes).isEmpty, "\(shown.debugDescription)")
        #expect(shown.contains(#"{"event":"\u009b2J","data":"{\"t\":\"\u009d52;c;eA==\u009c\u007f\"}""#), "\(shown.debugDescription)")
        let piped = try CLI.run(["events", file])
        #expect(piped.stdout.unicodeScalars.contains("\u{9B}"), "a pipe gets the bytes as they were")
    }

    /// `--final-json` is the API's JSON, escapes kept as sent, on a terminal too.
    @Test func finalJSONIsByteExact() throws {
        let file = try CLI.temporaryFile(Array(HostileRecording.stream.utf8))
        let result = try CLI.run(["replay", file, "--final-json"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try #require(result.lines.first)
        #expect(text.contains(#"F03:\u001b]52;c;SGk=\u0007\u001b]8;;u\u001b\\\u001b[2J"#), "\(text.prefix(300))")
        #expect(text.unicodeScalars.contains("\u{9B}") && text.unicodeScalars.contains("\u{9D}"), "C1 kept as sent")
        #expect(!text.contains(#"\u{1B}"#), "no terminal escape in the JSON")
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(Array(HostileRecording.stream.utf8))
        #expect(text == (try accumulator.finish()).messageJSON().compactJSON)
    }
}

/// Reading what a program wrote to a terminal.
enum TerminalBytes {
    /// Every control in `bytes` that is not line feed, tab, `ESC[2m`,
    /// `ESC[0m`, `\r` before line feed (the terminal's own) or `\r ESC[K`,
    /// and every scalar that is DEL or C1, or bytes that are not UTF-8.
    static func foreignControls(in bytes: [UInt8]) -> [String] {
        let allowed: [[UInt8]] = [[0x1B, 0x5B, 0x32, 0x6D], [0x1B, 0x5B, 0x30, 0x6D], [0x0D, 0x0A], [0x0D, 0x1B, 0x5B, 0x4B]]
        var problems: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x09 || (byte >= 0x20 && byte < 0x7F) {
                index += 1
                continue
            }
            if byte == 0x1B || byte == 0x0D {
                if let match = allowed.first(where: { bytes[index...].starts(with: $0) }) {
                    index += match.count
                    continue
                }
                problems.append("control \(byte) at \(index): \(String(decoding: bytes[index..<min(bytes.count, index + 16)], as: UTF8.self).debugDescription)")
                index += 1
                continue
            }
            if byte < 0x20 || byte == 0x7F {
                problems.append("control \(byte) at \(index)")
                index += 1
                continue
            }
            // A multi-byte character: decode it, and refuse C1 scalars.
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
                problems.append("not UTF-8 at \(index)")
                index += 1
                continue
            }
            if (0x80...0x9F).contains(scalar.value) { problems.append("C1 U+\(String(scalar.value, radix: 16)) at \(index)") }
            index += String(scalar).utf8.count
        }
        return problems
    }
}
