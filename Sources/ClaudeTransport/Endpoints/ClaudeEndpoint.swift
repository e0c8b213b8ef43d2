// Where a request goes and how its wire form differs per cloud. The
// request is always encoded for the Anthropic API first (RequestEncoder);
// an endpoint then moves what the cloud wants elsewhere:
//
//                 path                                            body                         auth
//   Anthropic     /v1/messages                                    as encoded                   x-api-key / Bearer
//   Bedrock       /model/{id}/invoke-with-response-stream          − model, − stream,           Bearer API key, or
//                 on bedrock-runtime.{region}.amazonaws.com        + anthropic_version,         the caller's signer
//                                                                  + anthropic_beta (betas)     (SigV4)
//   Vertex AI     /v1/projects/{p}/locations/{r}/publishers/       − model,                     Bearer token from the
//                 anthropic/models/{id}:streamRawPredict           + anthropic_version          token provider
//
// Bedrock answers in the AWS event-stream framing, Vertex in SSE; the
// endpoint tells the accumulator which.

import ClaudeStreaming
import Foundation
import IncrementalJSON

/// Where a ``MessagesClient`` sends requests: the Anthropic API, Amazon
/// Bedrock or Google Vertex AI.
public struct ClaudeEndpoint: Sendable {
    enum Kind: Sendable {
        case anthropic
        case bedrock(region: String, signer: (any RequestSigner)?)
        case vertex(project: String, region: String)
    }

    let classify: Kind
    /// Replaces the cloud's host (a VPC endpoint, a proxy, a test server);
    /// nil uses the region's public host.
    public var baseURL: URL?

    /// The Anthropic API at ``ClientConfiguration/baseURL`` (the default).
    public static let anthropic = ClaudeEndpoint(classify: .anthropic, baseURL: nil)

    /// Amazon Bedrock `InvokeModelWithResponseStream` in `region`
    /// (`us-east-1`, …). Authenticate with a Bedrock API key
    /// (`Credentials.apiKey`, sent as `Authorization: Bearer`), or pass a
    /// `signer` that adds Signature V4 headers (credentials may then be nil).
    public static func bedrock(region: String, baseURL: URL? = nil, signer: (any RequestSigner)? = nil) -> ClaudeEndpoint {
        ClaudeEndpoint(classify: .bedrock(region: region, signer: signer), baseURL: baseURL)
    }

    /// Google Vertex AI `:streamRawPredict` for `project` in `region`
    /// (`us-east5`, `europe-west1`, … or `global`). Authenticate with
    /// `Credentials.bearer` (an OAuth access token provider, refreshed on 401).
    public static func vertex(project: String, region: String, baseURL: URL? = nil) -> ClaudeEndpoint {
        ClaudeEndpoint(classify: .vertex(project: project, region: region), baseURL: baseURL)
    }

    /// The framing the endpoint answers in.
    public var framing: EventFraming {
        if case .bedrock = classify { return .awsEventStream }
        return .serverSentEvents
    }

    /// `bedrock-2023-05-31` / `vertex-2023-10-16`, sent in the body.
    public static let bedrockVersion = "bedrock-2023-05-31"
    /// The `anthropic_version` sent in the body to Vertex AI.
    public static let vertexVersion = "vertex-2023-10-16"

    var requestSigner: (any RequestSigner)? {
        if case .bedrock(_, let signer) = classify { return signer }
        return nil
    }

    /// Whether an API key goes as `Authorization: Bearer` (clouds) rather
    /// than `x-api-key` (Anthropic).
    var sendsKeyAsBearer: Bool {
        if case .anthropic = classify { return false }
        return true
    }

    /// The URL of a streamed request for `model`.
    func endpointURL(model: String, anthropicBase: URL) throws(RequestError) -> URL {
        let host: String
        let path: String
        switch classify {
        case .anthropic:
            return anthropicBase.appendingPathComponent("v1/messages")
        case .bedrock(let region, _):
            try requireLabel(region, "Bedrock region")
            host = "https://bedrock-runtime.\(region).amazonaws.com"
            path = "/model/\(pathEscaped(model))/invoke-with-response-stream"
        case .vertex(let project, let region):
            try requireLabel(region, "Vertex region")
            try requireLabel(project, "Vertex project")
            host = region == "global" ? "https://aiplatform.googleapis.com" : "https://\(region)-aiplatform.googleapis.com"
            path = "/v1/projects/\(project)/locations/\(region)/publishers/anthropic/models/\(pathEscaped(model)):streamRawPredict"
        }
        let base = baseURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString } ?? host
        guard let url = URL(string: base + path) else { throw .invalidEndpoint("no valid URL from \(base) and \(path)") }
        return url
    }

    /// The encoded Anthropic request, reshaped for this endpoint, and its
    /// URL (on the clouds the body's `model` moves into the path).
    /// - Complexity: O(1) for Anthropic; O(body size) for the clouds.
    func route(_ encoded: EncodedRequest, anthropicBase: URL) throws(RequestError) -> (request: EncodedRequest, url: URL) {
        let version: String
        let betasInBody: Bool
        switch classify {
        case .anthropic: return (encoded, try endpointURL(model: "", anthropicBase: anthropicBase))
        case .bedrock: (version, betasInBody) = (Self.bedrockVersion, true)
        case .vertex: (version, betasInBody) = (Self.vertexVersion, false)
        }
        guard let object = (try? JSONValue.parse(encoded.body))?.objectValue else {
            throw .invalidEndpoint("the encoded body is not a JSON object")
        }
        guard let model = object.entries.last(where: { $0.key == "model" })?.value.stringValue else {
            throw .invalidEndpoint("the request names no model")
        }
        let url = try endpointURL(model: model, anthropicBase: anthropicBase)
        let betas =
            encoded.headers.first { $0.name == "anthropic-beta" }?.value
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        var fields: [(String, JSONValue)] = [("anthropic_version", .string(version))]
        for (key, value) in object.entries where key != "model" && !(betasInBody && key == "stream") {
            fields.append((key, value))
        }
        if betasInBody && !betas.isEmpty { fields.append(("anthropic_beta", .array(betas.map { .string($0) }))) }
        var body: [UInt8] = []
        JSONValue.object(fields).encodeCompact(into: &body)

        var headers = encoded.headers.filter { $0.name != "anthropic-version" && !(betasInBody && $0.name == "anthropic-beta") }
        if betasInBody {
            headers = headers.map { $0.name == "accept" ? HTTPHeader("accept", "application/vnd.amazon.eventstream") : $0 }
        }
        return (EncodedRequest(body: body, headers: headers, effort: encoded.effort, structuredOutput: encoded.structuredOutput), url)
    }
}

/// Percent-escapes a path segment: everything but unreserved characters and
/// ':' (Bedrock IDs end in `-v1:0`; an inference-profile ARN's '/' must be escaped).
func pathEscaped(_ segment: String) -> String {
    var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
    allowed.insert(charactersIn: "-._~:@")
    return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
}

/// A region or project must be one host/path label: letters, digits, '-'.
private func requireLabel(_ value: String, _ what: String) throws(RequestError) {
    let valid =
        !value.isEmpty
        && value.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || (byte >= 0x41 && byte <= 0x5A)
        }
    guard valid else { throw .invalidEndpoint("\(what) \"\(value)\" is not letters, digits and '-'") }
}
