// End to end, bytes to final snapshot, on generated streams of three kinds:
// - text: ~100-byte text deltas (the common case);
// - tool: one tool call whose input (a large JSON document) streams in ~40-byte
//   `input_json_delta`s, parsed incrementally;
// - mixed: thinking, text, server tool calls with results, citations.
// Each at 1, 4 and 16 MiB (quick: 256 KiB and 1 MiB), with a snapshot taken
// after every event and without, all in alternation (thread CPU time), and
// the scaling from the smallest size to the largest (`ScalingProbe`). Beside
// them, the way Swift clients commonly do it (a JSONDecoder per event into
// Codable structs, `String +=`, and the accumulated tool JSON re-parsed by
// JSONSerialization on every delta), measured in the same run on the same
// bytes.

import ClaudeStreaming
import Foundation
import IncrementalJSON

enum AccumulatorBenchmarks {
    static let suite = BenchmarkSuite(name: "accumulator") { context in
        let sizes = context.quick ? [256 << 10, 1 << 20] : [1 << 20, 4 << 20, 16 << 20]
        var results: [BenchmarkResult] = []
        for kind in StreamKind.allCases {
            // Every size with and without snapshots, in alternation, so each
            // row's ratio compares runs of the same stretch of the machine.
            let streams = sizes.map { generate(kind, bytes: $0) }
            var workloads: [() -> Void] = []
            for stream in streams {
                let bytes = stream.bytes
                workloads.append { blackHole(accumulate(bytes, snapshots: true)) }
                workloads.append { blackHole(accumulate(bytes, snapshots: false)) }
            }
            let times = context.measureAlternated(workloads)
            for (position, size) in sizes.enumerated() {
                let withSnapshots = times[2 * position]
                let without = times[2 * position + 1]
                let stream = streams[position]
                var row = BenchmarkResult(
                    suite: "accumulator",
                    name: "\(kind) \(size >> 10) KiB, snapshot per event (\(Int(Double(stream.events) / withSnapshots / 1000))k events/s)",
                    bytes: stream.bytes.count, seconds: withSnapshots,
                    baselineName: "same, no snapshots", baselineSeconds: without,
                    target: "snapshot per event <= 1.5x no snapshots" + (size == sizes.last ? kind.throughputTarget.text : ""))
                row.targetMet =
                    withSnapshots <= 1.5 * without
                    && (size != sizes.last || row.megabytesPerSecond >= kind.throughputTarget.megabytesPerSecond)
                results.append(row)
            }
            if let small = sizes.first, let large = sizes.last, sizes.count > 1 {
                results.append(scalingRow(kind, small: small, large: large, context))
            }
            // The usual Swift client, at a size where its quadratic tool
            // handling still finishes: 1 MiB, or 128 KiB for tool input.
            let naiveSize = kind == .tool ? (context.quick ? 32 << 10 : 128 << 10) : (context.quick ? 256 << 10 : 1 << 20)
            let stream = generate(kind, bytes: naiveSize).bytes
            let (ours, naive) = context.measureAlternated(
                { blackHole(accumulate(stream, snapshots: true)) }, { blackHole(NaiveClient.run(stream)) })
            var row = BenchmarkResult(
                suite: "accumulator", name: "\(kind) \(naiveSize >> 10) KiB vs usual Swift client",
                bytes: stream.count, seconds: ours, baselineName: "JSONDecoder per event, String +=, re-parse",
                baselineSeconds: naive)
            row.target = "faster than the usual client"
            row.targetMet = ours < naive
            results.append(row)
        }
        results.append(shortToolDeltas(context))
        results += MallocProbe.rows(context)
        results += memoryRows(context)
        return results
    }

