import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalJSON

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
        let credentials = try _checkedCredentials()
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent("v1/models").appendingPathComponent(id))
        request.httpMethod = "GET"
        request.timeoutInterval = configuration.idleTimeout
        request.setValue(RequestEncoder.apiVersion, forHTTPHeaderField: "anthropic-version")
        switch credentials {
        case .apiKey(let key): request.setValue(key, forHTTPHeaderField: "x-api-key")
        case .proxied(let headers): for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        case .bearer(let provider):
            do { request.setValue("Bearer \(try await provider.token(refresh: false))", forHTTPHeaderField: "authorization") }
            catch { throw .credentialProvider("\(type(of: error))") }
        }
        let (status, headers, body) = try await _fetch(request)
        guard (200..<300).contains(status) else {
            throw .http(HTTPFailure(status: status, headers: headers, body: body, redacting: credentials._secrets))
        }
        guard let value = try? JSONValue.parse(body), let capabilities = value["capabilities"], value["id"] != nil else {
            throw .invalidResponse("the Models API answer has no id or capabilities")
        }
        return ClaudeModel(id: value["id"]?.stringValue ?? id, capabilities: ModelCapabilities(modelsAPI: capabilities))
    }

    private func _fetch(_ request: URLRequest) async throws(TransportError) -> (Int, [String: String], [UInt8]) {
        let result: Result<(Int, [String: String], [UInt8]), TransportError> = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(with: request) { data, response, error in
                guard let http = response as? HTTPURLResponse else {
                    let reason = error.map { "\($0.localizedDescription)" } ?? "no response"
                    continuation.resume(returning: .failure(.network(reason)))
                    return
                }
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                }
                continuation.resume(returning: .success((http.statusCode, headers, Array(data ?? Data()))))
            }
            task.resume()
        }
        return try result.get()
    }
}
