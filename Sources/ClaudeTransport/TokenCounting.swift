import ClaudeStreaming
import Foundation
public import IncrementalJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// `POST /v1/messages/count_tokens`: how many input tokens a request would
// take, without running it. One plain (non-streamed) JSON exchange; the body
// is the request's counting form (``RequestEncoder/encodeForCounting(_:)``).

/// The answer of the token-counting endpoint.
public struct TokenCount: Sendable, Hashable {
    /// `input_tokens`.
    public var inputTokens: Int
    /// The whole answer (later fields, such as context management, are kept).
    public var json: JSONValue

    /// A count of `inputTokens`, with the answer it came in (for transports other than ``MessagesClient``).
    public init(inputTokens: Int, json: JSONValue) {
        self.inputTokens = inputTokens
        self.json = json
    }
}

extension MessagesClient {
    /// Counts the input tokens of `request`.
    ///
    /// - Throws: ``TransportError``: the request refused before traffic, an
    ///   HTTP failure (typed, secrets redacted), a network failure, or an
    ///   answer without `input_tokens`.
    public func countTokens(_ request: MessageRequest) async throws(TransportError) -> TokenCount {
        let credentials = try checkedCredentials()
        let encoded: EncodedRequest
        do { encoded = try RequestEncoder.encodeForCounting(request) } catch { throw .invalidRequest(error) }
        var bearer: String?
        if case .bearer(let provider) = credentials {
            do { bearer = try await provider.token(refresh: false) } catch { throw .credentialProvider("\(type(of: error))") }
        }
        let http = configuration.post("v1/messages/count_tokens", encoded, credentials: credentials, bearer: bearer)
        let redactor = SecretRedactor(secrets: credentials.secretValues + (bearer.map { [$0] } ?? []))
        // Redirects refused, body capped, compressed answers refused: as for the stream.
        let (status, headers, body) = try await boundedFetch(http, redactor: redactor)
        guard (200..<300).contains(status), isIdentity(headers["content-encoding"]) else {
            let encoded: HTTPFailure.Kind? = isIdentity(headers["content-encoding"]) ? nil : .unrequestedContentEncoding
            throw .http(HTTPFailure(status: status, headers: headers, body: body, redactor: redactor, kind: encoded))
        }
        guard let json = try? JSONValue.parse(body),
            let count = try? json["input_tokens"]?.numberValue?.int()
        else {
            throw .invalidResponse("the count_tokens answer has no integer input_tokens")
        }
        return TokenCount(inputTokens: count, json: json)
    }
}
