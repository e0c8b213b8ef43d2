// The one-line texts the renderer draws for calls, results and stop details.
// Long server texts (queries, code, titles) are cut to their first line
// here, and every piece passes ``TerminalText`` (`.singleLine`) through
// `firstLine`; the renderer sanitizes each whole line once more before
// writing it (see SnapshotRenderer), so a field that reaches a line without
// `firstLine` (a tool name, a block type, an id) is escaped all the same.

import ClaudeStreaming
import CommandLineDisplay
import IncrementalJSON

extension SnapshotRenderer {
    static func describeServerCall(_ call: ToolUseBlock) -> String {
        switch ServerToolRequest(name: call.name, input: call.input) {
        case .webSearch(let query): return "web search: \(query.map { firstLine($0) } ?? "…")"
        case .webFetch(let url): return "web fetch: \(url.map { firstLine($0) } ?? "…")"
        case .codeExecution(let code): return "code: \(code.map { firstLine($0) } ?? "…")"
        case .bash(let command): return "bash: \(command.map { firstLine($0) } ?? "…")"
        case .textEditor(let command, let path): return "editor: \(command ?? "…") \(path.map { firstLine($0) } ?? "")"
        case .other(let name, let input): return "\(name): \(short(input))"
        }
    }

    /// `→ name(input)`, or why the input could not be read.
    static func describeClientCall(_ call: ToolUseBlock) -> String {
        let name =
            call.kind == .mcpToolUse
            ? "MCP \(call.start["server_name"]?.stringValue.map { $0 + "." } ?? "")\(call.name)" : call.name
        if let error = call.inputError { return "→ \(name): input is not valid JSON (\(error))" }
        return "→ \(name)(\(short(call.input, limit: 400)))"
    }

    static func describe(_ result: ToolResultBlock) -> String {
        if result.type == "mcp_tool_result" {
            let isError = result.start["is_error"]?.boolValue == true
            let text =
                result.content?.arrayValue?.first(where: { $0["type"]?.stringValue == "text" })?["text"]?.stringValue
                ?? result.content?.stringValue ?? ""
            return (isError ? "→ MCP error" : "→ MCP result") + (text.isEmpty ? "" : ": " + firstLine(text))
        }
        switch ServerToolOutcome(result) {
        case .webSearchResults(let results):
            let titles = results.prefix(3).map { "\(firstLine($0.title ?? "untitled")) <\($0.url ?? "")>" }
            return "→ \(results.count) results" + (titles.isEmpty ? "" : ": " + titles.joined(separator: "; "))
        case .webFetch(let url, let retrievedAt, let document):
            let title = document?["title"]?.stringValue.map { " \"\(firstLine($0))\"" } ?? ""
            return "→ fetched \(url ?? "?")\(title)" + (retrievedAt.map { " at \($0)" } ?? "")
        case .execution(let stdout, let stderr, let code, _):
            let output = firstLines(stdout ?? "", count: 3)
            let errors = firstLines(stderr ?? "", count: 1)
            return "→ exit \(code.map(String.init) ?? "?")" + (output.isEmpty ? "" : ": \(output)")
                + (errors.isEmpty ? "" : " (stderr: \(errors))")
        case .error(let type, let code): return "→ error \(code ?? type)"
        case .other(let block): return "→ \(block.type)"
        }
    }

    /// `refused (cyber): explanation` for refusal stop details.
    static func describeStopDetails(_ details: JSONValue) -> String? {
        guard let type = details["type"]?.stringValue else { return nil }
        let category = details["category"]?.stringValue.map { " (\($0))" } ?? ""
        let explanation = details["explanation"]?.stringValue.map { ": " + firstLine($0) } ?? ""
        return (type == "refusal" ? "refused" : type) + category + explanation
    }

    /// Compact JSON cut to `limit` characters.
    static func short(_ value: JSONValue, limit: Int = 120) -> String {
        firstLine(value.compactJSON, limit: limit)
    }

    /// The first line of `text`, cut to `limit` characters, control characters escaped.
    static func firstLine(_ text: String, limit: Int = 200) -> String {
        let line = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
        let cut = line.prefix(limit)
        return TerminalText.sanitized(cut) + (cut.endIndex < line.endIndex ? "…" : "")
    }

    /// Up to `count` lines joined by ` ⏎ `.
    static func firstLines(_ text: String, count: Int) -> String {
        text.split(separator: "\n", maxSplits: count, omittingEmptySubsequences: true).prefix(count)
            .map { firstLine(String($0)) }.joined(separator: " ⏎ ")
    }
}