    /// The time for `large` bytes over `large / small` different streams of
    /// `small` bytes, per byte, in fresh processes (`ScalingProbe`).
    static func scalingRow(_ kind: StreamKind, small: Int, large: Int, _ context: BenchmarkContext) -> BenchmarkResult {
        let factor = large / small
        // 16x the bytes in 17x the time: what is left over for the larger
        // working set (page faults, cache misses) of 16 MiB.
        let limit = Double(factor) * 17 / 16
        let name = "\(kind) scaling \(small >> 10) KiB -> \(large >> 10) KiB"
        guard let workload = ScalingProbe.Workload(rawValue: kind.rawValue),
            let probes = ScalingProbe.measure(workload, small: small, large: large, quick: context.quick),
            let median = ScalingProbe.median(probes)
        else {
            var failed = BenchmarkResult(suite: "accumulator", name: "\(name): probe failed", bytes: large, seconds: 1e-9)
            failed.target = "a scaling probe's figure"
            failed.targetMet = false
            return failed
        }
        let middle = median.probe
        var row = BenchmarkResult(
            suite: "accumulator",
            name:
                "\(name) (\(probes.count) processes: \(median.ratios); one \(small >> 10) KiB stream's median: \(median.oneRunRatios); \(middle.faultDescription))",
            bytes: middle.largeBytes, seconds: middle.largeSeconds,
            baselineName: "\(factor) different \(small >> 10) KiB streams", baselineSeconds: middle.smallLoopSeconds,
            target: "time ratio <= \(BenchmarkReport.fixed(limit, 1)) for \(factor)x bytes, per byte, median process")
        row.scaling = middle.ratio
        row.targetMet = middle.ratio <= limit
        return row
    }

    /// Tool input in 16-byte deltas (the `tool` kind's are ~40 bytes): the
    /// per-event cost, since framing and dispatch are paid per 16 bytes.
    static func shortToolDeltas(_ context: BenchmarkContext) -> BenchmarkResult {
        let size = context.size(full: 16 << 20, quick: 1 << 20)
        let stream = generate(.tool, bytes: size, toolDeltaBytes: 16)
        let (seconds, memchrTime) = stream.bytes.withUnsafeBytes { raw in
            context.measureAlternated({ blackHole(accumulate(stream.bytes, snapshots: true)) }, { blackHole(memchrLineCount(raw)) })
        }
        var row = BenchmarkResult(
            suite: "accumulator", name: "tool \(size >> 10) KiB in 16-byte deltas, snapshot per event",
            bytes: stream.bytes.count, seconds: seconds, baselineName: "memchr LF count", baselineSeconds: memchrTime,
            target: ">= 400 MB/s")
        row.targetMet = row.megabytesPerSecond >= 400
        return row
    }

    /// Feeds `bytes` in 16 KiB chunks; returns a checksum of what it saw.
    @inline(never)
    static func accumulate(_ bytes: [UInt8], snapshots: Bool, framing: EventFraming = .serverSentEvents) -> Int {
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(allowsSequentialMessages: true, framing: framing))
        var seen = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let chunk = UnsafeRawBufferPointer(rebasing: raw[offset..<min(raw.count, offset + (16 << 10))])
                do throws(MessageStreamError) {
                    if snapshots {
                        try accumulator.feed(chunk) { snapshot in seen &+= snapshot.content.count }
                    } else {
                        try accumulator.feed(chunk)
                    }
                } catch {
                    seen = -1
                    return
                }
                offset += 16 << 10
            }
        }
        return seen &+ (accumulator.snapshot?.content.count ?? 0)
    }

    // MARK: Memory

    /// Peak resident memory while accumulating the 16 MiB streams (quick:
    /// 1 MiB), with and without holding every snapshot, against the size of
    /// the content they accumulate. Each figure comes from a fresh child
    /// process (this executable with `--memory-probe`), so memory freed by
    /// earlier benchmarks cannot hide a peak.
    static func memoryRows(_ context: BenchmarkContext) -> [BenchmarkResult] {
        var rows: [BenchmarkResult] = []
        let size = context.quick ? 1 << 20 : 16 << 20
        for kind in StreamKind.allCases {
            for retainAll in [false, true] {
                guard let probe = MemoryProbe.spawn(kind: kind, bytes: size, retainAll: retainAll) else {
                    rows.append(BenchmarkResult(suite: "accumulator", name: "\(kind) memory probe failed", bytes: size, seconds: 0))
                    continue
                }
                let factor = Double(probe.peakGrowth) / Double(max(probe.contentBytes, 1))
                var row = BenchmarkResult(
                    suite: "accumulator",
                    name:
                        "\(kind) \(size >> 20) MiB peak RSS\(retainAll ? ", all \(probe.snapshots) snapshots held" : ""): +\(probe.peakGrowth >> 10) KiB = \(BenchmarkReport.fixed(factor, 2))x content",
                    bytes: probe.streamBytes, seconds: probe.seconds,
                    target: "peak <= 3x accumulated content (\(probe.contentBytes >> 10) KiB)")
                row.targetMet = factor <= 3
                rows.append(row)
            }
        }
        return rows
    }
}

