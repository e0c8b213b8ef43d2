import Foundation
import Testing

@testable import ClaudeTransport

private func failure(_ status: Int, _ type: String, _ message: String, headers: [String: String] = [:]) -> HTTPFailure {
    let body = #"{"type":"error","error":{"type":"\#(type)","message":"\#(message)"},"request_id":"req_body"}"#
    return HTTPFailure(status: status, headers: headers, body: Array(body.utf8))
}

@Suite struct HTTPFailureTests {
    @Test(arguments: [
        (400, "invalid_request_error", HTTPFailure.Kind.badRequest),
        (401, "authentication_error", .authentication),
        (403, "permission_error", .permission),
        (404, "not_found_error", .notFound),
        (413, "request_too_large", .requestTooLarge),
        (429, "rate_limit_error", .rateLimited),
        (500, "api_error", .server),
        (529, "overloaded_error", .overloaded),
        (418, "teapot_error", .other),
    ])
    func statusMapsToKind(status: Int, type: String, kind: HTTPFailure.Kind) {
        let mapped = failure(status, type, "something")
        #expect(mapped.kind == kind)
        #expect(mapped.status == status)
        #expect(mapped.errorType == type)
        #expect(mapped.message == "something")
        #expect(mapped.isRetryable == (status == 429 || status == 529))
    }

    @Test func contextOverflowIsItsOwnCase() {
        #expect(failure(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum").kind == .contextWindowExceeded)
        #expect(failure(400, "invalid_request_error", "input exceeds the context window").kind == .contextWindowExceeded)
        #expect(failure(400, "invalid_request_error", "max_tokens: Field required").kind == .badRequest)
    }

    @Test func requestIDPrefersTheHeader() {
        #expect(failure(500, "api_error", "x", headers: ["Request-Id": "req_header"]).requestID == "req_header")
        #expect(failure(500, "api_error", "x").requestID == "req_body")
    }

    @Test func retryAfterSecondsAndDates() {
        #expect(failure(429, "rate_limit_error", "slow down", headers: ["retry-after": "7"]).retryAfter == 7)
        #expect(HTTPFailure.parseRetryAfter("1.5") == 1.5)
        #expect(HTTPFailure.parseRetryAfter("soon") == nil)
        #expect(HTTPFailure.parseRetryAfter("-3") == nil)
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(HTTPFailure.parseRetryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
    }

    @Test func nonJSONBodyKeepsAReadablePrefix() {
        let mapped = HTTPFailure(status: 502, headers: [:], body: Array("<html>Bad gateway</html>".utf8))
        #expect(mapped.kind == .server)
        #expect(mapped.errorType == nil)
        #expect(mapped.message == "<html>Bad gateway</html>")
        let empty = HTTPFailure(status: 503, headers: [:], body: [])
        #expect(empty.message == nil)
    }

    @Test func descriptionNamesStatusTypeMessageAndRetryAfter() {
        let mapped = failure(429, "rate_limit_error", "slow down", headers: ["retry-after": "2", "request-id": "req_9"])
        #expect(mapped.description == "HTTP 429 rate_limit_error: slow down (retry after 2 s) [request req_9]")
        #expect(TransportError.http(mapped).description == mapped.description)
    }

    @Test func retryPolicyOnlyForRateLimitAndOverload() {
        let policy = RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 10)
        #expect(policy.delay(after: failure(529, "overloaded_error", "x"), retry: 0) == 0.5)
        #expect(policy.delay(after: failure(529, "overloaded_error", "x"), retry: 1) == 1)
        #expect(policy.delay(after: failure(529, "overloaded_error", "x"), retry: 2) == nil)
        #expect(policy.delay(after: failure(429, "rate_limit_error", "x", headers: ["retry-after": "3"]), retry: 0) == 3)
        #expect(policy.delay(after: failure(429, "rate_limit_error", "x", headers: ["retry-after": "60"]), retry: 0) == nil)
        #expect(policy.delay(after: failure(500, "api_error", "x"), retry: 0) == nil)
        #expect(RetryPolicy.none.delay(after: failure(529, "overloaded_error", "x"), retry: 0) == nil)
    }
}
