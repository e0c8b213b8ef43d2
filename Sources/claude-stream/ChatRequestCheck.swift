// The flags of `chat` go through the library's request checks before any
// traffic (exit 64): the raw body chat sends is mirrored, for the checked
// fields only, as a MessageRequest and given to RequestEncoder, which
// refuses an effort level the model does not accept, a feature it lacks
// (structured output for --schema, web search for --search), two tools
// with one name and a tool_choice naming an undeclared tool.
//
// A model the library does not know is assumed to accept every feature
// (it may be newer than this build), but an effort level must still be one
// of the public names.

import ClaudeTransport
import IncrementalJSON

enum ChatRequestCheck {
    /// Why the request would be refused, or nil.
    static func problem(_ conversation: ChatConversation, _ options: ChatOptions) -> String? {
        // The first-party ID: a cloud ID (anthropic.claude-…-v1:0) maps to no capabilities.
        let id = options.model ?? conversation["model"]?.stringValue ?? ClaudeModel.opus5.id
        let model = ClaudeModel.known(id: id) ?? ClaudeModel(id: id, capabilities: .all)
        let effort = options.effort.map(EffortLevel.init)
        if let effort, ClaudeModel.known(id: id) == nil, effort.rank == nil {
            let names = EffortLevel.ordered.map(\.name).joined(separator: ", ")
            return "--effort: '\(effort.name)' is not an effort level (expected one of \(names))"
        }
        var schema: JSONValue?
        if options.schemaPath != nil { schema = conversation["output_config"]?["format"]?["schema"] }
        let declared = conversation["tools"]?.arrayValue.map(Array.init) ?? []
        func isSearch(_ tool: JSONValue) -> Bool { tool["type"]?.stringValue?.hasPrefix("web_search_") ?? false }
        let tools = declared.filter { !isSearch($0) }.map(ToolDefinition.raw)
        let search = options.search || declared.contains(where: isSearch)
        let probe = MessageRequest(
            model: model, messages: [.user("check")], effort: effort, outputSchema: schema,
            serverTools: search ? [.webSearch()] : [], tools: tools, toolChoice: options.toolChoice)
        do throws(RequestError) { _ = try RequestEncoder.encode(probe) } catch {
            return "the request would be refused: \(error)"
        }
        return nil
    }
}
