import ClaudeStreaming
import Foundation
import Synchronization
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
        #expect(mapped.isRetryable == (status == 429 || status >= 500))
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
        #expect(HTTPFailure.parseRetryAfter(" Tue, 14 Nov 2023 22:13:50 GMT ", now: now) == 30)
        #expect(HTTPFailure.parseRetryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)  // past: no wait
    }

    @Test func httpDatesAreReadByTheCalendar() {
        // Against the epoch seconds of each date (checked with `date -u -d`).
        let cases: [(String, Double?)] = [
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
            ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
            ("Mon, 01 Mar 2100 00:00:00 GMT", 4_107_542_400),
            ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
            ("Thu, 29 Feb 2100 00:00:00 GMT", nil),  // 2100 is not a leap year
            ("Wed, 31 Apr 2026 00:00:00 GMT", nil),
            ("Wed, 21 Oct 2026 24:00:00 GMT", nil),
            ("Wed, 21 Oct 2026 07:28:00 UTC", nil),
            ("Wed, 21 Oct 2026 07:28:00 GMT+1", nil),
            ("Wednesday, 21-Oct-26 07:28:00 GMT", nil),  // RFC 850: not read
            ("Wed Oct 21 07:28:00 2026", nil),  // asctime: not read
            ("Wed, 2x Oct 2026 07:28:00 GMT", nil),
            ("Wed, 21 Oct 2026 07:28:00 G\u{301}T", nil),
        ]
        for (text, seconds) in cases {
            #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds, "\(text)")
        }
    }

    @Test func retryAfterMillisecondsComesFirst() {
        #expect(failure(429, "rate_limit_error", "x", headers: ["retry-after-ms": "1500", "retry-after": "7"]).retryAfter == 1.5)
        #expect(failure(429, "rate_limit_error", "x", headers: ["Retry-After-Ms": " 250 "]).retryAfter == 0.25)
        // One that does not read as a number leaves retry-after to say.
        #expect(failure(429, "rate_limit_error", "x", headers: ["retry-after-ms": "soon", "retry-after": "7"]).retryAfter == 7)
        #expect(failure(429, "rate_limit_error", "x", headers: ["retry-after-ms": "-5"]).retryAfter == nil)
        #expect(failure(429, "rate_limit_error", "x", headers: ["retry-after-ms": "inf"]).retryAfter == nil)
    }

    @Test(arguments: [408, 409, 429, 500, 502, 503, 504, 529, 599])
    func retryableStatuses(status: Int) {
        #expect(failure(status, "api_error", "x").isRetryable)
        #expect(!failure(status, "api_error", "x", headers: ["x-should-retry": "false"]).isRetryable)
    }

    @Test(arguments: [400, 401, 403, 404, 413, 418, 422])
    func otherStatusesAreNotRetried(status: Int) {
        #expect(!failure(status, "invalid_request_error", "x").isRetryable)
        #expect(failure(status, "invalid_request_error", "x", headers: ["X-Should-Retry": "TRUE"]).isRetryable)
        #expect(failure(status, "invalid_request_error", "x", headers: ["x-should-retry": " true "]).shouldRetry == true)
        #expect(failure(status, "invalid_request_error", "x", headers: ["x-should-retry": "maybe"]).shouldRetry == nil)
    }

    @Test func refusedAnswersAreNeverRetried() {
        let redirect = HTTPFailure(status: 307, headers: ["location": "https://elsewhere", "x-should-retry": "true"], body: [])
        #expect(redirect.kind == .redirect)
        #expect(!redirect.isRetryable)
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

    @Test func retryPolicyBacksOffWithJitterAndObeysTheServer() {
        let policy = RetryPolicy(maxRetries: 3, baseDelay: 0.5, maxDelay: 1.5)
        let overloaded = TransportError.http(failure(529, "overloaded_error", "x"))
        // Doubling, capped, then shortened by up to 25% at random.
        #expect(policy.delay(after: overloaded, retry: 0, unitRandom: 0) == 0.5)
        #expect(policy.delay(after: overloaded, retry: 1, unitRandom: 0) == 1)
        #expect(policy.delay(after: overloaded, retry: 2, unitRandom: 0) == 1.5)
        #expect(policy.delay(after: overloaded, retry: 1, unitRandom: 0.999_999)! > 0.75)
        #expect(policy.delay(after: overloaded, retry: 1, unitRandom: 0.5) == 0.875)
        #expect(policy.delay(after: overloaded, retry: 3, unitRandom: 0) == nil)
        // The server's wait, exact, unless it is longer than maxRetryAfter.
        let asked = TransportError.http(failure(429, "rate_limit_error", "x", headers: ["retry-after-ms": "1500"]))
        #expect(policy.delay(after: asked, retry: 0, unitRandom: 0.9) == 1.5)
        let tooLong = TransportError.http(failure(429, "rate_limit_error", "x", headers: ["retry-after": "61"]))
        #expect(policy.delay(after: tooLong, retry: 0) == nil)
        // Never a request the server refused, a deadline or a cancellation.
        #expect(policy.delay(after: .http(failure(400, "invalid_request_error", "x")), retry: 0) == nil)
        #expect(policy.delay(after: .overallTimeout(seconds: 1, snapshot: nil), retry: 0) == nil)
        #expect(policy.delay(after: .cancelled(snapshot: nil), retry: 0) == nil)
        #expect(policy.delay(after: .network("connection refused"), retry: 0, unitRandom: 0) == 0.5)
        #expect(RetryPolicy.none.delay(after: overloaded, retry: 0) == nil)
        // Odd settings cannot make a negative or NaN wait.
        let odd = RetryPolicy(maxRetries: 1, baseDelay: -3, jitter: .nan)
        #expect(odd.delay(after: overloaded, retry: 0) == 0)
    }

    @Test func brokenStreamsAreRetryableUnlessTheyBrokeTheProtocol() {
        let incomplete = MessageStreamError(kind: .incomplete, eventIndex: nil, byteOffset: 10, snapshot: nil)
        #expect(TransportError.stream(incomplete).isRetryable)
        #expect(TransportError.stream(incomplete).brokeStream)
        for (type, retryable) in [
            ("overloaded_error", true), ("api_error", true), ("rate_limit_error", true), ("timeout_error", true),
            ("invalid_request_error", false), ("authentication_error", false), ("billing_error", false),
        ] {
            let event = MessageStreamError(kind: .apiError(APIErrorEvent(type: type, message: "x")), eventIndex: 3, byteOffset: 9, snapshot: nil)
            #expect(TransportError.stream(event).isRetryable == retryable, "\(type)")
        }
        let violation = MessageStreamError(kind: .protocolViolation("two message_start"), eventIndex: 2, byteOffset: 5, snapshot: nil)
        #expect(!TransportError.stream(violation).isRetryable)
        #expect(TransportError.connectionLost(reason: "reset", snapshot: nil).brokeStream)
        #expect(!TransportError.idleTimeout(seconds: 1, snapshot: nil).brokeStream)
        #expect(!TransportError.network("refused").brokeStream)
        let noRestarts = RetryPolicy(restartsBrokenStreams: false)
        #expect(noRestarts.delay(after: .stream(incomplete), retry: 0) == nil)
        #expect(noRestarts.delay(after: .network("refused"), retry: 0) != nil)
    }

    @Test func aBudgetIsSharedCountedReportedAndBoundByTheDeadline() {
        let reported = Mutex<[String]>([])
        let budget = RetryBudget(
            RetryPolicy(maxRetries: 2, baseDelay: 0.25, jitter: 0, onRetry: { attempt in reported.withLock { $0.append("\(attempt)") } }))
        #expect(budget.take(after: .network("refused")) == 0.25)
        #expect(budget.take(after: .http(failure(400, "invalid_request_error", "x"))) == nil)  // not counted
        #expect(budget.take(after: .connectionLost(reason: "reset", snapshot: nil)) == 0.5)
        #expect(budget.take(after: .network("refused")) == nil)
        #expect(budget.retriesUsed == 2)
        #expect(
            reported.withLock { $0 } == [
                "retry 1 of 2 in 0.25 s: network error: refused",
                "retry 2 of 2 in 0.50 s: the stream broke (connection lost mid-stream: reset (before the first event)); sending the round again",
            ])
        let late = RetryBudget(RetryPolicy(baseDelay: 2, jitter: 0, deadline: .now + .seconds(1)))
        #expect(late.take(after: .network("refused")) == nil)
        #expect(late.retriesUsed == 0)
        let byRequest = RetryBudget(RetryPolicy(baseDelay: 2, jitter: 0))
        #expect(byRequest.take(after: .network("refused"), deadline: .now + .seconds(1)) == nil)
        #expect(byRequest.take(after: .network("refused"), deadline: .now + .seconds(10)) == 2)
    }
}