/// One memory measurement, made in a child process.
struct MemoryProbe {
    var streamBytes: Int
    var contentBytes: Int
    var snapshots: Int
    /// Peak resident size during the run minus resident size before it.
    var peakGrowth: Int
    var seconds: Double

    /// Runs this executable as `--memory-probe KIND BYTES RETAIN` (a
    /// `ProbeProcess`: its own process group, a clean signal state) and
    /// reads its line.
    static func spawn(kind: StreamKind, bytes: Int, retainAll: Bool) -> MemoryProbe? {
        let arguments = ["--memory-probe", kind.rawValue, String(bytes), retainAll ? "1" : "0"]
        guard let line = ProbeProcess.outputLine(of: arguments) else { return nil }
        let fields = line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 5 else { return nil }
        return MemoryProbe(
            streamBytes: Int(fields[0]), contentBytes: Int(fields[1]), snapshots: Int(fields[2]),
            peakGrowth: Int(fields[3]), seconds: fields[4])
    }

    /// The child's side: generate, measure, print `stream content snapshots growth seconds`.
    static func run(_ arguments: [String]) -> Int32 {
        alarm(600)  // the child's deadline: SIGALRM's default action ends it
        switch arguments.first {
        case "many-streams": return ManyStreamsBenchmarks.memoryProbe(Array(arguments.dropFirst()))
        case "serve": return ManyStreamsClients.serve(Array(arguments.dropFirst()))
        case "feed-many": return ManyStreamsBenchmarks.feedProbe(Array(arguments.dropFirst()))
        case "respond": return RespondProbe.run(Array(arguments.dropFirst()))
        case "scaling": return ScalingProbe.run(Array(arguments.dropFirst()))
        case "mallocs": return MallocProbe.run(Array(arguments.dropFirst()))
        case "rate": return RateProbe.run(Array(arguments.dropFirst()))
        case "held-read": return HeldReadProbe.run(Array(arguments.dropFirst()))
        default: break
        }
        guard arguments.count == 3, let bytes = Int(arguments[1]),
            let stream = generate(probeKind: arguments[0], bytes: bytes)
        else { return 64 }
        let retainAll = arguments[2] == "1"
        // The holder's array is sized up front: its doubling growth is the
        // caller's memory, not the snapshots', and would dominate the figure.
        var held: [MessageSnapshot] = []
        if retainAll { held.reserveCapacity(stream.events) }
        let before = ResidentMemory.resetPeak()
        var count = 0
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(allowsSequentialMessages: true))
        let start = ContinuousClock.now
        stream.bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let chunk = UnsafeRawBufferPointer(rebasing: raw[offset..<min(raw.count, offset + (16 << 10))])
                do throws(MessageStreamError) {
                    try accumulator.feed(chunk) { snapshot in
                        count += 1
                        if retainAll { held.append(snapshot) }
                    }
                } catch { return }
                offset += 16 << 10
            }
        }
        let elapsed = ContinuousClock.now - start
        let growth = ResidentMemory.peak() - before
        blackHole(held.count)
        blackHole(accumulator.snapshot?.content.count)
        let seconds = elapsed.inSeconds
        print("\(stream.bytes.count) \(stream.contentBytes) \(count) \(growth) \(seconds)")
        return 0
    }
}

/// Resident-set figures from /proc (Linux); zero elsewhere.
enum ResidentMemory {
    /// Resets the kernel's peak counter and returns the current resident size.
    static func resetPeak() -> Int {
        #if os(Linux)
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
        return field("VmRSS:")
        #else
        return 0
        #endif
    }

    static func peak() -> Int { field("VmHWM:") }

    static func current() -> Int { field("VmRSS:") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }
}
