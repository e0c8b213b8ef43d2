// `claude-stream chat PROMPT`: one real streamed request, rendered live like
// `replay`. The key comes from ANTHROPIC_API_KEY and is never printed.
// Exit codes: 0 the message completed; 3 it ended early (the stream stopped
// before `message_stop`, the connection dropped or timed out; the partial
// message is still shown); 1 a protocol error or an `error` event mid-stream;
// 2 the request failed before the stream (HTTP error, missing key, refused
// request, network), with the typed error on stderr; 64 bad usage.

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
        usage: claude-stream chat PROMPT [--model ID] [--system TEXT] [--effort LEVEL] [--search]
                                         [--schema FILE] [--base-url URL] [--max-tokens N] [--final-json]
        """

    struct Options {
        var prompt: String?
        var model = ClaudeModel.opus5.id
        var system: String?
        var effort: String?
        var search = false
        var schemaPath: String?
        var baseURL: String?
        var maxTokens = 4096
        var finalJSON = false
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let options: Options
        do throws(UsageError) { options = try parse(arguments) } catch {
            CLIOutput.standardError("chat: \(error.message)\n" + usage)
            return 64
        }
        var schema: JSONValue?
        if let path = options.schemaPath {
            do throws(InputError) {
                let bytes = try StreamInput.readAll(path)
                do throws(JSONParseError) { schema = try JSONValue.parse(bytes) } catch {
                    CLIOutput.standardError("chat: \(path) is not a JSON schema: \(error)")
                    return 64
                }
            } catch {
                CLIOutput.standardError("chat: \(error.message)")
                return 66
            }
        }
        var configuration = ClientConfiguration(credentials: Credentials.apiKeyFromEnvironment(ProcessInfo.processInfo.environment))
        if let base = options.baseURL {
            guard let url = URL(string: base), url.scheme != nil else {
                CLIOutput.standardError("chat: --base-url: not a URL: \(base)")
                return 64
            }
            configuration.baseURL = url
        }
        configuration.retryPolicy = RetryPolicy(maxRetries: 0)
        let client = MessagesClient(configuration: configuration)
        let model = await resolveModel(options.model, client: client)
        let request = MessageRequest(
            model: model, messages: [.user(options.prompt ?? "")], system: options.system,
            maxTokens: options.maxTokens, effort: options.effort.map(EffortLevel.init),
            outputSchema: schema, serverTools: options.search ? [.webSearch()] : [])
        return await stream(request, client: client, finalJSON: options.finalJSON)
    }

    /// A compiled-in model, else the Models API's answer, else (a relay
    /// that does not serve /v1/models) an identifier that accepts any field.
    static func resolveModel(_ id: String, client: MessagesClient) async -> ClaudeModel {
        if let known = ClaudeModel.known(id: id) { return known }
        do throws(TransportError) { return try await client.model(lookingUp: id) } catch {
            return ClaudeModel(id: id, capabilities: .all)
        }
    }

    static func stream(_ request: MessageRequest, client: MessagesClient, finalJSON: Bool) async -> Int32 {
        let terminal = isatty(1) == 1
        var renderer = SnapshotRenderer(isTerminal: terminal)
        var last: MessageSnapshot?
        do throws(TransportError) {
            for try await snapshot in try client.stream(request) {
                last = snapshot
                if !finalJSON { renderer.render(snapshot) }
            }
            guard let last else {
                CLIOutput.standardError("chat: the stream ended without a message")
                return 3
            }
            if finalJSON { CLIOutput.standardOutput(last.messageJSON().compactJSON) } else { renderer.finish(last) }
            return 0
        } catch {
            let partial = error.snapshot ?? last
            if let partial {
                if finalJSON { CLIOutput.standardOutput(partial.messageJSON().compactJSON) } else { renderer.finish(partial, note: "incomplete") }
            }
            CLIOutput.standardError("chat: \(error)")
            return exitStatus(for: error)
        }
    }

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

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--model": options.model = try value(argument)
            case "--system": options.system = try value(argument)
            case "--effort": options.effort = try value(argument)
            case "--search": options.search = true
            case "--schema": options.schemaPath = try value(argument)
            case "--base-url": options.baseURL = try value(argument)
            case "--final-json": options.finalJSON = true
            case "--max-tokens":
                let text = try value(argument)
                guard let number = Int(text), number > 0 else { throw UsageError("--max-tokens: not a positive number: \(text)") }
                options.maxTokens = number
            default:
                guard !argument.hasPrefix("--"), options.prompt == nil else {
                    throw UsageError(options.prompt == nil ? "unknown option \(argument)" : "only one PROMPT")
                }
                options.prompt = argument
            }
            index += 1
        }
        guard options.prompt != nil else { throw UsageError("missing PROMPT") }
        return options
    }
}
