// Fuzz property for the transport's HTTP error mapping: whatever status,
// headers and body a server (or a relay, or a proxy's error page) answers
// with, `HTTPFailure(status:headers:body:redacting:now:)` (what the client
// reports) must
// - not trap;
// - never show the API key, nor any piece of it of 8 bytes or more (a body
//   or header cut inside the key leaves such a piece): not in
//   `description`, not in the `TransportError` wrapping it, not in any
//   field, compared as UTF-8 bytes (a key followed by a combining mark is
//   still the key's bytes on screen);
// - the same for a mid-stream `error` event or protocol violation built
//   from the same texts, once the transport's `SecretRedactor` has seen it;
// - map the status to its kind by the documented table, and call exactly
//   408, 409, 429 and every 5xx retryable, unless `x-should-retry` says
//   `true` or `false` (a redirect never is);
// - read `retry-after` totally: nil or a finite number of seconds >= 0, and
//   a plain decimal (`12`, ` 1.5 `) as exactly that number; and a plain
//   decimal `retry-after-ms` before it, as that many milliseconds.
//
// Input layout: byte 0 picks the status (from the statuses the API uses, or
// with byte 1 any number 0...999), then header lines `name: value` separated
// by LF up to the first NUL byte, then the body. `@K` anywhere is replaced by
// the key so the fuzzer reaches echoes of it cheaply, and `@k` by the key
// cut after its 8th + (next byte % 24) byte (a cut-off echo).

import ClaudeStreaming
import ClaudeTransport
import Foundation

