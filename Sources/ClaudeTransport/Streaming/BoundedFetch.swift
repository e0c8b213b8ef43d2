import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A one-shot request (the Models API lookup, token counting) with the same guards as the
// stream: a redirect is never followed (URLSession would resend the
// credential to whatever origin `location` names; `URLSession.shared`
// follows them), and the body is read up to a cap, where the task is
// cancelled and the connection closed.

/// What a bounded fetch got: status, lower-cased headers, at most `cap` body bytes.
struct FetchedAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
}

/// Runs one request whose redirects are refused and whose body is capped.
final class BoundedFetch: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var answer: FetchedAnswer?
        /// Compressed although `identity` was asked: the body is never kept.
        var refusedEncoding = false
        var continuation: CheckedContinuation<Result<FetchedAnswer, URLError>, Never>?
    }

    private let cap: Int
    private let state = Mutex(State())
    /// Every cancel of the task, ordered before its completion.
    private let cancelGate = CancelGate()

    private init(cap: Int) { self.cap = cap }

    /// The configuration of a fetch's session.
    static func sessionConfiguration() -> URLSessionConfiguration { .uncached() }

    /// The answer to `request`, or the error that prevented one.
    static func fetch(_ request: URLRequest, cap: Int) async -> Result<FetchedAnswer, URLError> {
        let fetch = BoundedFetch(cap: cap)
        let session = URLSession(configuration: sessionConfiguration(), delegate: fetch, delegateQueue: BoundedDelegateQueue())
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            fetch.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        let refused = !isIdentity(headers["content-encoding"])
        let answer = FetchedAnswer(status: http?.statusCode ?? 0, headers: headers, body: [])
        let early = state.withLock { state -> CheckedContinuation<Result<FetchedAnswer, URLError>, Never>? in
            state.answer = answer
            state.refusedEncoding = refused
            // Answered at once: the caller need not wait while libcurl inflates the rest.
            defer { if refused { state.continuation = nil } }
            return refused ? state.continuation : nil
        }
        early?.resume(returning: .success(answer))
        // A compressed answer is refused unread, as for the stream (see
        // MessagesClient.acceptEncoding); Linux ignores the disposition, so
        // the task is cancelled too, and the pieces still decoded are dropped.
        completionHandler(refused ? .cancel : .allow)
        if refused { cancelGate.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let full = state.withLock { state -> Bool in
            guard !state.refusedEncoding, let count = state.answer?.body.count, count < cap else { return false }
            // In place: a copy of the answer would copy the body once per piece.
            state.answer?.body.append(contentsOf: data.prefix(cap - count))
            return count + min(data.count, cap - count) >= cap
        }
        if full { cancelGate.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // First: the cancels under way return before the task leaves its
        // session's registry (CancelGate.swift).
        cancelGate.complete()
        let (continuation, result) = state.withLock {
            state -> (CheckedContinuation<Result<FetchedAnswer, URLError>, Never>?, Result<FetchedAnswer, URLError>) in
            defer { state.continuation = nil }
            // Cancelled at the cap or at a refused encoding: the answer so far stands.
            if let answer = state.answer { return (state.continuation, .success(answer)) }
            return (state.continuation, .failure(error as? URLError ?? URLError(.unknown)))
        }
        continuation?.resume(returning: result)
    }
}

extension MessagesClient {
    /// One request whose redirects are refused and whose body is read up to
    /// ``ClientConfiguration/maxErrorBodyBytes`` (a capabilities or token-count answer is a few KB).
    func boundedFetch(_ request: URLRequest, redactor: SecretRedactor) async throws(TransportError) -> (Int, [String: String], [UInt8]) {
        switch await BoundedFetch.fetch(request, cap: configuration.maxErrorBodyBytes) {
        case .success(let answer): return (answer.status, answer.headers, answer.body)
        case .failure(let error): throw .network(redactor.redact(SystemErrorDescription.phrase(for: error)))
        }
    }
}
