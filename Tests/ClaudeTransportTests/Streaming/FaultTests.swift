import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Synchronization
import Testing

@testable import ClaudeTransport

// The loopback server injects each failure the issue lists; each must come
// back as its own typed error, with the partial snapshot where the stream
// had started, and without the key anywhere.

private let recording = "pydantic-ai__test_anthropic_web_search_citations_stream.sse"

/// Tests whose route replays `recording` from ../shared/corpus skip without it.
private let needsRecording = ConditionTrait.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus")

private func failure(_ client: MessagesClient, _ request: MessageRequest = simpleRequest) async -> TransportError? {
    do throws(TransportError) {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}

private func expectHTTP(
    _ error: TransportError?, status: Int, kind: HTTPFailure.Kind, type: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let failure = error?.httpFailure else {
        Issue.record("expected HTTP \(status), got \(String(describing: error))", sourceLocation: sourceLocation)
        return
    }
    #expect(failure.status == status, sourceLocation: sourceLocation)
    #expect(failure.kind == kind, sourceLocation: sourceLocation)
    #expect(failure.errorType == type, sourceLocation: sourceLocation)
    #expect(failure.requestID == "req_loopback_\(status)", sourceLocation: sourceLocation)
    #expect(failure.message?.isEmpty == false, sourceLocation: sourceLocation)
}

final class TokenSource: BearerTokenProvider {
    let calls = Mutex<[Bool]>([])
    func token(refresh: Bool) async throws -> String {
        calls.withLock { $0.append(refresh) }
        return refresh ? "token-refreshed-abcdef" : "token-first-abcdef"
    }
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct FaultTests {
    @Test func httpFailuresBeforeTheStream() async throws {
        try await withLoopbackServer { server in
            let cases: [(String, Int, HTTPFailure.Kind, String)] = [
                ("400", 400, .badRequest, "invalid_request_error"),
                ("400-overflow", 400, .contextWindowExceeded, "invalid_request_error"),
                ("401", 401, .authentication, "authentication_error"),
                ("403", 403, .permission, "permission_error"),
                ("404", 404, .notFound, "not_found_error"),
                ("413", 413, .requestTooLarge, "request_too_large"),
                ("429", 429, .rateLimited, "rate_limit_error"),
                ("500", 500, .server, "api_error"),
                ("529", 529, .overloaded, "overloaded_error"),
                ("418", 418, .other, "teapot_error"),
            ]
            for (route, status, kind, type) in cases {
                expectHTTP(await failure(loopbackClient(server, "fault/\(route)")), status: status, kind: kind, type: type)
            }
            #expect(await failure(loopbackClient(server, "fault/429"))?.httpFailure?.retryAfter == 1)
        }
    }

    @Test func bearerTokenIsRefreshedOnceOn401() async throws {
        try await withLoopbackServer { server in
            let source = TokenSource()
            let error = await failure(loopbackClient(server, "fault/401", credentials: .bearer(source)))
            #expect(error?.httpFailure?.kind == .authentication)
            #expect(source.calls.withLock { $0 } == [false, true])
            let requests = try await server.recordedRequests().filter { $0.method == "POST" }
            #expect(requests.map { $0.header("authorization") } == ["Bearer token-first-abcdef", "Bearer token-refreshed-abcdef"])
        }
    }

    @Test func echoedKeyIsRedacted() async throws {
        try await withLoopbackServer { server in
            let error = await failure(loopbackClient(server, "fault/401-echo"))
            #expect(error?.httpFailure?.kind == .authentication)
            #expect(error?.httpFailure?.message?.contains("<redacted>") == true)
            #expect(!"\(String(describing: error))".contains(testKey))
            let bearer = await failure(loopbackClient(server, "fault/401-echo", credentials: .bearer(TokenSource())))
            #expect(!"\(String(describing: bearer))".contains("token-refreshed-abcdef"))
            #expect(!"\(String(describing: bearer))".contains("token-first-abcdef"))
        }
    }

    @Test(needsRecording) func disconnectMidEventKeepsThePartialSnapshot() async throws {
        try await withLoopbackServer { server in
            let error = await failure(loopbackClient(server, "fault/disconnect/\(recording)"))
            switch error {
            case .connectionLost(_, let snapshot?):
                #expect(snapshot.stopReason == nil)
            case .stream(let streamError) where streamError.kind == .incomplete:
                #expect(streamError.snapshot != nil)
            default:
                Issue.record("expected a dropped connection, got \(String(describing: error))")
            }
        }
    }

    @Test(needsRecording) func stallPastTheIdleTimeout() async throws {
        try await withLoopbackServer { server in
            // 5 s, not 1: the timer runs from the request until the first
            // byte too, and a test server starved of CPU for a second (the
            // suite beside a fuzz campaign on two cores) sent nothing in
            // time, which left no snapshot to carry.
            let error = await failure(loopbackClient(server, "fault/stall/\(recording)", idleTimeout: 5))
            guard case .idleTimeout(let seconds, let snapshot) = error else {
                Issue.record("expected an idle timeout, got \(String(describing: error))")
                return
            }
            #expect(seconds == 5)
            #expect(snapshot != nil)
            // The server stalls for 30 s and then drops the connection, which
            // would be `.connectionLost`: an idle timeout can only come from
            // the idle timer. No wall-clock bound: when CPU-bound tests fill
            // the cooperative pool, resuming this task can take a minute.
        }
    }

    @Test(needsRecording) func overallTimeout() async throws {
        try await withLoopbackServer { server in
            let error = await failure(loopbackClient(server, "fault/slow/\(recording)", overallTimeout: 0.3))
            guard case .overallTimeout(let seconds, _) = error else {
                Issue.record("expected an overall timeout, got \(String(describing: error))")
                return
            }
            #expect(seconds == 0.3)
        }
    }

    @Test(needsRecording) func errorEventMidStream() async throws {
        try await withLoopbackServer { server in
            let error = await failure(loopbackClient(server, "fault/error-event/\(recording)"))
            guard case .stream(let streamError) = error, case .apiError(let event) = streamError.kind else {
                Issue.record("expected an error event, got \(String(describing: error))")
                return
            }
            #expect(event.type == "overloaded_error")
            #expect(event.requestID == "req_loopback_midstream")
            #expect(streamError.snapshot != nil)
            #expect(error?.snapshot != nil)
        }
    }

    @Test func hugeEventIsReadOrRefusedWithATypedError() async throws {
        try await withLoopbackServer { server in
            do throws(TransportError) {
                let snapshot = try await loopbackClient(server, "fault/huge").send(simpleRequest)
                #expect(snapshot.messageJSON()["content"]?[0]?["text"]?.stringValue?.utf8.count == 8 << 20)
            } catch {
                guard case .stream(let streamError) = error, case .framing = streamError.kind else {
                    Issue.record("expected success or an SSE limit error, got \(error)")
                    return
                }
            }
        }
    }

    @Test(needsRecording) func cancellingTheConsumerClosesTheConnection() async throws {
        try await withLoopbackServer { server in
            let client = loopbackClient(server, "fault/slow/\(recording)")
            let consumer = Task { () -> TransportError? in
                do throws(TransportError) {
                    for try await _ in try client.stream(simpleRequest) {}
                    return nil
                } catch {
                    return error
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            consumer.cancel()
            let error = await consumer.value
            guard case .cancelled = error else {
                Issue.record("expected cancellation, got \(String(describing: error))")
                return
            }
            // Without cancellation the slow route (~12 s) would end the loop
            // normally with no error; `.cancelled` means the cancel ended it.
            // No wall-clock bound, for the reason given in the stall test.
        }
    }

    @Test(needsRecording) func slowConsumerSkipsIntermediateSnapshotsButNotTheEnd() async throws {
        let bytes = Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(recording)))
        try await withLoopbackServer { server in
            let client = loopbackClient(server, "replay/\(recording)/chunk-64")
            var seen = 0
            var last: MessageSnapshot?
            for try await snapshot in try client.stream(simpleRequest) {
                seen += 1
                last = snapshot
                try await Task.sleep(for: .milliseconds(30))
            }
            var accumulator = MessageAccumulator()
            var events = 0
            try bytes.withUnsafeBytes { raw in try accumulator.feed(raw) { _ in events += 1 } }
            #expect(seen < events)
            #expect(last?.messageJSON().compactJSON == (try accumulator.finish()).messageJSON().compactJSON)
        }
    }
}
