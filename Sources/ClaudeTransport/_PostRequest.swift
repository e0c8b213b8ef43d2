import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The one place a POST to the API is built: body, headers, idle timeout and
// the credential (which goes nowhere but its header).

extension ClientConfiguration {
    /// `POST baseURL/path` with the encoded body and headers, authorized.
    func post(_ path: String, _ encoded: EncodedRequest, credentials: Credentials, bearer: String?) -> URLRequest {
        post(url: baseURL.appendingPathComponent(path), encoded, credentials: credentials, bearer: bearer)
    }

    /// `POST url` with the encoded body and headers, authorized as the
    /// endpoint takes it (an API key is a bearer token on the clouds).
    func post(url: URL, _ encoded: EncodedRequest, credentials: Credentials, bearer: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(encoded.body)
        request.timeoutInterval = idleTimeout
        for header in encoded.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
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
}
