// swift-tools-version:6.0
//
// The streaming core for Claude's Messages API. No package dependencies:
// only the standard library, Foundation, Glibc/Darwin and Synchronization.
//
// Library modules form a strict chain; each knows nothing of those after it:
//   ServerSentEvents, AWSEventStream, AppendOnlyStorage → IncrementalJSON  →  ClaudeStreaming  →  ClaudeTransport  →  ClaudeSession  →  ClaudeShellTools
// A target's dependencies are exactly the modules its files import (CI
// checks it with --explicit-target-dependency-import-check); AppendOnlyStorage
// reaches the modules after IncrementalJSON through its re-export.
// The benchmark and the libFuzzer targets are packages of their own
// (Benchmarks/Package.swift, Fuzz/Package.swift) that depend on this one by
// path, so an app that depends on this package sees only the libraries and
// `claude-stream`.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
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
        .library(name: "ClaudeShellTools", targets: ["ClaudeShellTools"]),
        .executable(name: "claude-stream", targets: ["claude-stream"]),
    ],
    targets: [
        // MARK: Library modules
        .target(name: "ServerSentEvents", dependencies: ["_ScanAcceleration"], swiftSettings: strict),
        // JSON strings scanned 16 or 32 bytes a step, SSE line ends 16; C because Swift cannot emit pmovmskb.
        .target(name: "_ScanAcceleration"),
        // Carry-less-multiplication CRC-32 folding; C because Swift cannot emit PCLMULQDQ.
        .target(name: "_CRC32Acceleration"),
        .target(name: "AWSEventStream", dependencies: ["_CRC32Acceleration", "_ScanAcceleration"], swiftSettings: strict),
        // Base64 32 characters per step with AVX2, for Bedrock's chunk payloads; C for the byte shuffles.
        .target(name: "_Base64Acceleration"),
        // Invariant checks run after every mutation in debug builds only
        // (swift-collections' COLLECTIONS_INTERNAL_CHECKS pattern).
        .target(
            name: "AppendOnlyStorage",
            swiftSettings: strict + [.define("APPEND_ONLY_STORAGE_INTERNAL_CHECKS", .when(configuration: .debug))]),
        .target(
            name: "IncrementalJSON", dependencies: ["AppendOnlyStorage", "_ScanAcceleration"],
            swiftSettings: strict + [.define("INCREMENTAL_JSON_INTERNAL_CHECKS", .when(configuration: .debug))]),
        .target(
            name: "ClaudeStreaming",
            dependencies: ["ServerSentEvents", "AWSEventStream", "IncrementalJSON", "_Base64Acceleration", "_ScanAcceleration"],
            swiftSettings: strict),
        .target(name: "ClaudeTransport", dependencies: ["IncrementalJSON", "ClaudeStreaming"], swiftSettings: strict),
        .target(name: "ClaudeSession", dependencies: ["IncrementalJSON", "ClaudeStreaming", "ClaudeTransport"], swiftSettings: strict),
        // Child processes and shell commands as client tools; its files
        // compile only on Linux and macOS (elsewhere an app cannot start
        // processes, and it is empty).
        .target(
            name: "ClaudeShellTools", dependencies: ["IncrementalJSON", "ClaudeTransport", "ClaudeSession", "_ProcessSupport"], swiftSettings: strict),
        // clone, prctl, pidfd_open, pipe2 and a SIGPIPE-free write; C because
        // Swift cannot fork or clone, nor call the variadic prctl and syscall.
        .target(name: "_ProcessSupport"),

        // MARK: Command line
        .executableTarget(
            name: "claude-stream",
            dependencies: [
                "ServerSentEvents", "AWSEventStream", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "ClaudeSession", "ClaudeShellTools",
                "CommandLineDisplay",
            ],
            swiftSettings: strict),
        // Not a product: what the command line shows that its tests and the
        // terminal-text fuzz target need too (the terminal sanitizer, display
        // widths, the recording `replay` shows without a file). No library
        // owns a terminal; Fuzz/CommandLineDisplay links to this folder.
        .target(name: "CommandLineDisplay", swiftSettings: strict),

        // MARK: Fuzz properties
        // Not a product: the property code of the libFuzzer targets, which the
        // tests use to replay every fuzz seed and regression on each
        // `swift test`. Fuzz/Package.swift compiles the same folder for the
        // libFuzzer entries (see Fuzz/README.md).
        .target(
            name: "FuzzProperties",
            dependencies: ["ServerSentEvents", "AWSEventStream", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "CommandLineDisplay"],
            path: "Fuzz/FuzzProperties",
            swiftSettings: strict),

        // MARK: Tests
        // Not a product: what several test targets share (the SSE stream
        // builder, the loopback server and its client, the programs the
        // tests run, started as ClaudeShellTools' ChildProcess).
        // A plain target under Tests/, as SwiftPM allows with an explicit
        // path, so it stays beside the tests it serves.
        .target(
            name: "ClaudeTestSupport", dependencies: ["IncrementalJSON", "ClaudeShellTools"], path: "Tests/ClaudeTestSupport", exclude: ["Server"],
            swiftSettings: strict),
        .testTarget(
            name: "AWSEventStreamTests", dependencies: ["AWSEventStream", "_CRC32Acceleration", "ClaudeStreaming", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "ServerSentEventsTests", dependencies: ["ServerSentEvents", "_ScanAcceleration", "FuzzProperties"], swiftSettings: strict),
        .testTarget(name: "AppendOnlyStorageTests", dependencies: ["AppendOnlyStorage"], swiftSettings: strict),
        .testTarget(name: "IncrementalJSONTests", dependencies: ["IncrementalJSON", "_ScanAcceleration", "FuzzProperties"], swiftSettings: strict),
        .testTarget(
            name: "ClaudeStreamingTests",
            dependencies: [
                "ServerSentEvents", "AWSEventStream", "_Base64Acceleration", "AppendOnlyStorage", "IncrementalJSON", "ClaudeStreaming", "FuzzProperties",
                "ClaudeTestSupport", "CommandLineDisplay",
            ],
            swiftSettings: strict),
        // claude-stream is not imported: the tests run the built executable.
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "claude-stream", "AWSEventStream", "IncrementalJSON", "ClaudeStreaming", "ClaudeShellTools", "ClaudeTransport", "ClaudeTestSupport",
                "CommandLineDisplay",
            ],
            swiftSettings: strict),
        .testTarget(name: "CommandLineDisplayTests", dependencies: ["CommandLineDisplay", "IncrementalJSON", "FuzzProperties"], swiftSettings: strict),
        .testTarget(
            name: "ClaudeSessionTests", dependencies: ["IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "ClaudeSession", "ClaudeTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ClaudeTransportTests", dependencies: ["IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "FuzzProperties", "ClaudeTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ClaudeShellToolsTests", dependencies: ["IncrementalJSON", "ClaudeSession", "ClaudeShellTools", "ClaudeTestSupport"],
            swiftSettings: strict),
        // `chat` run as a process against the loopback server.
        .testTarget(
            name: "ChatCommandTests",
            dependencies: ["claude-stream", "IncrementalJSON", "ClaudeStreaming", "ClaudeTransport", "ClaudeSession", "ClaudeTestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
