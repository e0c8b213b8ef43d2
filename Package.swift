// swift-tools-version:6.0
//
// The streaming core for Claude's Messages API. No package dependencies:
// only the standard library, Foundation, Glibc/Darwin and Synchronization.
//
// Library modules form a strict chain; each knows nothing of those after it:
//   ServerSentEvents, AWSEventStream, AppendOnlyStorage → IncrementalJSON  →  ClaudeStreaming  →  ClaudeTransport  →  ClaudeSession
// The benchmark and fuzz targets live in Benchmarks/ and Fuzz/ (declared here
// with `path:`) so that building the library stays small.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "claude-streaming",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ServerSentEvents", targets: ["ServerSentEvents"]),
        .library(name: "AWSEventStream", targets: ["AWSEventStream"]),
        .library(name: "AppendOnlyStorage", targets: ["AppendOnlyStorage"]),
        .library(name: "IncrementalJSON", targets: ["IncrementalJSON"]),
        .library(name: "ClaudeStreaming", targets: ["ClaudeStreaming"]),
        .library(name: "ClaudeTransport", targets: ["ClaudeTransport"]),
        .library(name: "ClaudeSession", targets: ["ClaudeSession"]),
        .executable(name: "claude-stream", targets: ["claude-stream"]),
        .executable(name: "claude-stream-bench", targets: ["claude-stream-bench"]),
        .executable(name: "fuzz-sse", targets: ["fuzz-sse"]),
        .executable(name: "fuzz-json", targets: ["fuzz-json"]),
        .executable(name: "fuzz-accumulator", targets: ["fuzz-accumulator"]),
        .executable(name: "fuzz-typed", targets: ["fuzz-typed"]),
        .executable(name: "fuzz-replay", targets: ["fuzz-replay"]),
        .executable(name: "fuzz-transport-frames", targets: ["fuzz-transport-frames"]),
        .executable(name: "fuzz-aws-eventstream", targets: ["fuzz-aws-eventstream"]),
    ],
    targets: [
        // MARK: Library modules
        .target(name: "ServerSentEvents", swiftSettings: strict),
        // Carry-less-multiplication CRC-32 folding; C because Swift cannot emit PCLMULQDQ.
        .target(name: "_CRC32Acceleration"),
        .target(name: "AWSEventStream", dependencies: ["_CRC32Acceleration"], swiftSettings: strict),
        // Invariant checks run after every mutation in debug builds only
        // (swift-collections' COLLECTIONS_INTERNAL_CHECKS pattern).
        .target(
            name: "AppendOnlyStorage",
            swiftSettings: strict + [.define("APPEND_ONLY_STORAGE_INTERNAL_CHECKS", .when(configuration: .debug))]),
        .target(name: "IncrementalJSON", dependencies: ["AppendOnlyStorage"], swiftSettings: strict),
        .target(
            name: "ClaudeStreaming",
            dependencies: ["ServerSentEvents", "AWSEventStream", "AppendOnlyStorage", "IncrementalJSON"],
            swiftSettings: strict),
        .target(name: "ClaudeTransport", dependencies: ["ClaudeStreaming"], swiftSettings: strict),
        .target(name: "ClaudeSession", dependencies: ["ClaudeTransport"], swiftSettings: strict),

        // MARK: Command line
        .executableTarget(
            name: "claude-stream",
            dependencies: ["ServerSentEvents", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "ClaudeSession"],
            swiftSettings: strict),

        // MARK: Benchmarks
        .executableTarget(
            name: "claude-stream-bench",
            dependencies: ["ServerSentEvents", "AWSEventStream", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "ClaudeSession", "FuzzProperties"],
            path: "Benchmarks/claude-stream-bench",
            swiftSettings: strict),

        // MARK: Fuzzing (see Fuzz/README.md; built with Fuzz/run.sh)
        // The properties each fuzzer checks live in one library so that
        // `swift test` replays the regression corpus through the same code.
        .target(
            name: "FuzzProperties",
            dependencies: ["ServerSentEvents", "AWSEventStream", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport"],
            path: "Fuzz/FuzzProperties",
            swiftSettings: strict),
        .executableTarget(name: "fuzz-sse", dependencies: ["FuzzProperties"], path: "Fuzz/sse/Entry", swiftSettings: strict),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzProperties"], path: "Fuzz/json/Entry", swiftSettings: strict),
        .executableTarget(name: "fuzz-accumulator", dependencies: ["FuzzProperties"], path: "Fuzz/accumulator/Entry", swiftSettings: strict),
        .executableTarget(name: "fuzz-typed", dependencies: ["FuzzProperties"], path: "Fuzz/typed/Entry", swiftSettings: strict),
        .executableTarget(name: "fuzz-replay", dependencies: ["FuzzProperties"], path: "Fuzz/replay/Entry", swiftSettings: strict),
        .executableTarget(
            name: "fuzz-transport-frames", dependencies: ["FuzzProperties"], path: "Fuzz/transport-frames/Entry",
            swiftSettings: strict),
        .executableTarget(
            name: "fuzz-aws-eventstream", dependencies: ["FuzzProperties"], path: "Fuzz/aws-eventstream/Entry",
            swiftSettings: strict),

        // MARK: Tests
        .testTarget(name: "AWSEventStreamTests", dependencies: ["AWSEventStream", "ClaudeStreaming", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "ServerSentEventsTests", dependencies: ["ServerSentEvents", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "AppendOnlyStorageTests", dependencies: ["AppendOnlyStorage"], swiftSettings: strict),
        .testTarget(name: "IncrementalJSONTests", dependencies: ["IncrementalJSON", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "ClaudeStreamingTests", dependencies: ["ClaudeStreaming", "AWSEventStream", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "CommandLineTests", dependencies: ["claude-stream", "ClaudeStreaming"], swiftSettings: strict),
        .testTarget(name: "ClaudeSessionTests", dependencies: ["ClaudeSession"], resources: [.copy("Server")], swiftSettings: strict),
        .testTarget(
            name: "ClaudeTransportTests", dependencies: ["ClaudeTransport", "FuzzProperties"], resources: [.copy("Server")], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
