// Where an endpoint's credential is found in a process environment, by the
// names the clouds' own tools use, and the model ID each endpoint is sent.

extension ClaudeEndpoint {
    /// The environment variable a program reads this endpoint's
    /// credential from: `ANTHROPIC_API_KEY`, `AWS_BEARER_TOKEN_BEDROCK`
    /// (a Bedrock API key, the name AWS tools use) or
    /// `CLOUDSDK_AUTH_ACCESS_TOKEN` (an OAuth access token, as gcloud reads it).
    public var credentialVariable: String {
        switch classify {
        case .anthropic: "ANTHROPIC_API_KEY"
        case .bedrock: "AWS_BEARER_TOKEN_BEDROCK"
        case .vertex: "CLOUDSDK_AUTH_ACCESS_TOKEN"
        }
    }

    /// The credential from ``credentialVariable`` in `environment`, or nil
    /// when unset or empty. On Vertex the token is fixed (a refresh returns
    /// it again); a long-running caller supplies its own provider.
    public func credentials(from environment: [String: String]) -> Credentials? {
        guard let value = environment[credentialVariable], !value.isEmpty else { return nil }
        if case .vertex = classify { return .bearer(FixedToken(value: value)) }
        return .apiKey(value)
    }
}

extension ClaudeEndpoint {
    /// The model ID to send for `id`, which may be first-party or the cloud's
    /// own: on Bedrock a first-party ID (`claude-opus-4-6`) becomes
    /// `anthropic.claude-opus-4-6-v1:0`; on Vertex a dated one
    /// (`claude-haiku-4-5-20251001`) becomes `claude-haiku-4-5@20251001`.
    /// Anything else (a cloud ID, an inference profile, an ARN, the Anthropic
    /// API) is sent as given.
    public func modelID(for id: String) -> String {
        switch classify {
        case .anthropic:
            return id
        case .bedrock:
            guard ClaudeModel.firstPartyID(ofBedrock: id) == nil, ClaudeModel.known(id: id) != nil else { return id }
            return "anthropic.\(id)-v1:0"
        case .vertex:
            guard !id.contains("@"), let base = ClaudeModel.known.first(where: { id.hasPrefix($0.id + "-2") }) else { return id }
            return base.id + "@" + id.dropFirst(base.id.count + 1)
        }
    }
}

/// A token that does not change (from the environment).
struct FixedToken: BearerTokenProvider {
    let value: String
    func token(refresh: Bool) async throws -> String { value }
}
