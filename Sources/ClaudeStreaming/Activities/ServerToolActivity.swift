// Server-tool activity: a placeholder per server tool call that fills in.
//
// A `server_tool_use` block becomes an activity the moment it starts: it holds
// its place among the text (its content index), shows its input as it
// streams (typed where the tool is known: a search query, a fetched URL,
// code, a bash command, a text-editor command and path), and gets its outcome
// when the result block with the same `tool_use_id` arrives — in this
// response, or through ``ServerToolLedger`` in a later one. Activities are
// derived from the content on demand, so taking a snapshot costs nothing
// extra for them.

public import IncrementalJSON

/// One server tool call and, once it arrived, its outcome.
public struct ServerToolActivity: Sendable, Hashable {
    /// The call's `id` (results name it as `tool_use_id`).
    public var id: String
    /// `web_search`, `web_fetch`, `code_execution`, `bash_code_execution`, …
    public var name: String
    /// Index of the call's block in its message's content.
    public var contentIndex: Int
    /// The input as parsed so far.
    public var input: JSONValue
    /// True once the call's input is complete (its block stopped).
    public var inputIsComplete: Bool
    /// The result, once its block arrived.
    public var outcome: ServerToolOutcome?

    /// What the call asks for, typed where the tool is known.
    public var request: ServerToolRequest { ServerToolRequest(name: name, input: input) }
}

/// A server tool call's input, typed for the tools this package knows.
public enum ServerToolRequest: Sendable, Hashable {
    /// `web_search`: the query, once its input has it.
    case webSearch(query: String?)
    /// `web_fetch`: the URL to fetch.
    case webFetch(url: String?)
    /// `code_execution`: the code to run.
    case codeExecution(code: String?)
    /// `bash_code_execution`: the shell command.
    case bash(command: String?)
    /// `text_editor_code_execution`: the editor command (`view`, `create`, …) and the file's path.
    case textEditor(command: String?, path: String?)
    /// Any other server tool: its name and input, verbatim.
    case other(name: String, input: JSONValue)

    /// Types the input of a call to the server tool `name`.
    public init(name: String, input: JSONValue) {
        switch name {
        case "web_search": self = .webSearch(query: input["query"]?.stringValue)
        case "web_fetch": self = .webFetch(url: input["url"]?.stringValue)
        case "code_execution": self = .codeExecution(code: input["code"]?.stringValue)
        case "bash_code_execution": self = .bash(command: input["command"]?.stringValue)
        case "text_editor_code_execution":
            self = .textEditor(command: input["command"]?.stringValue, path: input["path"]?.stringValue)
        default: self = .other(name: name, input: input)
        }
    }
}

/// A server tool's result, typed by its block type and content.
public enum ServerToolOutcome: Sendable, Hashable {
    /// A `web_search_tool_result`: the results, in order.
    case webSearchResults([WebSearchResult])
    /// A `web_fetch_tool_result`: the URL fetched, when (`retrieved_at`, as sent) and the `document` block, verbatim.
    case webFetch(url: String?, retrievedAt: String?, document: JSONValue?)
    /// Code, bash or text-editor execution output.
    case execution(stdout: String?, stderr: String?, returnCode: Int?, content: JSONValue)
    /// An error result (`*_tool_result_error`): its `error_code`.
    case error(type: String, errorCode: String?)
    /// A result this package does not type: its block, verbatim.
    case other(ToolResultBlock)

    /// Types the result `block` (a renderer that meets result blocks one by
    /// one uses this instead of ``MessageSnapshot/serverToolActivities``).
    ///
    /// - Complexity: O(size of the block's content).
    public init(_ block: ToolResultBlock) {
        let content = block.content ?? .null
        if let type = content["type"]?.stringValue, type.hasSuffix("_error") {
            self = .error(type: type, errorCode: content["error_code"]?.stringValue)
            return
        }
        switch block.type {
        case "web_search_tool_result":
            let items = content.arrayValue.map(Array.init) ?? []
            self = .webSearchResults(items.map(WebSearchResult.init))
        case "web_fetch_tool_result":
            self = .webFetch(
                url: content["url"]?.stringValue, retrievedAt: content["retrieved_at"]?.stringValue,
                document: content["content"] ?? content["document"])
        case "code_execution_tool_result", "bash_code_execution_tool_result",
            "text_editor_code_execution_tool_result":
            self = .execution(
                stdout: content["stdout"]?.stringValue, stderr: content["stderr"]?.stringValue,
                returnCode: try? content["return_code"]?.numberValue?.int(), content: content)
        default:
            self = .other(block)
        }
    }
}

/// One web search result.
public struct WebSearchResult: Sendable, Hashable {
    /// The page's title.
    public var title: String?
    /// The page's URL.
    public var url: String?
    /// How old the page is (`page_age`, as sent, e.g. `April 30, 2025`).
    public var pageAge: String?
    /// The opaque `encrypted_content`, kept for replay.
    public var encryptedContent: String?

    init(_ json: JSONValue) {
        title = json["title"]?.stringValue
        url = json["url"]?.stringValue
        pageAge = json["page_age"]?.stringValue
        encryptedContent = json["encrypted_content"]?.stringValue
    }
}

extension MessageSnapshot {
    /// Every server tool call of this message in content order, each with
    /// the outcome that arrived in this message (if any).
    ///
    /// - Complexity: O(blocks).
    public var serverToolActivities: [ServerToolActivity] {
        var results: [String: ToolResultBlock] = [:]
        for block in content {
            if case .toolResult(let r) = block { results[r.toolUseID] = r }
        }
        return content.enumerated().compactMap { index, block in
            guard case .toolUse(let call) = block, call.kind == .serverToolUse else { return nil }
            return ServerToolActivity(
                id: call.id, name: call.name, contentIndex: index, input: call.input,
                inputIsComplete: call.isComplete, outcome: results[call.id].map(ServerToolOutcome.init))
        }
    }
}

/// Pairs server tool calls with results across responses: a call whose
/// result arrives in a later response (after a client tool round trip, or
/// `pause_turn`) finds it here.
public struct ServerToolLedger: Sendable, Hashable {
    private var calls: [ServerToolActivity] = []
    private var results: [String: ToolResultBlock] = [:]

    /// An empty ledger.
    public init() {}

    /// Records a message's calls and results (call it with each final snapshot).
    public mutating func record(_ snapshot: MessageSnapshot) {
        for block in snapshot.content {
            if case .toolResult(let r) = block { results[r.toolUseID] = r }
        }
        for activity in snapshot.serverToolActivities where !calls.contains(where: { $0.id == activity.id }) {
            calls.append(activity)
        }
    }

    /// Every call recorded so far, in order, with its outcome from any response.
    public var activities: [ServerToolActivity] {
        calls.map { call in
            var paired = call
            if let result = results[call.id] { paired.outcome = ServerToolOutcome(result) }
            return paired
        }
    }

    /// Calls still waiting for a result.
    public var pending: [ServerToolActivity] { activities.filter { $0.outcome == nil } }
}
