import ClaudeStreaming
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The thin transport: encode the request, open one streamed POST, move the
// body's bytes into the core as they arrive, and turn every way that can end
// into a typed error. All parsing stays in ClaudeStreaming.
//
//   stream(request)  ── checks credentials + encodes (throws before any traffic)
//        │ first next()
//        ▼
//   driver task ── token ── attempt ──► 2xx: delegate feeds MessageAccumulator ──► channel ──► consumer
//                    ▲          │
//                    └── a retryable answer or a failed connection, from the RetryBudget
//                        (RetryPolicy.standard: 2 retries), or 401 with a bearer provider (once)
//
// Once an attempt streams, the client never sends it again: the consumer has
// seen its snapshots. ClaudeSession restarts such a round from the same budget.

/// Streams Messages API responses.
public struct MessagesClient: Sendable {
    /// Where and how requests are sent.
    public var configuration: ClientConfiguration

    /// A client sending as `configuration` says. Nothing connects until a
    /// stream's first `next()`.
    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    /// The snapshots of the response to `request`. The connection opens on
    /// the first `next()`; cancelling the consuming task closes it.
    ///
    /// - Throws: ``TransportError/missingCredential(_:)`` or
    ///   ``TransportError/invalidRequest(_:)``, before any network traffic.
    public func stream(_ request: MessageRequest) throws(TransportError) -> MessageSnapshotStream {
        try stream(request, retries: RetryBudget(configuration.retryPolicy))
    }

    /// As ``stream(_:)``, taking its retries from `budget`, which a caller
    /// that retries too (a session restarting a broken round) shares.
    public func stream(_ request: MessageRequest, retries budget: RetryBudget) throws(TransportError) -> MessageSnapshotStream {
        _ = try checkedCredentials()  // before encoding: a missing key is reported first
        let encoded: EncodedRequest
        do { encoded = try RequestEncoder.encode(request) } catch { throw .invalidRequest(error) }
        return try stream(encoded: encoded, retries: budget)
    }

    /// The complete message. With `onSnapshot`, each snapshot is handed to
    /// it as the message grows (newest only, see ``MessageSnapshotStream``);
    /// without, the consumer is woken only at the end.
    public func send(
        _ request: MessageRequest,
        onSnapshot: ((MessageSnapshot) -> Void)? = nil
    ) async throws(TransportError) -> MessageSnapshot {
        try await send(request, retries: RetryBudget(configuration.retryPolicy), onSnapshot: onSnapshot)
    }

    /// As ``send(_:onSnapshot:)``, taking its retries from `budget`.
    public func send(
        _ request: MessageRequest, retries budget: RetryBudget,
        onSnapshot: ((MessageSnapshot) -> Void)? = nil
    ) async throws(TransportError) -> MessageSnapshot {
        let stream = try stream(request, retries: budget)
        var last: MessageSnapshot?
        if let onSnapshot {
            for try await snapshot in stream {
                onSnapshot(snapshot)
                last = snapshot
            }
        } else {
            last = try await stream.snapshotChannel.final()
        }
        guard let last else { throw .invalidResponse("the stream ended without a message") }
        return last
    }

    func checkedCredentials() throws(TransportError) -> Credentials {
        if configuration.credentials == nil, configuration.endpoint.requestSigner != nil {
            return .proxied(headers: [])  // the signer authenticates
        }
        guard let credentials = configuration.credentials else {
            throw .missingCredential("no API key or credential configured (ANTHROPIC_API_KEY is unset)")
        }
        if case .apiKey(let key) = credentials, key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .missingCredential("the API key is empty")
        }
        return credentials
    }
}

/// Runs the attempts of one request.
struct StreamDriver: Sendable {
    let configuration: ClientConfiguration
    let credentials: Credentials
    let encoded: EncodedRequest
    let url: URL
    let budget: RetryBudget

