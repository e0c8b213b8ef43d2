// Transport overhead: one long text answer (≈100-byte deltas) received over
// a real loopback socket through MessagesClient (URLSession, data delegate,
// the snapshot channel) versus the same bytes fed to MessageAccumulator
// directly in 64 KiB chunks, in the same run. The server is a minimal
// HTTP/1.1 responder on its own thread that writes the body as 64 KiB
// chunked-encoding pieces as fast as the socket takes them (the whole
// response is built once and written with one `send` loop, so the server
// costs ≈2 ms of CPU per 16 MiB, not ≈5). Target: the transport adds at
// most 20% to the core's time.
//
// The rows are process CPU time (user + system, getrusage: the transport's
// work runs on URLSession's threads, so the measuring thread's own time
// would miss it; the in-process server's send loop is counted too, ≈2 ms).
// Each workload's CPU and wall time also go to standard error: on 2 cores
// they tell whether the transport is short of CPU or waits on the network.
//
// Retries are on by default (RetryPolicy.standard); what a stream that does
// not fail pays for them is one RetryBudget per request, and nothing per
// byte. The "retry bookkeeping" row times that budget (made a million
// times, per request) against the receive it belongs to (target: at most
// 1% of it); the same receive with RetryPolicy.none, alternated with the
// default one, is printed beside it, to show that the difference is below
// what separates two receives of the same bytes.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum TransportBenchmarks {
    static let chunk = 64 << 10

    static let suite = BenchmarkSuite(name: "transport") { context in
        // Text is the judged workload; a mixed stream (thinking, web search,
        // cited text, tool input: the accumulator benchmark's generator, one
        // message at 4 MiB) shows a stream with more work per byte.
        let workloads: [(kind: String, size: Int)] =
            context.quick
            ? [("text", 1 << 20)] : [("text", 4 << 20), ("text", 16 << 20), ("mixed", 4 << 20)]
        var results: [BenchmarkResult] = []
        for (kind, size) in workloads {
            let body = kind == "mixed" ? generate(.mixed, bytes: size).bytes : textStream(bytes: size)
            guard let server = BenchServer(body: body, chunk: chunk), let url = URL(string: "http://127.0.0.1:\(server.port)") else {
                print("transport: could not open a loopback socket; skipped")
                return []
            }
            defer { server.stop() }
            let client = MessagesClient(configuration: ClientConfiguration(baseURL: url, credentials: .apiKey("bench-key")))
            let noRetries = MessagesClient(configuration: ClientConfiguration(baseURL: url, credentials: .apiKey("bench-key"), retryPolicy: .none))
            let request = MessageRequest(model: .opus5, messages: [.user("bench")])
            let expected = core(body)
            var failure: String?
            func receive(streaming: Bool, retrying: Bool = true) {
                let outcome = runBlocking { () -> Result<Int, TransportError> in
                    do throws(TransportError) {
                        let sender = retrying ? client : noRetries
                        let final =
                            streaming
                            ? try await sender.send(request, onSnapshot: { blackHole($0) })
                            : try await sender.send(request)
                        return .success(summary(final))
                    } catch {
                        return .failure(error)
                    }
                }
                if case .failure(let error) = outcome { failure = "\(error)" }
                if case .success(let count) = outcome, count != expected { failure = "content summary \(count) != \(expected)" }
            }
            var received = (bytes: 0, pieces: 0)
            // Alternated so that load from other processes hits all alike.
            let (times, cpu, rounds) = measureAlternately(
                context,
                [
                    { receive(streaming: false) },
                    { receive(streaming: true) },
                    { blackHole(core(body)) },
                    { received = urlSessionAlone(url) },
                    { blackHole(core(body, snapshotPerChunk: true)) },
                    { receive(streaming: false, retrying: false) },
                ])
            if received.bytes < body.count { failure = "URLSession alone received \(received.bytes) of \(body.count) bytes" }
            let labels = [
                "final snapshot", "every snapshot consumed", "core alone", "URLSession alone", "core, one snapshot per chunk",
                "final snapshot, RetryPolicy.none",
            ]
            var note = "transport \(kind) \(size >> 20) MiB, process CPU (user+sys) / wall, medians:"
            for (index, label) in labels.enumerated() {
                note += String(format: " %@ %.1f/%.1f ms;", label, cpu[index] * 1e3, times[index] * 1e3)
            }
            note += " URLSession delivered \(received.pieces) pieces (\(received.pieces / max(1, size >> 20)) per MiB)\n"
            FileHandle.standardError.write(Data(note.utf8))
            if let failure {
                print("transport: \(failure)")
                return results
            }
            for (index, label) in ["final snapshot", "every snapshot consumed"].enumerated() {
                var row = BenchmarkResult(
                    suite: "transport", name: "\(kind) \(size >> 20) MiB over loopback, \(label)",
                    bytes: body.count, seconds: cpu[index],
                    baselineName: "MessageAccumulator alone, same bytes, 64 KiB chunks", baselineSeconds: cpu[2],
                    target: "transport adds <= 20%")
                row.targetMet = cpu[index] <= 1.2 * cpu[2]
                results.append(row)
            }
            // A request that does not fail runs one piece of retry
            // bookkeeping: its RetryBudget, made before the first attempt
            // (MessagesClient.swift, StreamDriver). Nothing runs per piece or
            // per event; the budget is consulted only after a failure. So
            // the judged figure is that piece, timed alone, against the
            // receive it belongs to.
            let perRequest = retryBookkeepingSeconds(context)
            var bookkeeping = BenchmarkResult(
                suite: "transport",
                name: "\(kind) \(size >> 20) MiB, receive + retry bookkeeping (\(String(format: "%.0f", perRequest * 1e9)) ns a request)",
                bytes: body.count, seconds: cpu[0] + perRequest,
                baselineName: "the receive over loopback, final snapshot", baselineSeconds: cpu[0],
                target: "bookkeeping <= 1% of the receive")
            bookkeeping.targetMet = perRequest <= 0.01 * cpu[0]
            results.append(bookkeeping)
            // The whole receive with retries on against the same receive
            // with them off, as the median of the rounds' paired ratios (one
            // round runs both). Not judged: process CPU time over loopback
            // moves by several percent between rounds of the same code,
            // far more than the bookkeeping above.
            let pairedRatio = CPUClock.median(zip(rounds[0], rounds[5]).map { $0 / max($1, 1e-9) })
            results.append(
                BenchmarkResult(
                    suite: "transport",
                    name: "\(kind) \(size >> 20) MiB over loopback, retries on, paired ratio to off \(String(format: "%.3f", pairedRatio))",
                    bytes: body.count, seconds: cpu[0],
                    baselineName: "the same receive with RetryPolicy.none", baselineSeconds: cpu[5]))
            // The floor under the transport on this platform: URLSession
            // delivering the same body to a delegate that only counts it.
            results.append(
                BenchmarkResult(
                    suite: "transport", name: "\(kind) \(size >> 20) MiB over loopback, URLSession alone (bytes counted, not parsed)",
                    bytes: body.count, seconds: cpu[3],
                    baselineName: "MessageAccumulator alone, same bytes, 64 KiB chunks", baselineSeconds: cpu[2]))
            // What the transport's delegate asks of the core: the newest
            // snapshot read once per piece instead of one kept per event.
            results.append(
                BenchmarkResult(
                    suite: "transport", name: "\(kind) \(size >> 20) MiB, MessageAccumulator alone, one snapshot read per chunk (the delegate's way)",
                    bytes: body.count, seconds: cpu[4],
                    baselineName: "MessageAccumulator alone, same bytes, 64 KiB chunks", baselineSeconds: cpu[2]))
        }
        return results
    }

    /// Thread CPU seconds of the retry bookkeeping one request does when it
    /// does not fail: its RetryBudget, made and dropped (the median of the
    /// context's repetitions of a million).
    static func retryBookkeepingSeconds(_ context: BenchmarkContext) -> Double {
        let count = 1_000_000
        let policy = RetryPolicy.standard
        return context.measure {
            for _ in 0..<count { blackHole(RetryBudget(policy).retriesUsed) }
        } / Double(count)
    }

    /// Receives the body with a bare URLSession whose delegate only counts
    /// the bytes; returns the byte count and the number of pieces.
    static func urlSessionAlone(_ url: URL) -> (bytes: Int, pieces: Int) {
        let delegate = CountingDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: url.appendingPathComponent("v1/messages"))
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        session.dataTask(with: request).resume()
        delegate.done.wait()
        session.finishTasksAndInvalidate()
        return delegate.count.withLock { ($0.bytes, $0.pieces) }
    }

    /// Median wall time and median process CPU time (user + system) of each
    /// workload, run round-robin after one warm-up each, and each workload's
    /// CPU time in every round (for paired ratios).
    static func measureAlternately(
        _ context: BenchmarkContext, _ workloads: [() -> Void]
    ) -> (wall: [Double], cpu: [Double], cpuRounds: [[Double]]) {
        for work in workloads { work() }
        var times = Array(repeating: [Double](), count: workloads.count)
        var cpu = times
        for _ in 0..<(context.repetitions * 2 + 1) {
            for (index, work) in workloads.enumerated() {
                let cpuBefore = processCPUSeconds()
                let start = ContinuousClock.now
                work()
                let elapsed = ContinuousClock.now - start
                cpu[index].append(processCPUSeconds() - cpuBefore)
                times[index].append(elapsed.inSeconds)
            }
        }
        return (times.map(CPUClock.median), cpu.map(CPUClock.median), cpu)
    }

    /// User plus system CPU time of the whole process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let seconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec)
        return seconds + (Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)) * 1e-6
    }

    /// The core alone: 64 KiB chunks, keeping the newest snapshot per chunk
    /// as each event hands it out (the baseline of the target). With
    /// `snapshotPerChunk`, the newest is read once per chunk after the
    /// events (what the transport's delegate does with each piece). Returns
    /// the final message's ``summary(_:)``.
    static func core(_ bytes: [UInt8], snapshotPerChunk: Bool = false) -> Int {
        var accumulator = MessageAccumulator()
        var latest: MessageSnapshot?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(raw.count, offset + chunk)
                let piece = UnsafeRawBufferPointer(rebasing: raw[offset..<end])
                do throws(MessageStreamError) {
                    if snapshotPerChunk {
                        var changed = false
                        try accumulator.feed(piece) { _ in changed = true }
                        if changed { latest = accumulator.snapshot }
                    } else {
                        try accumulator.feed(piece) { latest = $0 }
                    }
                } catch { return }
                offset = end
            }
        }
        blackHole(latest)
        guard let final = try? accumulator.finish() else { return -1 }
        return summary(final)
    }

    /// What both sides compute from the final message, to check they agree:
    /// per content block, one plus the length of its text or thinking.
    static func summary(_ message: MessageSnapshot) -> Int {
        let content = message.messageJSON()["content"]
        var total = 0
        var index = 0
        while let block = content?[index] {
            total += 1 + (block["text"]?.stringValue ?? block["thinking"]?.stringValue ?? "").utf8.count
            index += 1
        }
        return total
    }

    /// One message whose single text block arrives in ≈100-byte deltas.
    static func textStream(bytes target: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(target + 1024)
        func event(_ name: String, _ data: String) { out.append(contentsOf: "event: \(name)\ndata: \(data)\n\n".utf8) }
        event(
            "message_start",
            #"{"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-bench","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}"#
        )
        event("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#)
        let words = ["stream ", "bytes ", "snapshot ", "delta ", "caf\\u00e9 ", "line\\n", "quote\\\" ", "value "]
        var index = 0
        while out.count < target {
            var text = ""
            while text.utf8.count < 90 {
                text += words[index % words.count]
                index += 1
            }
            event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""# + text + #""}}"#)
        }
        event("content_block_stop", #"{"type":"content_block_stop","index":0}"#)
        event("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1000}}"#)
        event("message_stop", #"{"type":"message_stop"}"#)
        return out
    }
}

/// Runs async work to completion from synchronous benchmark code (the
/// caller's thread blocks; the work runs on the cooperative pool).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = result.withLock({ $0 }) else { preconditionFailure("task finished without a value") }
    return value
}

/// A one-body HTTP/1.1 server on 127.0.0.1: reads each request, answers
/// with `body` in chunked encoding, `chunk` bytes per piece, then closes.
/// Connections are served one after the other, or with `concurrent` each
/// on a thread of its own (many clients at once).
final class BenchServer: Sendable {
    let port: Int
    private let listener: Int32
    private let concurrent: Bool
    /// The whole response (head, chunked body, last chunk), built once.
    private let response: [UInt8]

    init?(body: [UInt8], chunk: Int, concurrent: Bool = false) {
        self.concurrent = concurrent
        var response = Array("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n".utf8)
        response.reserveCapacity(body.count + body.count / chunk * 12 + 128)
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunk)
            response += Array(String(end - offset, radix: 16).utf8) + [13, 10]
            response += body[offset..<end]
            response += [13, 10]
            offset = end
        }
        response += Array("0\r\n\r\n".utf8)
        self.response = response
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && listen(fd, concurrent ? 4096 : 16) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if concurrent {
                Thread { [self] in
                    serve(connection)
                    close(connection)
                }.start()
            } else {
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        // Read the head, then as much body as content-length says.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var needed = Int.max
        while received.count < needed {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received.append(contentsOf: buffer[0..<count])
            if needed == .max, let end = headEnd(received) {
                let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                needed = end + 4 + length
            }
        }
        write(connection, response)
    }

    private func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

/// A data delegate that counts the body's bytes and pieces and signals completion.
final class CountingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let count = Mutex<(bytes: Int, pieces: Int)>((0, 0))
    let done = DispatchSemaphore(value: 0)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        count.withLock {
            $0.bytes += data.count
            $0.pieces += 1
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        done.signal()
    }
}
