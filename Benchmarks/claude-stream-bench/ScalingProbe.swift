// A scaling figure (1 → 16 MiB: the accumulator's stream kinds, the JSON
// documents), measured in fresh child processes, each judged as `Scaling`
// describes, and the median of the processes taken.
//
// Why children: where a process's buffers land in memory moves its figure.
// In six runs of the suite on a quiet machine, mixed read 15.6x–16.8x in
// five processes and 19.8x in the sixth, whose 1, 4 and 16 MiB streams all
// ran ~20% slower than the same kind of stream elsewhere in the same
// process; the other kinds in that process were unaffected. No statistic
// inside one process removes that, so the row takes the median of three.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One process's scaling figure and the times behind it.
struct ScalingProbe {
    /// Paired per-byte ratio (see `Scaling`).
    var ratio: Double
    /// The large stream's length and median time.
    var largeBytes: Int
    var largeSeconds: Double
    /// Median time of the different small streams, back to back, scaled to
    /// the large stream's bytes.
    var smallLoopSeconds: Double
    /// The large stream's median over one small stream's median (the figure
    /// as it was computed before the small side was made of different
    /// streams), for comparison.
    var oneRunRatio: Double
    /// Minor page faults (fresh pages) in one run of the large input, and in
    /// one pass over the small ones.
    var largeFaults: Int
    var smallLoopFaults: Int
    /// CPU time to fault in one fresh page in this process.
    var secondsPerFault: Double

    /// The CPU time of the large run's extra page faults over the small
    /// pass's, as a part of `ratio`: fresh pages, which the region pool's
    /// bound on kept pages (a memory trade) leaves to a large input, not the
    /// parser's work on the bytes.
    var faultShareOfRatio: Double {
        guard largeSeconds > 0 else { return 0 }
        return ratio * Double(max(largeFaults - smallLoopFaults, 0)) * secondsPerFault / largeSeconds
    }

    var faultDescription: String {
        "page faults per run: \(largeFaults) against \(smallLoopFaults), \(BenchmarkReport.fixed(secondsPerFault * 1e6, 2)) µs each, "
            + "\(BenchmarkReport.fixed(faultShareOfRatio, 2))x of the ratio"
    }

    static let processes = 3

    /// What a probe can measure: an accumulator stream kind, or a JSON
    /// document streamed in 20-byte deltas.
    enum Workload: String {
        case text, tool, mixed
        case jsonAPILike = "json-api-like"
        case jsonNumbers = "json-numbers"

        /// Input `variant` of about `bytes` bytes.
        func input(bytes: Int, variant: Int) -> [UInt8] {
            switch self {
            case .text: generate(.text, bytes: bytes, variant: variant).bytes
            case .tool: generate(.tool, bytes: bytes, variant: variant).bytes
            case .mixed: generate(.mixed, bytes: bytes, variant: variant).bytes
            case .jsonAPILike: JSONBenchmarks.apiLikeDocument(bytes: bytes, variant: variant)
            case .jsonNumbers: JSONBenchmarks.numberHeavyDocument(bytes: bytes, variant: variant)
            }
        }

        func run(_ input: [UInt8]) -> Int {
            switch self {
            case .text, .tool, .mixed: AccumulatorBenchmarks.accumulate(input, snapshots: true)
            case .jsonAPILike, .jsonNumbers: JSONBenchmarks.streamWithSnapshots(input)
            }
        }
    }

    /// Runs `processes` children and returns their probes, or nil when one
    /// could not be run or read.
    static func measure(_ workload: Workload, small: Int, large: Int, quick: Bool) -> [ScalingProbe]? {
        var probes: [ScalingProbe] = []
        for _ in 0..<processes {
            let arguments = ["--memory-probe", "scaling", workload.rawValue, String(small), String(large), quick ? "1" : "0"]
            guard let line = ProbeProcess.outputLine(of: arguments) else { return nil }
            let fields = line.split(separator: " ").compactMap { Double($0) }
            guard fields.count == 8 else { return nil }
            probes.append(
                ScalingProbe(
                    ratio: fields[0], largeBytes: Int(fields[1]), largeSeconds: fields[2], smallLoopSeconds: fields[3], oneRunRatio: fields[4],
                    largeFaults: Int(fields[5]), smallLoopFaults: Int(fields[6]), secondsPerFault: fields[7]))
        }
        return probes
    }

