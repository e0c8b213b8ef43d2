// `--memory-probe rate KIND BYTES RUNS`: one stream kind's throughput alone
// (a snapshot per event, 16 KiB chunks, thread CPU time), printed as every
// run's MB/s in order and then the median: a quick figure while working on
// one kind, without the whole accumulator suite. KIND is an accumulator
// stream kind, or `tool16` (tool input in 16-byte deltas). The suite's
// rows remain the figures of record.

/// The `rate` probe (file comment).
enum RateProbe {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let bytes = Int(arguments[1]), let runs = Int(arguments[2]), bytes > 0, runs > 0 else {
            return 64
        }
        guard let stream = generate(probeKind: arguments[0], bytes: bytes)?.bytes else { return 64 }
        blackHole(AccumulatorBenchmarks.accumulate(stream, snapshots: true))
        var rates: [Double] = []
        for _ in 0..<runs {
            let seconds = CPUClock.thread { blackHole(AccumulatorBenchmarks.accumulate(stream, snapshots: true)) }
            rates.append(Double(stream.count) / max(seconds, 1e-9) / 1e6)
        }
        let median = rates.sorted()[rates.count / 2]
        print(rates.map { String(Int($0)) }.joined(separator: " ") + " median \(Int(median)) MB/s")
        return 0
    }
}
