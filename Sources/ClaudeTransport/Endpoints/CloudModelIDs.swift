// Model identifiers of the clouds, mapped to the first-party model whose
// capabilities they share (the clouds serve the same models):
//   Bedrock  anthropic.claude-opus-4-6-v1:0, us.anthropic.claude-opus-4-6-v1:0
//            (cross-region inference profile), or an ARN ending in either
//   Vertex   claude-opus-4-6, claude-haiku-4-5@20251001

extension ClaudeModel {
    /// A Bedrock model ID or inference profile (`us.`, `eu.`, `apac.`,
    /// `global.` …), with the capabilities of the first-party model it
    /// names; nil when it names no compiled-in model (build one with
    /// `ClaudeModel(id:capabilities:)`).
    public static func bedrock(_ id: String) -> ClaudeModel? {
        guard let firstParty = firstPartyID(ofBedrock: id), let base = known(id: firstParty) else { return nil }
        return ClaudeModel(id: id, capabilities: base.capabilities)
    }

    /// A Vertex AI model ID (`claude-…`, optionally `@date`), with the
    /// capabilities of the first-party model it names.
    public static func vertex(_ id: String) -> ClaudeModel? {
        let name = id.split(separator: "@", maxSplits: 1).first.map(String.init) ?? id
        guard let base = known(id: name) else { return nil }
        return ClaudeModel(id: id, capabilities: base.capabilities)
    }

    /// `claude-opus-4-6` for `us.anthropic.claude-opus-4-6-v1:0`; nil when
    /// `id` is not an Anthropic model on Bedrock.
    public static func firstPartyID(ofBedrock id: String) -> String? {
        let last = id.split(separator: "/").last.map(String.init) ?? id
        var parts = last.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count >= 3, parts[1] == "anthropic" { parts.removeFirst() }  // inference-profile prefix
        guard parts.count >= 2, parts[0] == "anthropic" else { return nil }
        var name = parts.dropFirst().joined(separator: ".")
        // The version suffix: -v1, -v1:0, -v2:0 …
        if let v = name.range(of: "-v", options: .backwards),
            name[v.upperBound...].allSatisfy({ $0.isNumber || $0 == ":" }), name[v.upperBound...].first?.isNumber == true
        {
            name = String(name[..<v.lowerBound])
        }
        return name.hasPrefix("claude") ? name : nil
    }
}
