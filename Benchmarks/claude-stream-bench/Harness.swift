// A small benchmark harness: warm-up, repeated runs, the median CPU time of
// the measuring thread, MB/s, and every figure beside a baseline measured in
// the same run, in alternation with it (so the ratio is meaningful on any
// machine and under any load), plus scaling where a workload has a size: time
// at 2n over time at n, or a larger step judged as `Scaling` describes (in
// child processes, `ScalingProbe`).
//
// Adding a suite: define `static let suite = BenchmarkSuite(name:) { context in … }`
// in a file of this folder and list it in `registeredSuites` in main.swift.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named group of measurements; `run` returns its rows.
struct BenchmarkSuite: Sendable {
    let name: String
    let run: @Sendable (BenchmarkContext) -> [BenchmarkResult]
}

/// What a suite may ask of the run: how hard to try.
struct BenchmarkContext: Sendable {
    /// `--quick`: small sizes and few repetitions (CI smoke run).
    let quick: Bool
    /// Timed runs per measurement (after one warm-up run).
    var repetitions: Int { quick ? 3 : 7 }

    /// `full` bytes normally, `quick` bytes under `--quick`.
    func size(full: Int, quick quickSize: Int) -> Int { quick ? quickSize : full }

    /// Median CPU time of the calling thread running `body`, in seconds,
    /// after one untimed warm-up. Thread CPU time does not count the time the
    /// thread waited for a core, so a busy machine slows it far less than
    /// the wall clock (what is left is cache and memory-bus contention).
    func measure(_ body: () -> Void) -> Double {
        body()
        return CPUClock.median((0..<repetitions).map { _ in CPUClock.thread(body) })
    }

    /// Median thread CPU times of `first` and `second`, measured in
    /// alternation (first–second, then second–first, …), so both sample
    /// the same stretch of the machine's speed and their ratio, the verdict,
    /// does not depend on what ran beside them. Twice the runs of ``measure(_:)``.
    func measureAlternated(_ first: () -> Void, _ second: () -> Void) -> (Double, Double) {
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let both = measureAlternated([first, second])
                return (both[0], both[1])
            }
        }
    }

    /// Median thread CPU time of each workload, run in alternating order
    /// (forwards, then backwards, …) after one warm-up each.
    func measureAlternated(_ workloads: [() -> Void]) -> [Double] {
        samplesAlternated(workloads).map(CPUClock.median)
    }

    /// Every timed run of each workload, `[workload][round]`, run in
    /// alternating order (forwards, then backwards, …) after one warm-up
    /// each: the same round of two workloads ran close together in time.
    func samplesAlternated(_ workloads: [() -> Void]) -> [[Double]] {
        for work in workloads { work() }
        var times = Array(repeating: [Double](), count: workloads.count)
        for round in 0..<(2 * repetitions) {
            let order = round % 2 == 0 ? Array(workloads.indices) : workloads.indices.reversed()
            for index in order { times[index].append(CPUClock.thread(workloads[index])) }
        }
        return times
    }
}

/// How a workload's CPU time grows with its size: does a large input cost
/// more per byte than small ones?
///
/// The small side is `factor` different inputs of the small size, run back
/// to back: as many bytes as the large input, each read once, as a server
/// reads the streams it serves. Timing one small input over and over
/// instead replays bytes the previous run left in the caches (a 1 MiB
/// stream and its content fit in L2), which no large input can match; that
/// ratio measured the cache, not the code, and moved with what else ran on
/// the machine.
///
/// Each round times both sides close together, so their ratio sees one
/// state of the machine; the figure is the median of the rounds' ratios,
/// per byte, times `factor`.
///
/// Worked example, text, 1 → 16 MiB, one round: 10.25 ms for the
/// 16,777,882-byte stream and 10.82 ms for sixteen different 1 MiB streams
/// (16,787,179 bytes), so 16 × (10.25 / 16,777,882) / (10.82 / 16,787,179)
/// = 15.2; the figure is the median of such rounds. (These times are the
/// medians of 20 rounds in a harness, where sixteen runs of one 1 MiB
/// stream took 10.20 ms: 16.1.)
enum Scaling {
    /// The median over rounds of `factor × (large[r] / largeBytes) /
    /// (smallLoop[r] / smallLoopBytes)`.
    static func pairedRatio(large: [Double], largeBytes: Int, smallLoop: [Double], smallLoopBytes: Int, factor: Int) -> Double {
        let bytesRatio = Double(smallLoopBytes) / Double(max(largeBytes, 1))
        let ratios = zip(large, smallLoop).map { Double(factor) * bytesRatio * $0 / max($1, 1e-9) }
        return CPUClock.median(ratios)
    }
}

