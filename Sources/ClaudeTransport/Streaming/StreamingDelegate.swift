import ClaudeStreaming
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One attempt of one request. URLSession calls this delegate on a serial
// queue with each piece of the body as it arrives (`didReceive data`; Linux
// has no `bytes(for:)`), and the bytes go straight into the accumulator:
// no copy, no per-byte async, one snapshot per piece (the newest). A 2xx
// answer switches to streaming and tells the driver so (a retry is never
// considered after that); any other status collects the (bounded) error
// body and reports an HTTPFailure at completion.
//
// What never happens here:
// - a redirect is never followed: the request carries the credential, and
//   the `location` may name any origin; the 3xx becomes a failure instead;
// - an error body is never read past `maxErrorBodyBytes`: at the cap the
//   task is cancelled, which closes the connection;
// - a compressed body (the request asks for `identity`) is never kept: the
//   task is cancelled at the response and every decoded piece that still
//   arrives is dropped unlooked-at. On Linux that cannot stop the decoding
//   itself: FoundationNetworking ignores the response disposition and
//   libcurl inflates whatever is in the socket in one go (up to 100 reads
//   of 16 KiB per wake-up), so a 1 MB bomb still costs its 1 GiB of
//   inflating, in 16 KiB pieces that are freed as they are dropped
//   (HostileServerTests bound its time and memory);
// - a 2xx that is not `text/event-stream` is never fed to the accumulator
//   (its words would be lost as "ended before message_stop"): it is
//   collected like an error body; one without a content type is judged by
//   its first bytes (an HTML page or a JSON body is not a stream);
// - no server text reaches the channel unredacted (``SecretRedactor``).

/// How an attempt began, for the driver's retry decision.
enum AttemptStart: Sendable {
    case streaming
    case httpFailure(HTTPFailure)
    case failed(TransportError)
}