    func start(_ channel: SnapshotChannel) {
        let task = Task { await run(channel) }
        channel.onEnd { task.cancel() }
        let overall = configuration.overallTimeout
        let clamped = channel.arm(overallTimeout: overall)
        let timer = Task {
            guard (try? await Task.sleep(for: .seconds(clamped))) != nil else { return }
            channel.cancel(with: .overallTimeout(seconds: overall, snapshot: channel.latest))
        }
        channel.onEnd { timer.cancel() }
    }

    func run(_ channel: SnapshotChannel) async {
        var token: String?
        var mustRefresh = false
        var refreshed = false
        while !channel.isFinished {
            if case .bearer(let provider) = credentials, token == nil || mustRefresh {
                do { token = try await provider.token(refresh: mustRefresh) } catch {
                    return channel.finish(Task.isCancelled ? .cancelled(snapshot: nil) : .credentialProvider("\(type(of: error))"))
                }
                mustRefresh = false
            }
            let failure: TransportError
            switch await attempt(channel, bearer: token) {
            case .streaming:
                return  // the delegate ends the channel
            case .failed(let error):
                failure = error
            case .httpFailure(let answer):
                if answer.kind == .authentication, case .bearer = credentials, !refreshed {
                    refreshed = true
                    mustRefresh = true
                    continue
                }
                failure = .http(answer)
            }
            // Nothing of the attempt reached the consumer: it may be sent again.
            guard let delay = budget.take(after: failure, deadline: channel.deadline) else { return channel.finish(failure) }
            guard (try? await Task.sleep(for: .seconds(delay))) != nil else {
                return channel.finish(.cancelled(snapshot: nil))
            }
        }
    }

    private func attempt(_ channel: SnapshotChannel, bearer: String?) async -> AttemptStart {
        var request = configuration.post(url: url, encoded, credentials: credentials, bearer: bearer)
        let signed: [String]
        do { signed = try await configuration.endpoint.signRequest(&request, headers: encoded.headers) } catch {
            return .failed(.credentialProvider("request signer failed: \(type(of: error))"))
        }
        var options = configuration.accumulatorOptions
        options.framing = configuration.endpoint.framing
        // A request with an output schema is answered in JSON: parse it as it streams.
        if encoded.structuredOutput, options.structuredOutput == .none { options.structuredOutput = .allTextBlocks }
        let session = makeURLSession(
            delegate: StreamingDelegate(
                channel: channel, options: options,
                redactor: SecretRedactor(secrets: credentials.secretValues + (bearer.map { [$0] } ?? []) + signed),
                maxErrorBodyBytes: configuration.maxErrorBodyBytes, idleTimeout: configuration.idleTimeout))
        guard let delegate = session.delegate as? StreamingDelegate else { return .failed(.network("no delegate")) }
        let task = session.dataTask(with: request)
        // The channel ends from delegate callbacks too: never wait there (see
        // BoundedDelegateQueue). The gate leaves a completed task alone and
        // orders a cancel under way before the task's completion (a crash
        // in FoundationNetworking's task registry otherwise; CancelGate.swift).
        channel.onEnd { delegate.cancelGate.cancel(task) }
        task.resume()
        return await delegate.started()
    }

    /// Sent on every request: `identity`, so that the body arrives as the
    /// bytes the limits count. URLSession decodes gzip and deflate itself,
    /// before the delegate sees a byte, and on Linux nothing bounds that
    /// decoding: a 1 MB gzip bomb expands to 1 GiB in the session's buffers
    /// before ``MessageAccumulatorOptions/maxMessageBytes`` or the error
    /// body cap can act. An SSE stream gains little from compression anyway.
    static let acceptEncoding = "identity"

    private func makeURLSession(delegate: StreamingDelegate) -> URLSession {
        URLSession(configuration: configuration.streamSessionConfiguration, delegate: delegate, delegateQueue: BoundedDelegateQueue())
    }
}
