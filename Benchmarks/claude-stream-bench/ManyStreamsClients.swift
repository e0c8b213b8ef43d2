// Many `MessagesClient` streams at once in one process, against a loopback
// server (127.0.0.1 only) in a child process, so the client process's CPU
// and memory are the client's alone. Each stream is one text message of
// 64 KiB in ≈100-byte deltas; every final message must equal the one the
// bare accumulator makes of the same bytes. The number of streams doubles
// from 1,000 until one fails or a round takes over two minutes: where the
// first failure shows is FoundationNetworking's limit on this machine.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ManyStreamsClients {
    static let streamBytes = 64 << 10

    static func rows(_ context: BenchmarkContext) -> [BenchmarkResult] {
        guard let server = ProbeProcess.start(["--memory-probe", "serve", String(streamBytes)]),
            let portLine = ProbeProcess.firstLine(of: server), let port = Int(portLine),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            return [BenchmarkResult(suite: "many", name: "clients: loopback server did not start", bytes: 0, seconds: 0)]
        }
        defer { ProbeProcess.finish(server) }
        let body = TransportBenchmarks.textStream(bytes: streamBytes)
        var accumulator = MessageAccumulator()
        guard (try? accumulator.feed(body)) != nil, let recording = try? accumulator.finish() else {
            return [BenchmarkResult(suite: "many", name: "clients: recording did not parse", bytes: 0, seconds: 0)]
        }
        let expected = recording.messageJSON()
        var rows: [BenchmarkResult] = []
        // Each stream holds a socket, and libcurl and libdispatch others for
        // a while; past the descriptor limit libdispatch's thread monitor
        // cannot open /proc and aborts the process (16,000 streams under a
        // limit of 20,000 did). So the rounds stop at half the limit, and the
        // last row says where the limit is.
        let descriptorLimit = Self.descriptorLimit()
        var count = context.quick ? 100 : 1_000
        while count <= (context.quick ? 100 : 16_000) && count <= descriptorLimit / 2 {
            let round = run(count, url: url, expected: expected)
            let perStreamCPU = round.cpu / Double(count)
            var row = BenchmarkResult(
                suite: "many",
                name: "\(count) MessagesClient streams at once: \(round.equal) equal the recording, \(round.failures) failed"
                    + (round.firstFailure.map { " (first: \($0))" } ?? "")
                    + "; \(Int(perStreamCPU * 1e6)) µs CPU and \((round.memoryGrowth / count) >> 10) KiB RSS per stream, wall \(BenchmarkReport.fixed(round.wall, 1)) s",
                bytes: count * body.count, seconds: round.cpu,
                target: "every final message equals its recording")
            row.targetMet = round.equal == count
            rows.append(row)

            guard round.equal == count, round.wall < 120 else { return rows }
            count *= 2
        }
        if !context.quick {
            rows.append(
                BenchmarkResult(
                    suite: "many",
                    name: "\(count) streams at once not tried: over half the \(descriptorLimit) descriptors this process may open (RLIMIT_NOFILE)",
                    bytes: 0, seconds: 0))
        }
        return rows
    }

    /// The process's soft limit on open descriptors.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    struct Round {
        var equal = 0
        var failures = 0
        var firstFailure: String?
        var cpu = 0.0
        var wall = 0.0
        var memoryGrowth = 0
    }

    /// `count` streams at once, each its own `send`; process CPU, wall time
    /// and peak RSS growth over the whole round.
    static func run(_ count: Int, url: URL, expected: JSONValue) -> Round {
        let client = MessagesClient(configuration: ClientConfiguration(baseURL: url, credentials: .apiKey("bench-key"), idleTimeout: 120))
        let request = MessageRequest(model: .opus5, messages: [.user("bench")])
        let before = ResidentMemory.resetPeak()
        let cpuStart = CPUClock.processSeconds()
        let wallStart = ContinuousClock.now
        var round = runBlocking { () -> Round in
            await withTaskGroup(of: Result<Bool, TransportError>.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        do throws(TransportError) {
                            return .success(try await client.send(request).messageJSON() == expected)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                var round = Round()
                for await outcome in group {
                    switch outcome {
                    case .success(true): round.equal += 1
                    case .success(false):
                        round.failures += 1
                        if round.firstFailure == nil { round.firstFailure = "a final message differs from its recording" }
                    case .failure(let error):
                        round.failures += 1
                        if round.firstFailure == nil { round.firstFailure = String("\(error)".prefix(160)) }
                    }
                }
                return round
            }
        }
        round.wall = (ContinuousClock.now - wallStart).inSeconds
        round.cpu = CPUClock.processSeconds() - cpuStart
        round.memoryGrowth = ResidentMemory.peak() - before
        return round
    }

    /// The child's side: serve `arguments[0]` bytes of text stream to every
    /// connection, each on its own thread; print the port; exit when the
    /// parent closes standard input.
    static func serve(_ arguments: [String]) -> Int32 {
        guard let bytes = arguments.first.flatMap({ Int($0) }) else { return 64 }
        guard let server = BenchServer(body: TransportBenchmarks.textStream(bytes: bytes), chunk: 16 << 10, concurrent: true) else {
            return 1
        }
        let line = Array("\(server.port)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        var byte: UInt8 = 0
        while read(0, &byte, 1) > 0 {}
        server.stop()
        return 0
    }
}
