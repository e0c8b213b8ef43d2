import Foundation
import IncrementalJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Capabilities of a model the package does not know, read from the Models
// API: `GET /v1/models/{id}` answers `capabilities` with one entry per
// feature, each `{"supported": Bool, …}`; effort lists its levels the same
// way and thinking its types. The API does not describe sampling parameters
// or web tools: sampling is assumed rejected (the safe side: the encoder then
// refuses rather than sending a field the model may 400 on) and web search
// and fetch assumed available, as on every current model.

extension ModelCapabilities {
    /// Capabilities from a Models API `capabilities` object.
    ///
    /// - Complexity: O(size of the object).
    public init(modelsAPI capabilities: JSONValue) {
        func supported(_ value: JSONValue?) -> Bool { value?["supported"]?.boolValue ?? false }
        let effort = capabilities["effort"]
        var levels: [EffortLevel] = []
        if supported(effort), let object = effort?.objectValue {
            for (name, value) in object.entries where name != "supported" && supported(value) {
                levels.append(EffortLevel(name))
            }
        }
        var tools: Set<ServerToolKind> = [.webSearch, .webFetch]
        if supported(capabilities["code_execution"]) { tools.insert(.codeExecution) }
        self.init(
            sampling: [],
            effortLevels: levels,
            adaptiveThinking: supported(capabilities["thinking"]?["types"]?["adaptive"]),
            structuredOutput: supported(capabilities["structured_outputs"]),
            imageInput: supported(capabilities["image_input"]),
            serverTools: tools,
            manualThinking: supported(capabilities["thinking"]?["types"]?["enabled"]))
    }
}

extension MessagesClient {
    /// The model `id` with capabilities from `GET /v1/models/{id}`.
    ///
    /// - Throws: ``TransportError`` (an HTTP failure such as 404 for an unknown id).
    public func model(lookingUp id: String) async throws(TransportError) -> ClaudeModel {
        let credentials = try checkedCredentials()
        var secrets = credentials.secretValues
        var bearer: String?
        if case .bearer(let provider) = credentials {
            do { bearer = try await provider.token(refresh: false) } catch { throw .credentialProvider("\(type(of: error))") }
            secrets += bearer.map { [$0] } ?? []
        }
        let url = configuration.baseURL.appendingPathComponent("v1/models").appendingPathComponent(id)
        var request = configuration.request("GET", url: url, credentials: credentials, bearer: bearer)
        request.setValue(RequestEncoder.apiVersion, forHTTPHeaderField: "anthropic-version")
        let redactor = SecretRedactor(secrets: secrets)
        let (status, headers, body) = try await boundedFetch(request, redactor: redactor)
        guard (200..<300).contains(status), isIdentity(headers["content-encoding"]) else {
            let encoded: HTTPFailure.Kind? = isIdentity(headers["content-encoding"]) ? nil : .unrequestedContentEncoding
            throw .http(HTTPFailure(status: status, headers: headers, body: body, redactor: redactor, kind: encoded))
        }
        guard let value = try? JSONValue.parse(body), let capabilities = value["capabilities"], value["id"] != nil else {
            throw .invalidResponse("the Models API answer has no id or capabilities")
        }
        return ClaudeModel(id: value["id"]?.stringValue ?? id, capabilities: ModelCapabilities(modelsAPI: capabilities))
    }
}
