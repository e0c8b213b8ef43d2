import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import FuzzProperties
import IncrementalJSON
import Testing

@testable import ClaudeTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A server that tries to take the key elsewhere, echo it back, or exhaust
// the client: each attempt ends in a typed error, with no piece of the key
// in anything the client reports, and the client stops reading early.

private func failure(_ client: MessagesClient) async -> TransportError? {
    do throws(TransportError) {
        _ = try await client.send(simpleRequest)
        return nil
    } catch {
        return error
    }
}

private func lookupFailure(_ client: MessagesClient) async -> TransportError? {
    do throws(TransportError) {
        _ = try await client.model(lookingUp: "claude-x")
        return nil
    } catch {
        return error
    }
}

private func leak(_ text: String) -> String? { TransportFrameFuzzProperty.keyPiece(in: text, of: testKey) }

private func client(
    _ server: LoopbackServer, _ route: String,
    options: MessageAccumulatorOptions = MessageAccumulatorOptions(),
    maxErrorBodyBytes: Int = 1 << 20
) -> MessagesClient {
    MessagesClient(
        configuration: ClientConfiguration(
            baseURL: server.url(route), credentials: .apiKey(testKey), idleTimeout: 20, overallTimeout: 600,
            accumulatorOptions: options, maxErrorBodyBytes: maxErrorBodyBytes))
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct HostileServerTests {
    @Test(arguments: [307, 302])
    func redirectIsRefusedAndTheOtherOriginSeesNothing(status: Int) async throws {
        try await withLoopbackServer { server in
            try await withLoopbackServer { other in
                let error = await failure(client(server, "fault/redirect-\(status)/\(other.port)"))
                guard let failure = error?.httpFailure else {
                    Issue.record("expected a redirect failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.status == status)
                #expect(failure.kind == .redirect)
                #expect(failure.location == "http://127.0.0.1:\(other.port)/echo/v1/messages")
                #expect(failure.description.contains("redirect"))
                #expect(!failure.isRetryable)
                let reached = try await other.recordedRequests().filter { $0.path != "/_requests" }
                #expect(reached.isEmpty, "the other origin received \(reached.map(\.path))")
                #expect(try await server.recordedRequests().filter { $0.method == "POST" }.count == 1)
            }
        }
    }

    @Test func modelsLookupRefusesRedirectsToo() async throws {
        try await withLoopbackServer { server in
            try await withLoopbackServer { other in
                let error = await lookupFailure(client(server, "fault/redirect-307/\(other.port)"))
                #expect(error?.httpFailure?.kind == .redirect, "\(String(describing: error))")
                #expect(error?.httpFailure?.location?.contains(":\(other.port)/") == true)
                let reached = try await other.recordedRequests().filter { $0.path != "/_requests" }
                #expect(reached.isEmpty, "the other origin received \(reached.map(\.path))")
            }
        }
    }

    @Test func midStreamErrorEventEchoingTheKeyIsRedacted() async throws {
        try await withLoopbackServer { server in
            let error = await failure(client(server, "fault/error-event-echo"))
            guard case .stream(let streamError)? = error, case .apiError(let event) = streamError.kind else {
                Issue.record("expected an API error event, got \(String(describing: error))")
                return
            }
            #expect(event.type == "invalid_request_error")
            #expect(event.message.hasPrefix("bad header x-api-key: <redacted>"))
            for text in [String(describing: error), streamError.description, event.message, event.requestID ?? ""] {
                #expect(leak(text) == nil, "\(text)")
            }
        }
    }

    @Test func cutOffKeyInBodyAndHeaderIsRedacted() async throws {
        try await withLoopbackServer { server in
            let error = await failure(client(server, "fault/401-cut-echo"))
            let failure = try #require(error?.httpFailure)
            #expect(failure.kind == .authentication)
            #expect(failure.requestID?.hasPrefix("req_<redacted>") == true)
            for text in [String(describing: error), failure.message ?? "", failure.requestID ?? ""] {
                #expect(leak(text) == nil, "\(text)")
            }
        }
    }

    @Test func hugeErrorBodyIsNotReadPastTheCap() async throws {
        try await withLoopbackServer { server in
            let error = await failure(client(server, "t-huge/fault/500-huge", maxErrorBodyBytes: 1 << 20))
            let failure = try #require(error?.httpFailure)
            #expect(failure.status == 500 && failure.kind == .server)
            // The server observes the connection closing long before its 64 MiB are out.
            var sent: JSONValue?
            for _ in 0..<100 {
                sent = try await server.sentRecords().first { $0["path"]?.stringValue?.contains("t-huge") == true }
                if sent?["done"]?.boolValue == true { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let record = try #require(sent)
            #expect(record["done"]?.boolValue == true, "the server was still sending after 10 s")
            #expect(record["complete"]?.boolValue == false, "the whole 64 MiB body was sent")
            let bytes = try #require(try record["sent"]?.numberValue?.int())
            // Measured: 1.1-2.0 MiB. Half the body leaves a second of delegate
            // lag for a loaded machine; without the close all 64 MiB go out.
            #expect(bytes < 32 << 20, "\(bytes) bytes sent before the client closed")
        }
    }

    @Test func acceptEncodingIsIdentityAndAGzipBodyIsRefusedUnread() async throws {
        try await withLoopbackServer { server in
            var options = MessageAccumulatorOptions()
            options.maxMessageBytes = 1 << 20
            let error = await failure(client(server, "fault/gzip-bomb", options: options))
            let recorded = try #require(try await server.recordedRequests().first { $0.method == "POST" })
            #expect(recorded.header("accept-encoding") == "identity")
            // URLSession would decode the gzip whatever was asked (64 MiB
            // here, 1 GiB for a real bomb) before any limit could act: the
            // answer is refused at its headers instead.
            let failure = try #require(error?.httpFailure, "got \(String(describing: error))")
            #expect(failure.kind == .unrequestedContentEncoding)
            #expect(failure.contentEncoding == "gzip")
            #expect(failure.description.contains("gzip"))
        }
    }

    @Test(arguments: [("not-sse-html", "text/html"), ("not-sse-json", "application/json")])
    func okAnswerThatIsNotAnEventStreamIsTyped(route: String, contentType: String) async throws {
        try await withLoopbackServer { server in
            let error = await failure(client(server, "fault/\(route)"))
            let failure = try #require(error?.httpFailure, "got \(String(describing: error))")
            #expect(failure.status == 200)
            #expect(failure.kind == .notEventStream)
            #expect(failure.contentType == contentType)
            #expect(failure.description.contains(contentType))
            if contentType == "application/json" {
                #expect(failure.errorType == "invalid_request_error")
                #expect(failure.message == "bad key <redacted>")
            } else {
                #expect(failure.message?.contains("502 Bad Gateway") == true)
            }
            #expect(leak(String(describing: error)) == nil)
        }
    }

    @Test func okAnswerWithoutContentTypeIsJudgedByItsFirstBytes() async throws {
        try await withLoopbackServer { server in
            let error = await failure(client(server, "fault/not-sse-no-type"))
            let failure = try #require(error?.httpFailure, "got \(String(describing: error))")
            #expect(failure.kind == .notEventStream)
            #expect(failure.contentType == nil)
            #expect(failure.message?.contains("Bad Gateway") == true)
            // A real stream without the header still streams.
            let snapshot = try await client(server, "fault/sse-no-type").send(simpleRequest)
            #expect(snapshot.text == "untyped")
        }
    }
}