final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private enum Phase {
        case waiting
        /// A 2xx without a content type: the first bytes decide (``NonEventStreamInput``).
        case sniffing(status: Int, headers: [String: String])
        case streaming
        /// `kind` forces the failure's kind (a 2xx that is not an event stream).
        /// The body so far is ``State/errorBody``.
        case collectingError(status: Int, headers: [String: String], kind: HTTPFailure.Kind?)
        /// An answer compressed although `identity` was asked: its body is
        /// never looked at (it is decoded bytes of unknown size).
        case refusedEncoding(status: Int, headers: [String: String])
    }

    private struct State: ~Copyable {
        var phase = Phase.waiting
        /// The error body collected so far, at most `maxErrorBodyBytes`. Kept
        /// out of the phase so that appending does not copy it: a copy per
        /// piece made a 1 MiB body cost a gigabyte of copying per 64 MiB sent.
        var errorBody: [UInt8] = []
        /// The task was cancelled here (a stream error, the error body's
        /// cap): the pieces still on their way are dropped, and it is
        /// cancelled once, not once per piece.
        var cancelRequested = false
        var accumulator: MessageAccumulator
        var startSignal: CheckedContinuation<AttemptStart, Never>?
        var startResult: AttemptStart?
        /// The accumulator's event count when a snapshot last went to the
        /// channel, so the end does not hand the consumer the same one twice.
        var deliveredAtEvent = -1
    }

    private let state: Mutex<State>
    private let channel: SnapshotChannel
    private let redactor: SecretRedactor
    private let maxErrorBodyBytes: Int
    private let idleTimeout: Double
    private let options: MessageAccumulatorOptions
    /// Every cancel of the task, ordered before its completion.
    let cancelGate = CancelGate()

    init(
        channel: SnapshotChannel, options: MessageAccumulatorOptions, redactor: SecretRedactor,
        maxErrorBodyBytes: Int, idleTimeout: Double
    ) {
        self.state = Mutex(State(accumulator: MessageAccumulator(options: options)))
        self.channel = channel
        self.redactor = redactor
        self.maxErrorBodyBytes = maxErrorBodyBytes
        self.idleTimeout = idleTimeout
        self.options = options
    }

    /// Waits until the attempt is known to stream or to have failed.
    func started() async -> AttemptStart {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> AttemptStart? in
                if let result = state.startResult { return result }
                state.startSignal = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func signalStart(_ result: AttemptStart) {
        let waiter = state.withLock { state -> CheckedContinuation<AttemptStart, Never>? in
            guard state.startResult == nil else { return nil }
            state.startResult = result
            defer { state.startSignal = nil }
            return state.startSignal
        }
        waiter?.resume(returning: result)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 200
        var headers: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        if !isIdentity(headers["content-encoding"]) {
            // Refused at its headers (see MessagesClient.acceptEncoding), and
            // reported at once: the caller need not wait while libcurl inflates.
            state.withLock {
                $0.phase = .refusedEncoding(status: status, headers: headers)
                $0.cancelRequested = true
            }
            signalStart(
                .httpFailure(
                    HTTPFailure(
                        status: status, headers: headers, body: [], redactor: redactor,
                        kind: .unrequestedContentEncoding)))
            completionHandler(.cancel)
            // The disposition alone does nothing on Linux (FoundationNetworking
            // ignores it), so the task is cancelled too.
            cancelGate.cancel(dataTask)
            return
        }
        if (200..<300).contains(status) {
            // The request-id reaches every snapshot through the options (nothing is fed yet).
            // It is server text like any other, so it is redacted first.
            let requestID = headers["request-id"].map { redactor.redact($0) }
            channel.setRequestID(requestID)
            var options = self.options
            options.responseMetadata.requestID = requestID
            state.withLock { $0.accumulator = MessageAccumulator(options: options) }
        }
        if (200..<300).contains(status), headers["content-type"] == nil {
            state.withLock { $0.phase = .sniffing(status: status, headers: headers) }
        } else if (200..<300).contains(status), isEventStream(headers["content-type"], framing: options.framing) {
            state.withLock { $0.phase = .streaming }
            signalStart(.streaming)
        } else {
            let kind: HTTPFailure.Kind? = (200..<300).contains(status) ? .notEventStream : nil
            state.withLock { $0.phase = .collectingError(status: status, headers: headers, kind: kind) }
        }
        completionHandler(.allow)
    }

    /// Never follows a redirect: the credential would go with it to whatever
    /// origin `location` names. The 3xx itself then arrives as the response
    /// and becomes an ``HTTPFailure/Kind/redirect`` failure.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var latest: MessageSnapshot?
        var reachedCap = false
        var beganStreaming = false
        let failure = state.withLock { state -> MessageStreamError? in
            if state.cancelRequested { return nil }
            if case .sniffing(let status, let headers) = state.phase {
                if NonEventStreamInput(firstBytes: data) != nil {
                    state.phase = .collectingError(status: status, headers: headers, kind: .notEventStream)
                } else {
                    state.phase = .streaming
                    beganStreaming = true
                }
            }
            switch state.phase {
            case .waiting, .sniffing, .refusedEncoding:
                return nil
            case .collectingError:
                state.errorBody.append(contentsOf: data.prefix(max(0, maxErrorBodyBytes - state.errorBody.count)))
                if state.errorBody.count >= maxErrorBodyBytes {
                    reachedCap = true
                    state.cancelRequested = true
                }
                return nil
            case .streaming:
                // Only the newest snapshot of a piece reaches the channel, so
                // it is read once per piece, not kept per event (a snapshot
                // kept per event costs a text stream a share of the core's
                // CPU: Benchmarks/RESULTS-HISTORY.md, transport).
                var changed = false
                let failure = data.withUnsafeBytes { raw -> MessageStreamError? in
                    do throws(MessageStreamError) {
                        try state.accumulator.feed(raw) { _ in changed = true }
                        return nil
                    } catch {
                        return error
                    }
                }
                if changed {
                    latest = state.accumulator.snapshot
                    state.deliveredAtEvent = state.accumulator.eventCount
                }
                if failure != nil { state.cancelRequested = true }
                return failure
            }
        }
        if beganStreaming { signalStart(.streaming) }
        if let latest { channel.deliver(latest) }
        if let failure {
            channel.finish(.stream(redactor.redact(failure)))
            cancelGate.cancel(dataTask)
        }
        // The rest of an error body is never read: closing the connection
        // ends it (the completion reports the failure collected so far).
        if reachedCap { cancelGate.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // First: the cancels under way return before the task leaves its
        // session's registry (CancelGate.swift).
        cancelGate.complete()
        session.finishTasksAndInvalidate()
        enum Outcome {
            /// `isNew`: not yet delivered (the last piece's snapshot usually is the final one).
            case finished(Result<MessageSnapshot, MessageStreamError>, isNew: Bool)
            case failedStreaming(MessageSnapshot?)
            case httpFailure(HTTPFailure)
            case failedBeforeResponse
        }
        var beganStreaming = false
        let outcome = state.withLock { state -> Outcome in
            if case .sniffing = state.phase {
                // No body at all: an (empty) stream, reported as the accumulator sees it.
                state.phase = .streaming
                beganStreaming = true
            }
            switch state.phase {
            case .streaming where error == nil:
                let isNew = state.accumulator.eventCount != state.deliveredAtEvent
                do throws(MessageStreamError) { return .finished(.success(try state.accumulator.finish()), isNew: isNew) } catch {
                    return .finished(.failure(error), isNew: isNew)
                }
            case .streaming:
                return .failedStreaming(state.accumulator.snapshot)
            case .collectingError(let status, let headers, let kind):
                return .httpFailure(HTTPFailure(status: status, headers: headers, body: state.errorBody, redactor: redactor, kind: kind))
            case .refusedEncoding(let status, let headers):
                return .httpFailure(
                    HTTPFailure(
                        status: status, headers: headers, body: [], redactor: redactor,
                        kind: .unrequestedContentEncoding))
            case .waiting, .sniffing:
                return .failedBeforeResponse
            }
        }
        if beganStreaming { signalStart(.streaming) }
        switch outcome {
        case .finished(.success(let snapshot), let isNew):
            if isNew { channel.deliver(snapshot) }
            channel.finish(nil)
        case .finished(.failure(let streamError), _):
            channel.finish(.stream(redactor.redact(streamError)))
        case .failedStreaming(let snapshot):
            channel.finish(mapped(error, snapshot: snapshot, streaming: true))
        case .httpFailure(let failure):
            signalStart(.httpFailure(failure))
        case .failedBeforeResponse:
            signalStart(.failed(mapped(error, snapshot: nil, streaming: false)))
        }
    }

    private func mapped(_ error: (any Error)?, snapshot: MessageSnapshot?, streaming: Bool) -> TransportError {
        let code = (error as? URLError)?.code
        if code == .timedOut { return .idleTimeout(seconds: idleTimeout, snapshot: snapshot) }
        if code == .cancelled { return .cancelled(snapshot: snapshot) }
        // A sentence, not Foundation's "The operation could not be completed".
        let reason = redactor.redact(error.map(SystemErrorDescription.phrase(for:)) ?? "the connection closed")
        return streaming ? .connectionLost(reason: reason, snapshot: snapshot) : .network(reason)
    }
}

/// Whether a `content-type` names the event stream of `framing` (parameters
/// such as `charset` aside): `text/event-stream`, or Bedrock's
/// `application/vnd.amazon.eventstream`. A missing header is decided by the
/// first bytes instead.
func isEventStream(_ contentType: String?, framing: EventFraming = .serverSentEvents) -> Bool {
    guard let contentType else { return true }
    let media = (contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    switch framing {
    case .serverSentEvents: return media == "text/event-stream"
    case .awsEventStream: return media == "application/vnd.amazon.eventstream"
    }
}

/// Whether a `content-encoding` leaves the body as sent (absent or `identity`).
func isIdentity(_ contentEncoding: String?) -> Bool {
    guard let contentEncoding else { return true }
    let trimmed = contentEncoding.trimmingCharacters(in: .whitespaces).lowercased()
    return trimmed.isEmpty || trimmed == "identity"
}
