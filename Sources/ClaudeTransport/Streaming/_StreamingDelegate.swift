import ClaudeStreaming
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

// One attempt of one request. URLSession calls this delegate on a serial
// queue with each piece of the body as it arrives (`didReceive data`; Linux
// has no `bytes(for:)`), and the bytes go straight into the accumulator:
// no copy, no per-byte async, one snapshot per piece (the newest). A 2xx
// answer switches to streaming and tells the driver so (a retry is never
// considered after that); any other status collects the (bounded) error
// body and reports an HTTPFailure at completion.

/// How an attempt began, for the driver's retry decision.
enum _AttemptStart: Sendable {
    case streaming
    case httpFailure(HTTPFailure)
    case failed(TransportError)
}

final class _StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private enum Phase {
        case waiting
        case streaming
        case collectingError(status: Int, headers: [String: String], body: [UInt8])
    }

    private struct State: ~Copyable {
        var phase = Phase.waiting
        var accumulator: MessageAccumulator
        var startSignal: CheckedContinuation<_AttemptStart, Never>?
        var startResult: _AttemptStart?
        /// The accumulator's event count when a snapshot last went to the
        /// channel, so the end does not hand the consumer the same one twice.
        var deliveredAtEvent = -1
    }

    private let state: Mutex<State>
    private let channel: _SnapshotChannel
    private let secrets: [String]
    private let maxErrorBodyBytes: Int
    private let idleTimeout: Double
    private let options: MessageAccumulatorOptions

    init(channel: _SnapshotChannel, options: MessageAccumulatorOptions, secrets: [String],
         maxErrorBodyBytes: Int, idleTimeout: Double) {
        self.state = Mutex(State(accumulator: MessageAccumulator(options: options)))
        self.channel = channel
        self.secrets = secrets
        self.maxErrorBodyBytes = maxErrorBodyBytes
        self.idleTimeout = idleTimeout
        self.options = options
    }

    /// Waits until the attempt is known to stream or to have failed.
    func started() async -> _AttemptStart {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> _AttemptStart? in
                if let result = state.startResult { return result }
                state.startSignal = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func signalStart(_ result: _AttemptStart) {
        let waiter = state.withLock { state -> CheckedContinuation<_AttemptStart, Never>? in
            guard state.startResult == nil else { return nil }
            state.startResult = result
            defer { state.startSignal = nil }
            return state.startSignal
        }
        waiter?.resume(returning: result)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 200
        if (200..<300).contains(status) {
            // The request-id reaches every snapshot through the options (nothing is fed yet).
            let requestID = http?.value(forHTTPHeaderField: "request-id")
            channel.setRequestID(requestID)
            var options = self.options
            options.responseMetadata.requestID = requestID
            state.withLock { state in
                state.accumulator = MessageAccumulator(options: options)
                state.phase = .streaming
            }
            signalStart(.streaming)
        } else {
            var headers: [String: String] = [:]
            for (key, value) in http?.allHeaderFields ?? [:] {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            state.withLock { $0.phase = .collectingError(status: status, headers: headers, body: []) }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var latest: MessageSnapshot?
        let failure = state.withLock { state -> MessageStreamError? in
            switch state.phase {
            case .waiting:
                return nil
            case .collectingError(let status, let headers, var body):
                body.append(contentsOf: data.prefix(max(0, maxErrorBodyBytes - body.count)))
                state.phase = .collectingError(status: status, headers: headers, body: body)
                return nil
            case .streaming:
                // Only the newest snapshot of a piece reaches the channel, so
                // it is read once per piece, not kept per event: ≈8% of the
                // core's CPU on a text stream (31 vs 34 ms per 16 MiB).
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
                return failure
            }
        }
        if let latest { channel.deliver(latest) }
        if let failure {
            channel.finish(.stream(failure))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
        enum Outcome {
            /// `isNew`: not yet delivered (the last piece's snapshot usually is the final one).
            case finished(Result<MessageSnapshot, MessageStreamError>, isNew: Bool)
            case failedStreaming(MessageSnapshot?)
            case httpFailure(HTTPFailure)
            case failedBeforeResponse
        }
        let outcome = state.withLock { state -> Outcome in
            switch state.phase {
            case .streaming where error == nil:
                let isNew = state.accumulator.eventCount != state.deliveredAtEvent
                do throws(MessageStreamError) { return .finished(.success(try state.accumulator.finish()), isNew: isNew) }
                catch { return .finished(.failure(error), isNew: isNew) }
            case .streaming:
                return .failedStreaming(state.accumulator.snapshot)
            case .collectingError(let status, let headers, let body):
                return .httpFailure(HTTPFailure(status: status, headers: headers, body: body, redacting: secrets))
            case .waiting:
                return .failedBeforeResponse
            }
        }
        switch outcome {
        case .finished(.success(let snapshot), let isNew):
            if isNew { channel.deliver(snapshot) }
            channel.finish(nil)
        case .finished(.failure(let streamError), _):
            channel.finish(.stream(streamError))
        case .failedStreaming(let snapshot):
            channel.finish(_mapped(error, snapshot: snapshot, streaming: true))
        case .httpFailure(let failure):
            signalStart(.httpFailure(failure))
        case .failedBeforeResponse:
            signalStart(.failed(_mapped(error, snapshot: nil, streaming: false)))
        }
    }

    private func _mapped(_ error: (any Error)?, snapshot: MessageSnapshot?, streaming: Bool) -> TransportError {
        let code = (error as? URLError)?.code
        if code == .timedOut { return .idleTimeout(seconds: idleTimeout, snapshot: snapshot) }
        if code == .cancelled { return .cancelled(snapshot: snapshot) }
        let reason = _redacting(error.map { "\($0.localizedDescription)" } ?? "closed", secrets: secrets)
        return streaming ? .connectionLost(reason: reason, snapshot: snapshot) : .network(reason)
    }
}
