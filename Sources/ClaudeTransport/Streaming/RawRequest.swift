import ClaudeStreaming
import Foundation
public import IncrementalJSON

// A request given as a Messages API body, sent as is: for a caller that
// already holds the API's JSON (a saved request, a relay, the command line's
// `--request FILE`) and must not lose a field this package does not model.
// Only `"stream": true` is set; nothing is checked against capabilities.

extension EncodedRequest {
    /// A body the caller built, with the standard headers.
    ///
    /// - Parameters:
    ///   - body: a JSON object; `stream` is set to true (kept in place, or appended).
    ///   - betas: `anthropic-beta` values.
    /// - Complexity: O(size of the body).
    public init(rawBody body: JSONValue, betas: [String] = []) {
        var bytes: [UInt8] = []
        body.replacingFields([("stream", .bool(true))]).encodeCompact(into: &bytes)
        var headers = [
            HTTPHeader("anthropic-version", RequestEncoder.apiVersion),
            HTTPHeader("content-type", "application/json"),
            HTTPHeader("accept", "text/event-stream"),
        ]
        let betas = betas.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if !betas.isEmpty { headers.append(HTTPHeader("anthropic-beta", betas.joined(separator: ","))) }
        self.init(body: bytes, headers: headers, effort: nil, structuredOutput: body["output_config"]?["format"] != nil)
    }
}

extension MessagesClient {
    /// The snapshots of the answer to an already encoded request (see
    /// ``EncodedRequest/init(rawBody:betas:)``). The connection opens on the first `next()`.
    ///
    /// - Throws: ``TransportError/missingCredential(_:)`` before any traffic.
    public func stream(encoded: EncodedRequest) throws(TransportError) -> MessageSnapshotStream {
        try stream(encoded: encoded, retries: RetryBudget(configuration.retryPolicy))
    }

    /// As ``stream(encoded:)``, retrying answers before the stream from `budget`.
    func stream(encoded: EncodedRequest, retries budget: RetryBudget) throws(TransportError) -> MessageSnapshotStream {
        let credentials = try checkedCredentials()
        // Every request goes through here (the session's too), so each
        // endpoint gets its own body shape and URL in one place.
        let routed: (request: EncodedRequest, url: URL)
        do { routed = try configuration.endpoint.route(encoded, anthropicBase: configuration.baseURL) } catch {
            throw .invalidRequest(error)
        }
        let driver = StreamDriver(
            configuration: configuration, credentials: credentials, encoded: routed.request, url: routed.url, budget: budget)
        return MessageSnapshotStream(snapshotChannel: SnapshotChannel { channel in driver.start(channel) })
    }
}
