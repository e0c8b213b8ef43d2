// Allocations per delta: the accumulator fed a generated stream in a fresh
// child (`--memory-probe mallocs KIND BYTES`), the process's allocation
// calls counted over the accumulator's making and its feed
// (`AccumulatorBenchmarks.accumulate`; MallocCount, on glibc), divided by
// the stream's `content_block_delta` events. Steady state is the aim: the
// count includes every event (starts, stops, the message's own storage
// growth), so a figure well under one means deltas allocate nothing of
// their own.

import MallocCount

enum MallocProbe {
    struct Count {
        var events: Int
        var deltas: Int
        var calls: Int
        var seconds: Double
        var perDelta: Double { Double(calls) / Double(max(deltas, 1)) }
    }

    static let kinds = ["text", "tool16", "mixed"]

    /// The child's side: prints `events deltas calls seconds`.
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let bytes = Int(arguments[1]) else { return 64 }
        guard let stream = generate(probeKind: arguments[0], bytes: bytes) else { return 64 }
        // The counter must see the Swift runtime's allocations: 100 arrays
        // made while it counts must show as at least 100 calls.
        malloc_count_set(1)
        for size in 1...100 { blackHole([UInt8](repeating: 0, count: size)) }
        malloc_count_set(0)
        guard malloc_count_calls() >= 100 else { return 69 }
        let calibration = malloc_count_calls()
        let start = ContinuousClock.now
        malloc_count_set(1)
        // The accumulator is made inside the count: a stream's allocations
        // include its own.
        let seen = AccumulatorBenchmarks.accumulate(stream.bytes, snapshots: true)
        malloc_count_set(0)
        let elapsed = ContinuousClock.now - start
        guard seen >= 0 else { return 70 }  // the stream failed
        let calls = malloc_count_calls() - calibration
        print("\(stream.events) \(stream.deltas) \(calls) \(elapsed.inSeconds)")
        return 0
    }

    static func spawn(_ kind: String, bytes: Int) -> Count? {
        guard let line = ProbeProcess.outputLine(of: ["--memory-probe", "mallocs", kind, String(bytes)]) else { return nil }
        let fields = line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 4 else { return nil }
        return Count(events: Int(fields[0]), deltas: Int(fields[1]), calls: Int(fields[2]), seconds: fields[3])
    }

    /// One row per kind: allocation calls per delta, snapshot per event.
    static func rows(_ context: BenchmarkContext) -> [BenchmarkResult] {
        let size = context.size(full: 4 << 20, quick: 1 << 20)
        return kinds.map { kind in
            guard let count = spawn(kind, bytes: size) else {
                var failed = BenchmarkResult(suite: "accumulator", name: "\(kind) mallocs per delta: probe failed", bytes: size, seconds: 1e-9)
                failed.target = "a malloc count (glibc)"
                failed.targetMet = false
                return failed
            }
            var row = BenchmarkResult(
                suite: "accumulator",
                name:
                    "\(kind) \(size >> 10) KiB mallocs per delta: \(BenchmarkReport.fixed(count.perDelta, 3)) (\(count.calls) calls, \(count.deltas) deltas, \(count.events) events)",
                bytes: size, seconds: count.seconds)
            // Mixed parses its block starts and citations into trees, one
            // in ten events: its count is printed, not judged.
            if kind != "mixed" {
                row.target = "< 0.05 per delta"
                row.targetMet = count.perDelta < 0.05
            }
            return row
        }
    }
}
