// swift-tools-version:6.0
//
// The libFuzzer targets, a package of their own so that the root package's
// products stay the libraries and `claude-stream` (the way swift-protobuf
// keeps its FuzzTesting). One executable per parser, each a thin entry over
// a property in FuzzProperties/; the root package compiles the same
// FuzzProperties folder as a non-product target, so `swift test` at the root
// replays every seed and regression through this very code on each run.
//
// Build and run with Fuzz/run.sh (it passes the sanitizer flags; a plain
// `swift build` here gives binaries that do nothing).
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let targets = ["sse", "json", "accumulator", "typed", "replay", "transport-frames", "aws-eventstream"]

let package = Package(
    name: "claude-streaming-fuzz",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // For Benchmarks/, which builds its Bedrock workload with the same encoder.
        .library(name: "FuzzProperties", targets: ["FuzzProperties"])
    ] + (targets + ["terminal-text"]).map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
    dependencies: [.package(name: "claude-streaming", path: "..")],
    targets: [
        .target(
            name: "FuzzProperties",
            dependencies: [
                .product(name: "ServerSentEvents", package: "claude-streaming"),
                .product(name: "AWSEventStream", package: "claude-streaming"),
                .product(name: "IncrementalJSON", package: "claude-streaming"),
                .product(name: "ClaudeStreaming", package: "claude-streaming"),
                .product(name: "ClaudeTransport", package: "claude-streaming"),
            ],
            path: "FuzzProperties",
            exclude: ["TerminalTextProperties.swift"],
            swiftSettings: strict),
        // The terminal sanitizer is the command line's (a non-product target
        // of the root, which no product of it offers), so this target builds
        // it from source with its property: terminal-text/Display links to
        // ../../Sources/CommandLineDisplay and terminal-text/Property to the
        // property file (SwiftPM takes no target path outside the package).
        .executableTarget(
            name: "fuzz-terminal-text", dependencies: [.product(name: "IncrementalJSON", package: "claude-streaming")], path: "terminal-text",
            exclude: ["seeds", "regressions", "terminal-text.dict"], sources: ["Entry", "Display", "Property"], swiftSettings: strict),
    ]
        + targets.map {
            .executableTarget(name: "fuzz-\($0)", dependencies: ["FuzzProperties"], path: "\($0)/Entry", swiftSettings: strict)
        },
    swiftLanguageModes: [.v6]
)
