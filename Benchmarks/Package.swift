// swift-tools-version:6.0
//
// The benchmark, a package of its own (the way swift-collections keeps its
// benchmarks) so that an app depending on claude-streaming never builds it.
// Run from the repository root:
//   swift run -c release --package-path Benchmarks claude-stream-bench [--quick] [suite…]
import PackageDescription

let package = Package(
    name: "claude-streaming-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "claude-streaming", path: ".."),
        // The Bedrock workload is written by the fuzz package's event-stream encoder.
        .package(name: "claude-streaming-fuzz", path: "../Fuzz"),
    ],
    targets: [
        .executableTarget(
            name: "claude-stream-bench",
            dependencies: [
                .product(name: "ServerSentEvents", package: "claude-streaming"),
                .product(name: "AWSEventStream", package: "claude-streaming"),
                .product(name: "IncrementalJSON", package: "claude-streaming"),
                .product(name: "ClaudeStreaming", package: "claude-streaming"),
                .product(name: "ClaudeTransport", package: "claude-streaming"),
                .product(name: "ClaudeSession", package: "claude-streaming"),
                .product(name: "ClaudeShellTools", package: "claude-streaming"),
                .product(name: "FuzzProperties", package: "claude-streaming-fuzz"),
                "MallocCount",
            ],
            path: "claude-stream-bench",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // The allocation counter behind the rows "mallocs per delta".
        .target(name: "MallocCount", path: "MallocCount"),
    ],
    swiftLanguageModes: [.v6]
)
