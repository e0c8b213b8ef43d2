import Foundation
import IncrementalJSON

// A non-2xx answer before the stream started, mapped from status, headers and
// the API's error body `{"type":"error","error":{"type":…,"message":…},
// "request_id":…}`. A 400 whose message says the prompt does not fit the
// context window is its own kind: a caller reacts to it (compact, trim) and
// not as to a malformed request.
//
// Two answers that are not API errors become failures too, because the
// stream cannot be read from them: a redirect (the Messages API never
// redirects, and following one would send the credential to whichever
// origin the `location` names, so it is never followed), and a 2xx whose
// content type is not `text/event-stream` (a proxy's HTML page, a JSON error
// body), whose words would otherwise be lost as "stream ended early". And
// one that does not reach the body: an answer compressed although the
// request asked for `identity` (a gzip bomb would expand inside URLSession
// before any limit here could act).
//
// Every text taken from the answer goes through a ``SecretRedactor`` first,
// body bytes included, before anything is cut to length.

/// An HTTP error answer to a Messages API request.
public struct HTTPFailure: Sendable, Hashable, CustomStringConvertible {
    /// What the answer means, from its status (and, for a 400, its message).
    public enum Kind: Sendable, Hashable {
        /// 400: the request is malformed or asks for something the model rejects.
        case badRequest
        /// 400 whose message says the prompt does not fit the context window
        /// (`prompt is too long`): compact or trim, do not resend as is.
        case contextWindowExceeded
        /// 401: the credential is missing, wrong or expired.
        case authentication
        /// 403: the credential may not use this model or feature.
        case permission
        /// 404: the model or path does not exist.
        case notFound
        /// 413: the request body is larger than the API accepts.
        case requestTooLarge
        /// 429: rate limited; ``HTTPFailure/retryAfter`` says how long to wait.
        case rateLimited
        /// 5xx other than overloaded: a server error.
        case server
        /// 529, or a 5xx with error type `overloaded_error`: the API is overloaded.
        case overloaded
        /// A 3xx answer: refused, never followed (see ``HTTPFailure/location``).
        case redirect
        /// A 2xx answer whose content type is not `text/event-stream`
        /// (see ``HTTPFailure/contentType``).
        case notEventStream
        /// An answer compressed although the request asked for `identity`
        /// (see ``HTTPFailure/contentEncoding``): refused unread, because
        /// URLSession would decode it without bound.
        case unrequestedContentEncoding
        /// Any other status.
        case other
    }

    /// The HTTP status code.
    public var status: Int
    /// What the status means.
    public var kind: Kind
    /// The API's error type (`rate_limit_error`, …), when the body had one.
    public var errorType: String?
    /// The API's error message (redacted), when the body had one (Bedrock's
    /// top-level `message` too); for a body that is not JSON, its first 200
    /// bytes as text.
    public var message: String?
    /// The `request-id` header (or the body's `request_id`).
    public var requestID: String?
    /// Seconds the server asks to wait before a retry: `retry-after-ms`
    /// (milliseconds) when it reads as a number, else `retry-after`
    /// (seconds or an HTTP date); nil when neither does.
    public var retryAfter: Double?
    /// The server's own word on retrying, from `x-should-retry` (`true` or
    /// `false`); nil without it. It overrides the status in ``isRetryable``.
    public var shouldRetry: Bool?
    /// The `location` header of a redirect (redacted), when given.
    public var location: String?
    /// The `content-type` header (redacted), for ``Kind/notEventStream``.
    public var contentType: String?
    /// The `content-encoding` header (redacted), for ``Kind/unrequestedContentEncoding``.
    public var contentEncoding: String?

    /// A failure with the given fields; ``HTTPFailure`` values from a response
    /// are built by the client, which redacts every text first.
    public init(
        status: Int, kind: Kind, errorType: String? = nil, message: String? = nil,
        requestID: String? = nil, retryAfter: Double? = nil, shouldRetry: Bool? = nil,
        location: String? = nil, contentType: String? = nil, contentEncoding: String? = nil
    ) {
        self.status = status
        self.kind = kind
        self.errorType = errorType
        self.message = message
        self.requestID = requestID
        self.retryAfter = retryAfter
        self.shouldRetry = shouldRetry
        self.location = location
        self.contentType = contentType
        self.contentEncoding = contentEncoding
    }

    /// Whether sending the same request again may succeed: what the official
    /// SDKs retry, 408 (timeout), 409 (conflict), 429 (rate limited) and
    /// every 5xx (529 overloaded among them), unless `x-should-retry` says
    /// otherwise either way. Never an answer this client refused for its
    /// shape (a redirect, a 2xx that is not an event stream, an unrequested
    /// content encoding): sending again would meet the same answer.
    public var isRetryable: Bool {
        switch kind {
        case .redirect, .notEventStream, .unrequestedContentEncoding: return false
        default: break
        }
        if let shouldRetry { return shouldRetry }
        return Self.retryableStatuses.contains(status) || (500...599).contains(status)
    }

    /// The statuses below 500 that are retried.
    static let retryableStatuses: Set<Int> = [408, 409, 429]

