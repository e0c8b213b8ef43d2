import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

@testable import ClaudeTransport

// Retries against the scripted loopback server: for each fault, how many
// requests reached the server, how long it waited between them (by the
// server's own clock), what the caller was told, and how the request ended.

private let answer = StreamScript().text("recovered").end("end_turn")

/// The retries a client reported, in order.
private final class RetryLog: Sendable {
    let attempts = Mutex<[RetryAttempt]>([])
}

/// A client of script `id` with `policy`, whose retries are recorded.
private func client(
    _ server: LoopbackServer, _ id: String, _ policy: RetryPolicy, overallTimeout: Double = 600, heard: RetryLog
) -> MessagesClient {
    var policy = policy
    policy.onRetry = { attempt in heard.attempts.withLock { $0.append(attempt) } }
    return MessagesClient(
        configuration: ClientConfiguration(
            baseURL: server.base(id), credentials: .apiKey(testKey), idleTimeout: loopbackIdleTimeout, overallTimeout: overallTimeout, retryPolicy: policy))
}

private func outcome(_ client: MessagesClient) async -> Result<MessageSnapshot, TransportError> {
    do throws(TransportError) { return .success(try await client.send(simpleRequest)) } catch { return .failure(error) }
}

/// Fast waits for the tests that do not measure them.
private let quick = RetryPolicy(baseDelay: 0.05, maxDelay: 0.2)

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct RetryTests {
    @Test func theDefaultIsTwoRetries() {
        let configuration = ClientConfiguration(credentials: .apiKey(testKey))
        #expect(configuration.retryPolicy.maxRetries == 2)
        #expect(configuration.retryPolicy.baseDelay == 0.5)
        #expect(configuration.retryPolicy.maxDelay == 8)
        #expect(configuration.retryPolicy.restartsBrokenStreams)
    }

    @Test(arguments: [(503, "api_error"), (529, "overloaded_error"), (500, "api_error"), (408, "timeout_error"), (409, "api_error")])
    func aRetryableStatusIsSentAgain(status: Int, type: String) async throws {
        try await withLoopbackServer { server in
            let id = "retry-\(status)"
            try await server.script(id, [.apiError(status, type), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, id, RetryPolicy.standard, heard: heard))
            #expect((try? result.get())?.text == "recovered")
            #expect(try await server.recorded(id).count == 2)
            let attempts = heard.attempts.withLock { $0 }
            #expect(attempts.map(\.retry) == [1])
            #expect(attempts.first?.error.httpFailure?.status == status)
            #expect(attempts.first?.restartsStream == false)
            // The standard first wait: 0.5 s shortened by up to 25%.
            let delay = try #require(attempts.first?.delay)
            #expect(delay >= 0.375 && delay <= 0.5)
            let gap = try #require(try await server.gaps(id).first)
            #expect(gap >= delay - 0.01)
        }
    }

    @Test func retryAfterMillisecondsIsTheWait() async throws {
        try await withLoopbackServer { server in
            try await server.script(
                "retry-429", [.apiError(429, "rate_limit_error", headers: ["retry-after-ms": "1500", "retry-after": "30"]), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, "retry-429", RetryPolicy.standard, heard: heard))
            #expect((try? result.get())?.text == "recovered")
            #expect(heard.attempts.withLock { $0.map(\.delay) } == [1.5])
            let gaps = try await server.gaps("retry-429")
            #expect(gaps.count == 1)
            #expect(gaps[0] >= 1.49)
        }
    }

    @Test(arguments: [
        (400, "invalid_request_error"), (401, "authentication_error"), (403, "permission_error"), (404, "not_found_error"), (413, "request_too_large"),
    ])
    func anotherClientErrorIsNotRetried(status: Int, type: String) async throws {
        try await withLoopbackServer { server in
            let id = "no-retry-\(status)"
            try await server.script(id, [.apiError(status, type), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, id, quick, heard: heard))
            guard case .failure(let error) = result else {
                Issue.record("expected HTTP \(status), got a message")
                return
            }
            #expect(error.httpFailure?.status == status)
            #expect(try await server.recorded(id).count == 1)
            #expect(heard.attempts.withLock { $0.isEmpty })
        }
    }

    @Test func theServerSaysWhetherToRetry() async throws {
        try await withLoopbackServer { server in
            try await server.script("never", [.apiError(503, "api_error", headers: ["x-should-retry": "false"]), .stream(answer)])
            let heard = RetryLog()
            let refused = await outcome(client(server, "never", quick, heard: heard))
            #expect((try? refused.get()) == nil)
            #expect(try await server.recorded("never").count == 1)
            try await server.script("again", [.apiError(400, "invalid_request_error", headers: ["x-should-retry": "true"]), .stream(answer)])
            let retried = await outcome(client(server, "again", quick, heard: heard))
            #expect((try? retried.get())?.text == "recovered")
            #expect(try await server.recorded("again").count == 2)
        }
    }

    @Test func retriesEndWithTheLastAnswerAndBackOff() async throws {
        try await withLoopbackServer { server in
            let overloaded = ScriptedAnswer.apiError(529, "overloaded_error")
            try await server.script("exhausted", [overloaded, overloaded, overloaded, .stream(answer)])
            let heard = RetryLog()
            let policy = RetryPolicy(baseDelay: 0.2, maxDelay: 8, jitter: 0)
            let result = await outcome(client(server, "exhausted", policy, heard: heard))
            guard case .failure(let error) = result else {
                Issue.record("expected the third 529, got a message")
                return
            }
            #expect(error.httpFailure?.kind == .overloaded)
            #expect(try await server.recorded("exhausted").count == 3)
            #expect(heard.attempts.withLock { $0.map(\.delay) } == [0.2, 0.4])
            let gaps = try await server.gaps("exhausted")
            #expect(gaps.count == 2)
            #expect(gaps[0] >= 0.19)
            #expect(gaps[1] >= 0.39)
        }
    }

    @Test func aConnectionResetBeforeTheAnswerIsRetried() async throws {
        try await withLoopbackServer { server in
            try await server.script("reset", [.reset, .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, "reset", quick, heard: heard))
            #expect((try? result.get())?.text == "recovered")
            #expect(try await server.recorded("reset").count == 2)
            let attempt = try #require(heard.attempts.withLock { $0.first })
            guard case .network = attempt.error else {
                Issue.record("expected a network error before the answer, got \(attempt.error)")
                return
            }
        }
    }

    @Test func noneTurnsRetriesOff() async throws {
        try await withLoopbackServer { server in
            try await server.script("off", [.apiError(529, "overloaded_error"), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, "off", RetryPolicy.none, heard: heard))
            #expect((try? result.get()) == nil)
            #expect(try await server.recorded("off").count == 1)
            #expect(heard.attempts.withLock { $0.isEmpty })
        }
    }

    @Test func noRetryIsSentPastTheRequestsDeadline() async throws {
        try await withLoopbackServer { server in
            // The server asks for 5 s; the request has 2 s in all.
            try await server.script("late", [.apiError(529, "overloaded_error", headers: ["retry-after": "5"]), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, "late", RetryPolicy.standard, overallTimeout: 2, heard: heard))
            guard case .failure(let error) = result else {
                Issue.record("expected the 529, got a message")
                return
            }
            #expect(error.httpFailure?.status == 529)
            #expect(try await server.recorded("late").count == 1)
            #expect(heard.attempts.withLock { $0.isEmpty })
            // And a policy deadline of the caller's run, the same way.
            try await server.script("run-deadline", [.apiError(503, "api_error", headers: ["retry-after": "3"]), .stream(answer)])
            let bounded = RetryPolicy(deadline: .now + .seconds(1))
            _ = await outcome(client(server, "run-deadline", bounded, heard: heard))
            #expect(try await server.recorded("run-deadline").count == 1)
        }
    }

    @Test func aStreamThatBrokeIsNotSentAgainByTheClient() async throws {
        try await withLoopbackServer { server in
            // The client has handed out snapshots of it: only a session, which
            // can say the round restarted, sends such a request again.
            try await server.script("broken", [.dropped(answer, after: answer.utf8.count / 2), .stream(answer)])
            let heard = RetryLog()
            let result = await outcome(client(server, "broken", quick, heard: heard))
            guard case .failure(let error) = result else {
                Issue.record("expected a broken stream, got a message")
                return
            }
            #expect(error.brokeStream)
            #expect(error.isRetryable)
            #expect(try await server.recorded("broken").count == 1)
            #expect(heard.attempts.withLock { $0.isEmpty })
        }
    }
}
