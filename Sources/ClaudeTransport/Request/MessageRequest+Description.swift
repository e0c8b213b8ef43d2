// One-line readable forms of a request and a client configuration. A request
// is described by its shape (model, turns, sizes, tools), never its text;
// a configuration by where it sends and how, never by its credential: the
// key, a relay's header values and any user or password in the base URL are
// left out entirely, not masked, so no piece of them can leak.

import Foundation

extension MessageRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// `MessageRequest(claude-opus-4-5, 3 turns (last: user), system 42 chars, max_tokens 4096, effort high, tools [webSearch], structured output)`.
    public var description: String {
        let setup = self.setup
        var parts = [
            setup.model.id,
            "\(messages.count) turn\(messages.count == 1 ? "" : "s")"
                + (messages.last.map { " (last: \($0.role.rawValue))" } ?? ""),
        ]
        if let system = setup.system { parts.append("system \(system.text.count) chars") }
        parts.append("max_tokens \(setup.maxTokens)")
        if let effort = setup.effort { parts.append("effort \(effort)") }
        if setup.adaptiveThinking { parts.append("adaptive thinking") }
        if !setup.serverTools.isEmpty { parts.append("tools [\(setup.serverTools.map { "\($0.kind)" }.joined(separator: ", "))]") }
        if setup.outputSchema != nil { parts.append("structured output") }
        if case .models(let models) = setup.fallbacks { parts.append("fallbacks [\(models.map(\.id).joined(separator: ", "))]") }
        if case .serverDefault = setup.fallbacks { parts.append("server-chosen fallbacks") }
        if !setup.betas.isEmpty { parts.append("betas [\(setup.betas.joined(separator: ", "))]") }
        return "MessageRequest(\(parts.joined(separator: ", ")))"
    }

    public var debugDescription: String { description }
}

extension ClientConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `ClientConfiguration(https://api.anthropic.com, apiKey(<redacted>), idle 60 s, overall 600 s, 0 retries)`.
    public var description: String {
        let credential = credentials.map { "\($0)" } ?? "no credential"
        return "ClientConfiguration(\(printableBaseURL), \(credential), idle \(idleTimeout) s, overall \(overallTimeout) s, "
            + "\(retryPolicy.maxRetries) retries)"
    }

    public var debugDescription: String { description }

    /// `dump` would otherwise walk into the URL and print a password in it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "baseURL": printableBaseURL, "credentials": credentials.map { "\($0)" } ?? "none",
                "idleTimeout": idleTimeout, "overallTimeout": overallTimeout, "maxErrorBodyBytes": maxErrorBodyBytes,
            ])
    }

    /// The base URL without user, password, query or fragment.
    var printableBaseURL: String {
        var place = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        place?.user = nil
        place?.password = nil
        place?.query = nil
        place?.fragment = nil
        return place?.string ?? "<base URL>"
    }
}
