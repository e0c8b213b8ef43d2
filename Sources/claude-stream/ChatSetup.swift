// The conversation `chat` starts from, as a SessionTranscript: the
// transcript file when it exists, else `--request FILE`, else a new one;
// then the flags written over its setup (the one request template the
// session sends). Both files are API request bodies read by the library's
// one reader, so fields chat does not know are sent as given and opaque
// blocks go back byte for byte.
//
// A file that cannot be read exits 66; one that is not a request body
// (bad JSON, the wrong shape, nesting past the limit, broken tool pairing)
// exits 65, and the transcript file is then never written. The client's
// configuration comes from the flags too: a cloud without its credential
// exits 2 before any traffic.

import ClaudeSession
import ClaudeTransport
import Foundation
import IncrementalJSON

struct ChatSetupFailure: Error {
    var message: String
    /// 2 no credential, 64 usage, 65 not valid, 66 cannot be read.
    var status: Int32
}

enum ChatSetup {
    /// The transcript to continue, the flags applied.
    static func transcript(_ options: ChatOptions) throws(ChatSetupFailure) -> SessionTranscript {
        var transcript: SessionTranscript
        if let path = options.transcriptPath, let saved = try read(path) {
            transcript = saved
        } else if let path = options.requestPath {
            guard let given = try read(path) else {
                throw ChatSetupFailure(message: "cannot open \(path): no such file", status: 66)
            }
            transcript = given
        } else {
            transcript = SessionTranscript(setup: RequestSetup(model: model(options.model ?? ClaudeModel.opus5.id, options)))
        }
        try apply(options, to: &transcript.setup)
        return transcript
    }

    /// The client: the endpoint and its credential, --base-url, --timeout,
    /// --retries (each retry one line on stderr; none sent past `deadline`).
    static func client(
        _ options: ChatOptions, environment: [String: String], deadline: ContinuousClock.Instant?
    ) throws(ChatSetupFailure) -> ClientConfiguration {
        var baseURL: URL?
        if let base = options.baseURL {
            guard let url = URL(string: base), url.scheme != nil else {
                throw ChatSetupFailure(message: "--base-url: not a URL: \(base)", status: 64)
            }
            baseURL = url
        }
        var configuration = ClientConfiguration(credentials: Credentials.apiKeyFromEnvironment(environment))
        if var endpoint = options.endpoint {
            // Checked before anything is sent: the name of the variable, never its value.
            guard let credentials = endpoint.credentials(from: environment) else {
                throw ChatSetupFailure(message: "no credential: set \(endpoint.credentialVariable)", status: 2)
            }
            endpoint.baseURL = baseURL
            configuration = ClientConfiguration(credentials: credentials).using(endpoint)
        } else if let baseURL {
            configuration.baseURL = baseURL
        }
        configuration.retryPolicy = RetryPolicy(
            maxRetries: options.retries, deadline: deadline,
            onRetry: { attempt in CLIOutput.standardError("chat: \(attempt)") })
        if let timeout = options.timeout { configuration.overallTimeout = timeout }
        return configuration
    }

    /// The request body in `path` (the library's transcript reader; a body
    /// from elsewhere may leave out what chat has defaults for: the model,
    /// the messages); nil when there is no such file or it is empty.
    static func read(_ path: String) throws(ChatSetupFailure) -> SessionTranscript? {
        do throws(TranscriptFileError) { return try TranscriptFile(path: path).read(defaultModel: .opus5) } catch {
            // Not valid input (65) when it was read; else it could not be read (66).
            let status: Int32 =
                switch error.kind {
                case .invalid, .tooLarge: 65
                default: 66
                }
            throw ChatSetupFailure(message: "\(error); it was left as it is", status: status)
        }
    }

    /// The model `id` names, on the cloud the flags choose.
    static func model(_ id: String, _ options: ChatOptions) -> ClaudeModel {
        ClaudeModel.resolving(options.endpoint.map { $0.modelID(for: id) } ?? id)
    }

    /// The flags written over `setup`.
    static func apply(_ options: ChatOptions, to setup: inout RequestSetup) throws(ChatSetupFailure) {
        if let id = options.model {
            setup.model = model(id, options)
        } else if options.endpoint != nil {
            setup.model = model(setup.model.id, options)
        }
        if let maxTokens = options.maxTokens { setup.maxTokens = maxTokens }
        if let system = options.system { setup.system = .text(system) }
        if let path = options.toolsPath {
            guard let tools = try json(path, "a JSON array of tool definitions")?.arrayValue else {
                throw ChatSetupFailure(message: "\(path) is not a JSON array of tool definitions", status: 65)
            }
            setup.tools = tools.map(ToolDefinition.init(apiJSON:))
        }
        if options.search, !setup.serverTools.contains(where: { $0.kind == .webSearch }),
            !setup.tools.contains(where: { $0.name == ServerToolKind.webSearch.rawValue })
        {
            setup.serverTools.append(.webSearch())
        }
        if let choice = options.toolChoice { setup.toolChoice = choice }
        if let effort = options.effort {
            let level = EffortLevel(effort)
            if level.rank == nil, !setup.model.capabilities.effortLevels.contains(level) {
                let names = EffortLevel.ordered.map(\.name).joined(separator: ", ")
                throw ChatSetupFailure(message: "--effort: '\(effort)' is not an effort level (expected one of \(names))", status: 64)
            }
            setup.effort = level
        }
        if let path = options.schemaPath, let schema = try json(path, "a JSON schema") { setup.outputSchema = schema }
    }

    /// The JSON in `path` (a flag's file).
    static func json(_ path: String, _ what: String) throws(ChatSetupFailure) -> JSONValue? {
        guard let bytes = try contents(path) else {
            throw ChatSetupFailure(message: "cannot open \(path): no such file", status: 66)
        }
        do throws(JSONParseError) { return try JSONValue.parse(bytes) } catch {
            throw ChatSetupFailure(message: "\(path) is not \(what): \(error)", status: 65)
        }
    }

    /// The bytes of `path`, nil when there is no such file.
    static func contents(_ path: String) throws(ChatSetupFailure) -> [UInt8]? {
        do throws(TranscriptFileError) { return try TranscriptFile(path: path).readBytes() } catch {
            // Too large is not valid input (65); any other failure is one of reading (66).
            let status: Int32 = if case .tooLarge = error.kind { 65 } else { 66 }
            throw ChatSetupFailure(message: error.description, status: status)
        }
    }
}
