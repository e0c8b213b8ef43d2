import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The one place a request to the API is built: the headers every request
// carries (who is asking, the encoding asked for), the credential (which
// goes nowhere but its header), and for a POST the encoded body and its
// headers.

extension ClientConfiguration {
    /// `claude-streaming/VERSION (PLATFORM; ARCH)`: this package and where it
    /// runs, never the HTTP library under it (whose default names itself).
    public static let userAgent = "claude-streaming/\(ClaudeStreamingVersion.current) (\(platform); \(architecture))"

    /// `method url`, with the shared headers and the credential as the
    /// endpoint takes it (an API key is a bearer token on the clouds).
    func request(_ method: String, url: URL, credentials: Credentials, bearer: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = idleTimeout
        request.setValue(Self.userAgent, forHTTPHeaderField: "user-agent")
        request.setValue(StreamDriver.acceptEncoding, forHTTPHeaderField: "accept-encoding")
        switch credentials {
        case .apiKey(let key) where endpoint.sendsKeyAsBearer:
            request.setValue("Bearer \(key)", forHTTPHeaderField: "authorization")
        case .apiKey(let key): request.setValue(key, forHTTPHeaderField: "x-api-key")
        case .proxied(let headers): for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        case .bearer: request.setValue("Bearer \(bearer ?? "")", forHTTPHeaderField: "authorization")
        }
        return request
    }

    /// `POST baseURL/path` with the encoded body and headers, authorized.
    func post(_ path: String, _ encoded: EncodedRequest, credentials: Credentials, bearer: String?) -> URLRequest {
        post(url: baseURL.appendingPathComponent(path), encoded, credentials: credentials, bearer: bearer)
    }

    /// `POST url` with the encoded body and headers, authorized.
    func post(url: URL, _ encoded: EncodedRequest, credentials: Credentials, bearer: String?) -> URLRequest {
        var request = request("POST", url: url, credentials: credentials, bearer: bearer)
        request.httpBody = Data(encoded.body)
        for header in encoded.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        return request
    }

    private static var platform: String {
        #if os(Linux)
        "Linux"
        #elseif os(macOS)
        "macOS"
        #elseif os(iOS)
        "iOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #else
        "unknown"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}
