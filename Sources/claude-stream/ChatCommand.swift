// `claude-stream chat [PROMPT]`: a streamed conversation, with client tools
// run as shell commands, carried across runs in a transcript file. The key
// comes from ANTHROPIC_API_KEY (with --bedrock from AWS_BEARER_TOKEN_BEDROCK,
// with --vertex from CLOUDSDK_AUTH_ACCESS_TOKEN) and is never printed nor
// given to a tool.
//
// Exit codes: 0 the conversation stopped normally (also at a called tool
// without a command); 4 it stopped at --max-turns with tool calls pending;
// 3 a response ended early (stream stopped before `message_stop`, the
// connection dropped, a timeout; the partial message is still shown); 1 a
// protocol error or an `error` event mid-stream; 2 the request failed before
// the stream (HTTP error, missing key, network), with the typed error on
// stderr; 64 bad usage; 65 an input file that is not valid; 66 one that
// cannot be read; 73 the transcript cannot be written.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ChatCommand {
    static let usage = """
        usage: claude-stream chat [PROMPT] [--request FILE] [--tools FILE] [--tool NAME=COMMAND]
                                  [--tool-json NAME=COMMAND] [--tool-choice auto|any|none|tool:NAME]
                                  [--max-turns N] [--transcript FILE] [--final-json] [--timeout SECONDS]
                                  [--model ID] [--system TEXT] [--effort LEVEL] [--search] [--schema FILE]
                                  [--base-url URL] [--max-tokens N]
                                  [--bedrock REGION | --vertex PROJECT/REGION]
        With no PROMPT and a terminal on stdin: an interactive chat (an empty line ends it).
        The key comes from ANTHROPIC_API_KEY; with --bedrock REGION (Amazon Bedrock) a Bedrock API
        key from AWS_BEARER_TOKEN_BEDROCK, with --vertex PROJECT/REGION (Google Vertex AI) an access
        token from CLOUDSDK_AUTH_ACCESS_TOKEN (e.g. $(gcloud auth print-access-token)). There
        --model takes the cloud's ID (us.anthropic.claude-opus-4-6-v1:0, claude-haiku-4-5@20251001)
        or a first-party one, mapped (claude-opus-4-6 -> anthropic.claude-opus-4-6-v1:0 on Bedrock);
        --base-url replaces the cloud's host.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let options: ChatOptions
        do throws(ChatUsageError) { options = try ChatOptions.parse(arguments) } catch {
            CLIOutput.standardError("chat: \(error.message)\n" + usage)
            return 64
        }
        // A tool that exits without reading its input must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var conversation: ChatConversation
        do throws(ChatFiles.Failure) { conversation = try start(options) } catch {
            CLIOutput.standardError("chat: \(error.message)")
            return error.status
        }
        let baseURL: URL?
        if let base = options.baseURL {
            guard let url = URL(string: base), url.scheme != nil else {
                CLIOutput.standardError("chat: --base-url: not a URL: \(base)")
                return 64
            }
            baseURL = url
        } else {
            baseURL = nil
        }
        let environment = ProcessInfo.processInfo.environment
        var configuration: ClientConfiguration
        if var endpoint = options.endpoint {
            // Checked before anything is sent: the name of the variable, never its value.
            guard let credentials = endpoint.credentials(from: environment) else {
                CLIOutput.standardError("chat: no credential: set \(endpoint.credentialVariable)")
                return 2
            }
            endpoint.baseURL = baseURL
            configuration = ClientConfiguration(credentials: credentials).using(endpoint)
        } else {
            configuration = ClientConfiguration(credentials: Credentials.apiKeyFromEnvironment(environment))
            if let baseURL { configuration.baseURL = baseURL }
        }
        configuration.retryPolicy = RetryPolicy(maxRetries: 0)
        var run = ChatRun(options: options, configuration: configuration,
                          deadline: options.timeout.map { ContinuousClock.now + .seconds($0) })

        if let prompt = options.prompt {
            return await run.exchange(&conversation, prompt: prompt)
        }
        if isatty(0) == 1 {
            var status: Int32 = 0
            while true {
                CLIOutput.standardError("> ")
                guard let line = readLine(), !line.isEmpty else { break }
                status = await run.exchange(&conversation, prompt: line)
            }
            return status
        }
        if conversation.messages.last?["role"]?.stringValue == "user" {
            return await run.exchange(&conversation, prompt: nil)
        }
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            CLIOutput.standardError("chat: missing PROMPT (and nothing on stdin)\n" + usage)
            return 64
        }
        return await run.exchange(&conversation, prompt: input)
    }

    /// The conversation to continue: the transcript if it exists, else
    /// `--request`, else empty; then the flags written over it.
    static func start(_ options: ChatOptions) throws(ChatFiles.Failure) -> ChatConversation {
        var body: JSONValue = .object([])
        if let path = options.transcriptPath, let saved = try ChatFiles.json(path, "a transcript (a request body)", mustExist: false) {
            body = saved
        } else if let path = options.requestPath, let given = try ChatFiles.json(path, "a JSON request body") {
            body = given
        }
        guard body.objectValue != nil else { throw ChatFiles.Failure(message: "the request body is not a JSON object", status: 65) }
        var conversation = ChatConversation(body: body)
        if let model = options.model { conversation["model"] = .string(model) }
        if conversation["model"] == nil { conversation["model"] = .string(ClaudeModel.opus5.id) }
        if let endpoint = options.endpoint, let model = conversation["model"]?.stringValue {
            conversation["model"] = .string(endpoint.modelID(for: model))
        }
        if let maxTokens = options.maxTokens { conversation["max_tokens"] = .number(JSONNumber(maxTokens)) }
        if conversation["max_tokens"] == nil { conversation["max_tokens"] = .number(JSONNumber(4096)) }
        if let system = options.system { conversation["system"] = .string(system) }
        if let path = options.toolsPath {
            guard let tools = try ChatFiles.json(path, "a JSON array of tool definitions"), tools.arrayValue != nil else {
                throw ChatFiles.Failure(message: "\(path) is not a JSON array of tool definitions", status: 65)
            }
            conversation["tools"] = tools
        }
        if options.search {
            var tools = Array(conversation["tools"]?.arrayValue ?? JSONArray())
            if !tools.contains(where: { $0["name"]?.stringValue == "web_search" }) {
                tools.append(.object([("type", .string("web_search_20250305")), ("name", .string("web_search"))]))
            }
            conversation["tools"] = .array(tools)
        }
        if let choice = options.toolChoice { conversation["tool_choice"] = choice.json }
        var outputConfig = conversation["output_config"] ?? .object([])
        if let effort = options.effort { outputConfig = outputConfig.replacingFields([("effort", .string(effort))]) }
        if let path = options.schemaPath, let schema = try ChatFiles.json(path, "a JSON schema") {
            outputConfig = outputConfig.replacingFields([("format", .object([("type", .string("json_schema")), ("schema", schema)]))])
        }
        if outputConfig.objectValue?.isEmpty == false { conversation["output_config"] = outputConfig }
        return conversation
    }
}

/// One run of the loop: requests, tools, output, the transcript file.
struct ChatRun {
    let options: ChatOptions
    let configuration: ClientConfiguration
    let deadline: ContinuousClock.Instant?

    /// Sends `prompt` (nil: the conversation as it is) and runs the loop.
    mutating func exchange(_ conversation: inout ChatConversation, prompt: String?) async -> Int32 {
        // The state after the last complete step: what the transcript keeps if a request fails.
        var committed = conversation
        defer { save(committed) }
        var user: [JSONValue] = conversation.unansweredToolCalls.map(answer)
        if let prompt { user.append(.object([("type", .string("text")), ("text", .string(prompt))])) }
        conversation.appendUser(user)
        if prompt == nil, !user.isEmpty { committed = conversation }

        var requests = 0
        while true {
            requests += 1
            let outcome = await send(conversation)
            guard case .success(let message) = outcome else {
                if case .failure(let status) = outcome { return status }
                return 3
            }
            conversation.appendResponse(message)
            committed = conversation
            switch message.stopReason {
            case "tool_use":
                let calls = message.content.compactMap { block -> ToolUseBlock? in
                    if case .toolUse(let call) = block, call.kind == .toolUse { return call }
                    return nil
                }
                guard !calls.isEmpty, calls.allSatisfy({ options.toolCommands[$0.name] != nil }) else { return 0 }
                if requests >= options.maxTurns {
                    CLIOutput.standardError("chat: stopped after \(requests) requests (--max-turns) with \(calls.count) tool call(s) pending")
                    return 4
                }
                conversation.appendUser(calls.map { call in
                    let tool = options.toolCommands[call.name]
                    return ChatTools.run(call, command: tool?.command ?? "", json: tool?.json ?? false)
                })
                committed = conversation
            case "pause_turn":
                if requests >= options.maxTurns {
                    CLIOutput.standardError("chat: stopped after \(requests) requests (--max-turns) at pause_turn")
                    return 0
                }
            default:
                return 0
            }
        }
    }

    /// The result for a call left unanswered by an earlier run.
    func answer(_ call: JSONValue) -> JSONValue {
        let id = call["id"]?.stringValue ?? ""
        let name = call["name"]?.stringValue ?? ""
        guard let tool = options.toolCommands[name] else { return ChatTools.notRun(id, name: name) }
        return ChatTools.run(id: id, name: name, input: call["input"] ?? .object([]), inputError: nil, command: tool.command, json: tool.json)
    }

    enum Outcome {
        case success(MessageSnapshot)
        case failure(Int32)
    }

    /// Streams one request, rendering it; the final message or the exit status.
    func send(_ conversation: ChatConversation) async -> Outcome {
        var configuration = self.configuration
        if let deadline {
            let left = deadline - ContinuousClock.now
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            guard seconds > 0 else {
                CLIOutput.standardError("chat: --timeout \(options.timeout ?? 0) s reached")
                return .failure(3)
            }
            configuration.overallTimeout = seconds
        }
        let client = MessagesClient(configuration: configuration)
        var renderer = SnapshotRenderer(isTerminal: isatty(1) == 1)
        var last: MessageSnapshot?
        do throws(TransportError) {
            for try await snapshot in try client.stream(encoded: EncodedRequest(rawBody: conversation.body)) {
                last = snapshot
                if !options.finalJSON { renderer.render(snapshot) }
            }
            guard let last else {
                CLIOutput.standardError("chat: the stream ended without a message")
                return .failure(3)
            }
            if options.finalJSON { CLIOutput.standardOutput(last.messageJSON().compactJSON) } else { renderer.finish(last) }
            return .success(last)
        } catch {
            if let partial = error.snapshot ?? last {
                if options.finalJSON { CLIOutput.standardOutput(partial.messageJSON().compactJSON) } else { renderer.finish(partial, note: "incomplete") }
            }
            CLIOutput.standardError("chat: \(error)")
            return .failure(ChatCommand.exitStatus(for: error))
        }
    }

    func save(_ conversation: ChatConversation) {
        guard let path = options.transcriptPath else { return }
        do throws(ChatFiles.Failure) { try ChatFiles.write(conversation.fileBytes, to: path) } catch {
            CLIOutput.standardError("chat: \(error.message)")
        }
    }
}

extension ChatCommand {
    static func exitStatus(for error: TransportError) -> Int32 {
        switch error {
        case .missingCredential, .invalidRequest, .http, .network, .credentialProvider, .invalidResponse:
            return 2
        case .stream(let streamError):
            if case .incomplete = streamError.kind { return 3 }
            return 1
        case .connectionLost, .idleTimeout, .overallTimeout, .cancelled:
            return 3
        }
    }
}
