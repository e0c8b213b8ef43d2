// How a request proves who sends it. The secret lives only in the header the
// client writes; every printable form of this type (description, debug
// description, reflection for `dump`) hides it, and errors never hold it.

/// Supplies a bearer token, for flows where a short-lived token replaces an
/// API key (an App-Attest-style exchange on Apple platforms, a relay login).
public protocol BearerTokenProvider: Sendable {
    /// A token for the next request. `refresh` is true after the server
    /// answered 401 to the previous token: return a new one.
    func token(refresh: Bool) async throws -> String
}

/// The credential sent with every request.
public enum Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// An API key, sent as `x-api-key`.
    case apiKey(String)
    /// A relay that authenticates on its own: no key, these headers on every request.
    case proxied(headers: [HTTPHeader])
    /// A bearer token from a provider, sent as `authorization: Bearer …`;
    /// refreshed once when the server answers 401.
    case bearer(any BearerTokenProvider)

    /// The API key from `ANTHROPIC_API_KEY`, or nil when unset or empty.
    public static func apiKeyFromEnvironment(_ environment: [String: String]) -> Credentials? {
        guard let key = environment["ANTHROPIC_API_KEY"], !key.isEmpty else { return nil }
        return .apiKey(key)
    }

    public var description: String {
        switch self {
        case .apiKey: "apiKey(<redacted>)"
        case .proxied(let headers): "proxied(\(headers.count) headers, values redacted)"
        case .bearer: "bearer(<provider>)"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Secrets that must never appear in anything the client reports.
    var secretValues: [String] {
        switch self {
        case .apiKey(let key): [key]
        case .proxied(let headers): headers.map(\.value).filter { $0.count >= 8 }
        case .bearer: []
        }
    }
}
