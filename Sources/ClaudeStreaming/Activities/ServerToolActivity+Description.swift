// One-line readable forms of server-tool activity: what was asked (a query,
// a URL, a command) and what came back, instead of the enum's default
// `webSearch(query: Optional("P"))`.

extension ServerToolActivity: CustomStringConvertible, CustomDebugStringConvertible {
    /// `web search "Lisbon weather" (srvtoolu_1) → 2 results`.
    public var description: String {
        "\(request) (\(id))" + (inputIsComplete ? "" : " streaming") + (outcome.map { " → \($0)" } ?? ", no result yet")
    }

    public var debugDescription: String { description }
}

extension ServerToolRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// `web search "query"`, `web fetch <url>`, `code (3 lines)`, `bash "ls"`, `editor view a.txt`.
    public var description: String {
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "…" }
        switch self {
        case .webSearch(let query): return "web search \(quoted(query))"
        case .webFetch(let url): return "web fetch " + (url.map { "<\($0)>" } ?? "…")
        case .codeExecution(let code):
            return "code " + (code.map { "(\($0.split(separator: "\n", omittingEmptySubsequences: false).count) lines)" } ?? "…")
        case .bash(let command): return "bash \(quoted(command))"
        case .textEditor(let command, let path): return "editor \(command ?? "…") \(path ?? "…")"
        case .other(let name, let input):
            let json = input.compactJSON
            return "\(name) " + (json.count > 60 ? String(json.prefix(60)) + "…" : json)
        }
    }

    public var debugDescription: String { description }
}

extension ServerToolOutcome: CustomStringConvertible, CustomDebugStringConvertible {
    /// `2 results`, `fetched <url>`, `exit 0, 12 bytes of stdout`, `error max_uses_exceeded`.
    public var description: String {
        switch self {
        case .webSearchResults(let results): return "\(results.count) result\(results.count == 1 ? "" : "s")"
        case .webFetch(let url, let retrievedAt, _):
            return "fetched " + (url.map { "<\($0)>" } ?? "?") + (retrievedAt.map { " at \($0)" } ?? "")
        case .execution(let stdout, let stderr, let returnCode, _):
            return "exit \(returnCode.map(String.init) ?? "?"), \(stdout?.utf8.count ?? 0) bytes of stdout, "
                + "\(stderr?.utf8.count ?? 0) of stderr"
        case .error(let type, let errorCode): return "error \(errorCode ?? type)"
        case .other(let block): return block.type
        }
    }

    public var debugDescription: String { description }
}