    /// The probe of the median process by `figure` (the ratio unless
    /// given), with every process's ratio and one-run ratio for the row's
    /// name.
    static func median(
        _ probes: [ScalingProbe], by figure: (ScalingProbe) -> Double = { $0.ratio }
    ) -> (probe: ScalingProbe, ratios: String, oneRunRatios: String)? {
        guard let middle = probes.sorted(by: { figure($0) < figure($1) }).dropFirst(probes.count / 2).first else { return nil }
        return (
            middle, probes.map { BenchmarkReport.fixed($0.ratio, 2) }.joined(separator: ", "),
            probes.map { BenchmarkReport.fixed($0.oneRunRatio, 2) }.joined(separator: ", ")
        )
    }

    /// The child's side: `WORKLOAD SMALL LARGE QUICK`; prints `ratio
    /// largeBytes largeSeconds smallLoopSeconds oneRunRatio largeFaults
    /// smallLoopFaults secondsPerFault`.
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let workload = Workload(rawValue: arguments[0]),
            let small = Int(arguments[1]), let large = Int(arguments[2]), small > 0, large >= small
        else { return 64 }
        let context = BenchmarkContext(quick: arguments[3] == "1")
        let factor = large / small
        let largeInput = workload.input(bytes: large, variant: 0)
        let smallInputs = (0..<factor).map { workload.input(bytes: small, variant: $0) }
        let smallBytes = smallInputs.reduce(0) { $0 + $1.count }
        let first = smallInputs.first ?? []
        // The small pass never follows the one-input run (whose input is
        // its first): it follows the large run or itself, so none of its
        // inputs is still in the caches.
        let samples = context.samplesAlternated([
            { for input in smallInputs { blackHole(workload.run(input)) } },
            { blackHole(workload.run(largeInput)) },
            { blackHole(workload.run(first)) },
        ])
        let ratio = Scaling.pairedRatio(
            large: samples[1], largeBytes: largeInput.count, smallLoop: samples[0], smallLoopBytes: smallBytes, factor: factor)
        let largeSeconds = CPUClock.median(samples[1])
        let loopSeconds = CPUClock.median(samples[0]) * Double(largeInput.count) / Double(max(smallBytes, 1))
        let oneRun = largeSeconds / CPUClock.median(samples[2])
        let largeFaults = PageFaults.during { blackHole(workload.run(largeInput)) }
        let loopFaults = PageFaults.during { for input in smallInputs { blackHole(workload.run(input)) } }
        print(
            "\(ratio) \(largeInput.count) \(largeSeconds) \(loopSeconds) \(oneRun) \(largeFaults) \(loopFaults) \(PageFaults.secondsPerFreshPage())"
        )
        return 0
    }
}

/// Minor page faults of the calling thread (Linux; the process elsewhere).
enum PageFaults {
    static func during(_ body: () -> Void) -> Int {
        let before = count()
        body()
        return count() - before
    }

    static func count() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_minflt)
    }

    /// Thread CPU time to write the first byte of each page of a fresh
    /// 8 MiB anonymous mapping, per fault: what a page the pool did not keep
    /// costs on this machine. Without transparent huge pages, as the
    /// regions are mapped: one huge page's fault would stand for 512.
    static func secondsPerFreshPage() -> Double {
        let bytes = 8 << 20
        let page = Int(getpagesize())
        guard let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapping != MAP_FAILED
        else { return 0 }
        defer { munmap(mapping, bytes) }
        #if canImport(Glibc)
        _ = madvise(mapping, bytes, MADV_NOHUGEPAGE)  // as _ReservedRegion maps its regions
        #endif
        let faults = count()
        let seconds = CPUClock.thread {
            for offset in stride(from: 0, to: bytes, by: page) { mapping.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        }
        return seconds / Double(max(count() - faults, 1))
    }
}
