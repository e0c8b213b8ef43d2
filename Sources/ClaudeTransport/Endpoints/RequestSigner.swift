// The hook that lets a caller sign Bedrock requests with AWS Signature V4.
// SigV4 needs HMAC-SHA256, which Foundation on Linux does not have and this
// package does not ship (no dependencies); a signer from the caller's own
// AWS SDK or crypto library plugs in here.

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a ``RequestSigner`` signs: exactly what will be sent.
public struct SignableRequest: Sendable {
    /// `POST`.
    public var method: String
    /// The full URL, path and query included.
    public var url: URL
    /// Every header that will be sent (names lowercase), credentials excepted.
    public var headers: [HTTPHeader]
    /// The exact body bytes (sign their SHA-256 as `x-amz-content-sha256`).
    public var body: [UInt8]
}

/// Adds authentication headers to a request just before it is sent (once
/// per attempt, so a retried request is signed again with a fresh date).
///
/// Example, Signature V4 with a signer of your own (service `bedrock`):
///
/// ```swift
/// struct SigV4Signer: RequestSigner {
///     let credentials: AWSCredentials   // your type: access key, secret, session token
///     let region: String
///     func sign(_ request: SignableRequest) async throws -> [HTTPHeader] {
///         let date = amzDate(Date())                       // yyyyMMdd'T'HHmmss'Z'
///         let payloadHash = sha256Hex(request.body)
///         var headers = request.headers + [HTTPHeader("host", request.url.host ?? ""),
///                                          HTTPHeader("x-amz-date", date),
///                                          HTTPHeader("x-amz-content-sha256", payloadHash)]
///         if let token = credentials.sessionToken { headers.append(HTTPHeader("x-amz-security-token", token)) }
///         let authorization = sigV4Authorization(            // canonical request, string to sign, HMAC chain
///             method: request.method, url: request.url, headers: headers, payloadHash: payloadHash,
///             service: "bedrock", region: region, date: date, credentials: credentials)
///         return headers.filter { $0.name != "host" } + [HTTPHeader("authorization", authorization)]
///     }
/// }
/// let configuration = ClientConfiguration(credentials: nil)
///     .using(.bedrock(region: "us-east-1", signer: SigV4Signer(credentials: creds, region: "us-east-1")))
/// ```
///
/// Values the signer returns are treated as secrets: they never appear in
/// errors or descriptions.
public protocol RequestSigner: Sendable {
    /// The headers to send (they replace same-named headers of the request).
    func sign(_ request: SignableRequest) async throws -> [HTTPHeader]
}

extension ClaudeEndpoint {
    /// Runs the signer, if any, over `request` and sets the headers it
    /// returns. Returns their values (≥ 8 characters) as secrets to redact.
    func signRequest(_ request: inout URLRequest, headers: [HTTPHeader]) async throws -> [String] {
        guard let signer = requestSigner, let url = request.url else { return [] }
        let signable = SignableRequest(
            method: request.httpMethod ?? "POST", url: url, headers: headers, body: Array(request.httpBody ?? Data()))
        let added = try await signer.sign(signable)
        for header in added { request.setValue(header.value, forHTTPHeaderField: header.name) }
        return added.map(\.value).filter { $0.count >= 8 }
    }
}

extension ClientConfiguration {
    /// This configuration sending to `endpoint`.
    public func using(_ endpoint: ClaudeEndpoint) -> ClientConfiguration {
        var copy = self
        copy.endpoint = endpoint
        return copy
    }
}