public enum TransportFrameFuzzProperty {
    /// The secret the fuzzer tries to leak.
    public static let apiKey = "sk-ant-api03-fuzzKEY_0123456789abcdef-XYZ"
    /// The transport's redaction of `apiKey`, made once: the checks below
    /// redact with it on every input.
    static let redactor = SecretRedactor(secrets: [apiKey])
    static let statuses = [400, 401, 403, 404, 413, 429, 500, 503, 529, 418, 200, 302, 307, 408, 409]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        guard input.count >= 2 else { return nil }
        let status =
            input[0] & 0x80 == 0
            ? statuses[Int(input[0]) % statuses.count]
            : (Int(input[0] & 0x7F) << 8 | Int(input[1])) % 1000
        let rest = Array(withKey(Array(input[2...])))
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        let headers = parseHeaders(rest[..<split])
        let body = Array(rest[min(rest.endIndex, split + 1)...])
        return check(status: status, headers: headers, body: body)
    }

    /// The properties for one answer.
    public static func check(status: Int, headers: [String: String], body: [UInt8]) -> String? {
        let failure = HTTPFailure(status: status, headers: headers, body: body, redacting: [apiKey], now: now)
        let shown = [
            failure.description, TransportError.http(failure).description, String(reflecting: failure),
            failure.message ?? "", failure.errorType ?? "", failure.requestID ?? "",
            failure.location ?? "", failure.contentType ?? "",
        ]
        for text in shown {
            if let piece = keyPiece(in: text) {
                return "a piece of the API key (\(piece.debugDescription)) leaks into \(text.debugDescription)"
            }
        }
        if let leak = checkStreamError(headers: headers, body: body) { return leak }
        if failure.kind != expectedKind(status: status, failure: failure) {
            return "status \(status) mapped to \(failure.kind)"
        }
        if let problem = checkRetryable(status: status, headers: headers, failure: failure) { return problem }
        if let problem = checkRetryAfterMilliseconds(headers: headers, failure: failure) { return problem }
        if let seconds = failure.retryAfter, !(seconds.isFinite && seconds >= 0) {
            return "retry-after read as \(seconds)"
        }
        for value in headers.values {
            if let failure = checkRetryAfter(value) { return failure }
        }
        return nil
    }

    /// A stream error whose texts are the body and the header values, as a
    /// server could send them in an `error` event: after redaction no piece
    /// of the key shows in its description.
    static func checkStreamError(headers: [String: String], body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        let errors = [
            MessageStreamError(
                kind: .apiError(
                    APIErrorEvent(
                        type: headers.keys.joined(), message: text,
                        requestID: headers.values.joined(separator: " "))),
                eventIndex: 1, byteOffset: body.count, snapshot: nil),
            MessageStreamError(kind: .protocolViolation(text), eventIndex: nil, byteOffset: 0, snapshot: nil),
        ]
        for error in errors {
            let shown = TransportError.stream(redactor.redact(error)).description
            if let piece = keyPiece(in: shown) {
                return "a piece of the API key (\(piece.debugDescription)) leaks from a stream error into \(shown.debugDescription)"
            }
        }
        return nil
    }

    /// Retryable: 408, 409, 429 and 5xx, overridden by every `x-should-retry`
    /// of `true` or `false` (either one when several disagree); never a redirect.
    static func checkRetryable(status: Int, headers: [String: String], failure: HTTPFailure) -> String? {
        if (300...399).contains(status) {
            return failure.isRetryable ? "redirect \(status) called retryable" : nil
        }
        let said = Set(
            headers.filter { $0.key.lowercased() == "x-should-retry" }
                .compactMap { ["true": true, "false": false][$0.value.trimmingCharacters(in: .whitespaces).lowercased()] })
        let byStatus = [408, 409, 429].contains(status) || (500...599).contains(status)
        let allowed = said.isEmpty ? [byStatus] : said
        let headerCount = headers.keys.filter { $0.lowercased() == "x-should-retry" }.count
        // A header that says neither true nor false leaves the status to decide.
        let open = headerCount > said.count ? allowed.union([byStatus]) : allowed
        return open.contains(failure.isRetryable) ? nil : "status \(status) retryable \(failure.isRetryable), headers \(headers)"
    }

    /// A lone `retry-after-ms` that is a plain decimal is the wait, in
    /// milliseconds. The value is read as redacted, like every header: one
    /// that holds eight bytes of the key (digits can: "12345678") is not a
    /// decimal any more, and the client then keeps to its own backoff.
    static func checkRetryAfterMilliseconds(headers: [String: String], failure: HTTPFailure) -> String? {
        let values = headers.filter { $0.key.lowercased() == "retry-after-ms" }.map(\.value)
        guard values.count == 1, let value = values.first else { return nil }
        let trimmed = redactor.redact(value).trimmingCharacters(in: .whitespaces)
        let decimal =
            !trimmed.isEmpty && trimmed.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2E }
            && trimmed.utf8.filter { $0 == 0x2E }.count <= 1 && trimmed != "."
        guard decimal, let milliseconds = Double(trimmed) else { return nil }
        return failure.retryAfter == milliseconds / 1000
            ? nil : "retry-after-ms \(value.debugDescription) read as \(failure.retryAfter.map { "\($0)" } ?? "nil") s"
    }

    /// `parseRetryAfter` is total and reads plain decimals exactly.
    public static func checkRetryAfter(_ value: String) -> String? {
        let parsed = HTTPFailure.parseRetryAfter(value, now: now)
        if let parsed, !(parsed.isFinite && parsed >= 0) { return "retry-after \(value.debugDescription) read as \(parsed)" }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let decimal =
            !trimmed.isEmpty && trimmed.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2E }
            && trimmed.utf8.filter { $0 == 0x2E }.count <= 1 && trimmed != "."
        if decimal, let exact = Double(trimmed), parsed != exact {
            return "retry-after \(value.debugDescription) read as \(parsed.map { "\($0)" } ?? "nil"), expected \(exact)"
        }
        return nil
    }

    static func expectedKind(status: Int, failure: HTTPFailure) -> HTTPFailure.Kind {
        switch status {
        case 400:
            let text = (failure.message ?? "").lowercased()
            let overflow = ["prompt is too long", "context window", "context_length", "context length"].contains { text.contains($0) }
            return overflow ? .contextWindowExceeded : .badRequest
        case 401: return .authentication
        case 403: return .permission
        case 404: return .notFound
        case 413: return .requestTooLarge
        case 429: return .rateLimited
        case 529: return .overloaded
        case 300...399: return .redirect
        case 500...599: return failure.errorType == "overloaded_error" ? .overloaded : .server
        default: return .other
        }
    }

    /// Whether `text` shows any piece of 8+ bytes of the fuzzer's key.
    public static func containsKey(_ text: String) -> Bool { keyPiece(in: text) != nil }

    /// The first 8-byte piece of `secret` (default: the fuzzer's key) found
    /// in `text`, or nil. Every longer piece contains one, so this finds a
    /// piece of any length >= 8. Written apart from the redactor it checks
    /// (a set of byte slices, no rolling window, no filter).
    public static func keyPiece(in text: String, of secret: String = apiKey) -> String? {
        let bytes = Array(text.utf8)
        let windows = secret == apiKey ? apiKeyWindows : pieces(of: secret)
        guard !windows.isEmpty, bytes.count >= piece else { return nil }
        for at in 0...(bytes.count - piece) where windows.contains(word(bytes, at)) {
            return String(decoding: bytes[at..<(at + piece)], as: UTF8.self)
        }
        return nil
    }

    /// The length of a piece: eight bytes, one word, so a window is compared
    /// by one hash of an integer instead of one of a slice (the slices were
    /// 40% of a campaign's time).
    static let piece = 8
    static let apiKeyWindows = pieces(of: apiKey)

    static func pieces(of secret: String) -> Set<UInt64> {
        let key = Array(secret.utf8)
        guard key.count >= piece else { return [] }
        return Set((0...(key.count - piece)).map { word(key, $0) })
    }

    /// Bytes `at..<at + 8` as one integer, the first byte lowest.
    static func word(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        var word: UInt64 = 0
        for offset in (0..<piece).reversed() { word = word << 8 | UInt64(bytes[at + offset]) }
        return word
    }

    /// `@K` replaced by the key, `@kN` by a cut-off key.
    static func withKey(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "@"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "K") {
                result.append(contentsOf: apiKey.utf8)
                index += 2
            } else if bytes[index] == UInt8(ascii: "@"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "k") {
                result.append(contentsOf: apiKey.utf8.prefix(8 + Int(bytes[index + 2]) % 24))
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// `name: value` lines (LF-separated; a line without a colon is skipped;
    /// a repeated name keeps its last value).
    static func parseHeaders(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var headers: [String: String] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
            headers[name] = value
        }
        return headers
    }
}
