// claude-stream-bench: `swift run -c release claude-stream-bench [--quick] [--json] [suite ...]`
//
// Each module registers one `BenchmarkSuite` in `registeredSuites` below
// (see Harness.swift). Without suite names every suite runs.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every suite, in run order. Add yours here.
let registeredSuites: [BenchmarkSuite] = [
    SSEBenchmarks.suite,
    JSONBenchmarks.suite,
    AccumulatorBenchmarks.suite,
    ManyStreamsBenchmarks.suite,
    TransportBenchmarks.suite,
    ConversationBenchmarks.suite,
    AWSEventStreamBenchmarks.suite,
    StructuredBenchmarks.suite,
]

if CommandLine.arguments.dropFirst().first == "--memory-probe" {
    exit(MemoryProbe.run(Array(CommandLine.arguments.dropFirst(2))))
}

var quick = false
var asJSON = false
var selected: [String] = []
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--quick": quick = true
    case "--json": asJSON = true
    case "-h", "--help":
        print("usage: claude-stream-bench [--quick] [--json] [suite ...]\nsuites: " + registeredSuites.map(\.name).joined(separator: ", "))
        exit(0)
    default:
        guard registeredSuites.contains(where: { $0.name == argument }) else {
            print("unknown suite '\(argument)'; suites: " + registeredSuites.map(\.name).joined(separator: ", "))
            exit(64)
        }
        selected.append(argument)
    }
}

let context = BenchmarkContext(quick: quick)
var results: [BenchmarkResult] = []
for suite in registeredSuites where selected.isEmpty || selected.contains(suite.name) {
    let rows = suite.run(context)
    if !asJSON {
        print(BenchmarkReport.table(rows))
        print("")
    }
    results += rows
}
if asJSON { print(BenchmarkReport.json(results)) }