    public var description: String {
        var text = "HTTP \(status)"
        switch kind {
        case .redirect: text += " redirect to \(location ?? "(no location)") refused (redirects are never followed)"
        case .notEventStream: text += " answered \(contentType ?? "no content type"), not an event stream"
        case .unrequestedContentEncoding:
            text += " answered with content-encoding \(contentEncoding ?? "?") although identity was asked; refused unread"
        default: break
        }
        if let errorType { text += " \(errorType)" }
        if let message { text += ": \(message)" }
        if let retryAfter { text += " (retry after \(secondsText(retryAfter)) s)" }
        if let requestID { text += " [request \(requestID)]" }
        return text
    }

    /// Maps an error answer. `headers` names are matched case-insensitively;
    /// a body that is not the API's JSON leaves type and message empty.
    ///
    /// - Complexity: O(body size).
    public init(status: Int, headers: [String: String], body: [UInt8], now: Date = Date()) {
        self.init(status: status, headers: headers, body: body, redactor: SecretRedactor(secrets: []), now: now)
    }

    /// Maps an error answer the way the client reports it: every text that
    /// came from the server (body, message, error type, request id,
    /// location, content type) has every piece of 8 or more characters of
    /// each of `secrets` replaced by `<redacted>`, before anything is cut
    /// to length, so a relay that echoes the key into any of them cannot
    /// leak it, or a prefix of it, into a log.
    ///
    /// - Complexity: O(body size + total secret length).
    public init(status: Int, headers: [String: String], body: [UInt8], redacting secrets: [String], now: Date = Date()) {
        self.init(status: status, headers: headers, body: body, redactor: SecretRedactor(secrets: secrets), now: now)
    }

    init(
        status: Int, headers: [String: String], body: [UInt8], redactor: SecretRedactor,
        kind forcedKind: Kind? = nil, now: Date = Date()
    ) {
        let body = redactor.redact(body)
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name }.map { redactor.redact($0.value) }
        }
        var errorType: String?
        var message: String?
        var bodyRequestID: String?
        if let value = try? JSONValue.parse(body) {
            // Redacted again once decoded: an escape (`\u002d`) can hide a piece from the raw pass.
            errorType = value["error"]?["type"]?.stringValue.map(redactor.redact)
            message = value["error"]?["message"]?.stringValue.map(redactor.redact)
            bodyRequestID = value["request_id"]?.stringValue.map(redactor.redact)
            if errorType == nil, message == nil {
                // Bedrock: {"message": …} with the type in x-amzn-errortype ("ValidationException:http://…").
                message = (value["message"]?.stringValue ?? value["Message"]?.stringValue).map(redactor.redact)
                errorType = header("x-amzn-errortype")?.split(separator: ":").first.map(String.init)
            }
        } else if !body.isEmpty {
            // A proxy's HTML page or plain text: keep a short readable prefix.
            message = String(decoding: body.prefix(200), as: UTF8.self)
        }
        let kind = forcedKind ?? Self.classify(status: status, errorType: errorType, message: message)
        self.init(
            status: status, kind: kind, errorType: errorType, message: message,
            requestID: header("request-id") ?? bodyRequestID ?? header("x-amzn-requestid"),
            retryAfter: header("retry-after-ms").flatMap(Self.parseRetryAfterMilliseconds)
                ?? header("retry-after").flatMap { Self.parseRetryAfter($0, now: now) },
            shouldRetry: header("x-should-retry").flatMap(Self.parseShouldRetry),
            location: kind == .redirect ? header("location") : nil,
            contentType: kind == .notEventStream ? header("content-type") : nil,
            contentEncoding: kind == .unrequestedContentEncoding ? header("content-encoding") : nil)
    }

    static func classify(status: Int, errorType: String?, message: String?) -> Kind {
        switch status {
        case 400:
            return isContextOverflow(message) ? .contextWindowExceeded : .badRequest
        case 401: return .authentication
        case 403: return .permission
        case 404: return .notFound
        case 413: return .requestTooLarge
        case 429: return .rateLimited
        case 529: return .overloaded
        case 300...399: return .redirect
        case 500...599: return errorType == "overloaded_error" ? .overloaded : .server
        default: return .other
        }
    }

    /// The API words this "prompt is too long: N tokens > M maximum"; other
    /// phrasings seen from relays mention the context window or length.
    static func isContextOverflow(_ message: String?) -> Bool {
        guard let text = message?.lowercased() else { return false }
        return text.contains("prompt is too long") || text.contains("context window")
            || text.contains("context_length") || text.contains("context length")
    }

    /// `retry-after` as seconds: a decimal number or an HTTP date (IMF-fixdate, RFC 9110).
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return seconds }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// `retry-after-ms` (the Anthropic API's own header) as seconds.
    static func parseRetryAfterMilliseconds(_ value: String) -> Double? {
        guard let milliseconds = Double(value.trimmingCharacters(in: .whitespaces)), milliseconds.isFinite, milliseconds >= 0 else {
            return nil
        }
        return milliseconds / 1000
    }

    /// `x-should-retry`: `true` or `false`, in any case; anything else says nothing.
    static func parseShouldRetry(_ value: String) -> Bool? {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }
}

func secondsText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(value)
}