/// CPU-time clocks: the calling thread's and the whole process's.
enum CPUClock {
    /// CPU seconds the calling thread has used so far.
    static func threadSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

    /// CPU seconds every thread of the process has used so far (user + system).
    static func processSeconds() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }

    /// The thread CPU seconds one run of `body` takes.
    static func thread(_ body: () -> Void) -> Double {
        let start = threadSeconds()
        body()
        return threadSeconds() - start
    }

    /// The median of `times`, at least 1 ns (a ratio's denominator).
    static func median(_ times: [Double]) -> Double {
        guard !times.isEmpty else { return 1e-9 }
        return max(times.sorted()[times.count / 2], 1e-9)
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}

/// One row: a workload's median time, its baseline's, and optional scaling.
struct BenchmarkResult {
    var suite: String
    var name: String
    var bytes: Int
    var seconds: Double
    var baselineName: String? = nil
    var baselineSeconds: Double? = nil
    /// The time for the larger input over the time for the smaller: 2n / n
    /// (2.0 is linear) or, for the 1 → 16 MiB rows, as `Scaling` describes
    /// (16.0 is linear). Column `scale`.
    var scaling: Double? = nil
    /// The goal, in words, and whether this run met it.
    var target: String? = nil
    var targetMet: Bool? = nil

    var megabytesPerSecond: Double { Double(bytes) / seconds / 1e6 }
    var baselineMegabytesPerSecond: Double? { baselineSeconds.map { Double(bytes) / $0 / 1e6 } }
    /// Throughput as a fraction of the baseline's.
    var ratio: Double? { baselineSeconds.map { $0 / seconds } }
}

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withUnsafePointer(to: value) { blackHoleSink = UnsafeRawPointer($0).load(as: UInt8.self) }
}
nonisolated(unsafe) var blackHoleSink: UInt8 = 0

// MARK: - Baseline

/// The floor any line-based parser pays: memchr over the bytes, counting LF.
@inline(never)
func memchrLineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    var cursor = base
    let end = base + bytes.count
    while cursor < end, let hit = memchr(cursor, 0x0A, end - cursor) {
        count += 1
        cursor = UnsafeRawPointer(hit) + 1
    }
    return count
}

// MARK: - Output

enum BenchmarkReport {
    static func table(_ results: [BenchmarkResult]) -> String {
        var lines = [
            pad("benchmark", 42) + pad("size", 10) + pad("median", 11) + pad("MB/s", 10)
                + pad("baseline MB/s", 15) + pad("ratio", 8) + pad("scale", 7) + "target"
        ]
        for result in results {
            var line = pad("\(result.suite)/\(result.name)", 42)
            line += pad(formatBytes(result.bytes), 10)
            line += pad(formatSeconds(result.seconds), 11)
            line += pad(fixed(result.megabytesPerSecond, 1), 10)
            line += pad(result.baselineMegabytesPerSecond.map { fixed($0, 1) } ?? "-", 15)
            line += pad(result.ratio.map { fixed($0 * 100, 1) + "%" } ?? "-", 8)
            line += pad(result.scaling.map { fixed($0, 2) } ?? "-", 7)
            if let target = result.target {
                line += target + (result.targetMet.map { $0 ? " (met)" : " (MISSED)" } ?? " (not judged)")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ results: [BenchmarkResult]) -> String {
        let rows = results.map { result -> String in
            var fields = [
                "\"suite\":\(quoted(result.suite))", "\"name\":\(quoted(result.name))",
                "\"bytes\":\(result.bytes)", "\"median_seconds\":\(result.seconds)",
                "\"mb_per_s\":\(fixed(result.megabytesPerSecond, 3))",
            ]
            if let name = result.baselineName { fields.append("\"baseline\":\(quoted(name))") }
            if let value = result.baselineMegabytesPerSecond { fields.append("\"baseline_mb_per_s\":\(fixed(value, 3))") }
            if let ratio = result.ratio { fields.append("\"ratio\":\(fixed(ratio, 4))") }
            if let scaling = result.scaling { fields.append("\"scaling_2n_over_n\":\(fixed(scaling, 3))") }
            if let target = result.target { fields.append("\"target\":\(quoted(target))") }
            if let met = result.targetMet { fields.append("\"target_met\":\(met)") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "[\n" + rows.joined(separator: ",\n") + "\n]"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 < digits {
            text += String(repeating: "0", count: digits - (text.distance(from: dot, to: text.endIndex) - 1))
        }
        return text
    }

    private static func formatBytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds >= 1 ? fixed(seconds, 2) + " s" : fixed(seconds * 1000, 2) + " ms"
    }
}
