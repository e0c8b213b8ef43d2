// Shared pieces for the framing tests: where the third-party vectors live,
// and feeding a stream under a chunking.

import AWSEventStream
import Foundation
import FuzzProperties

enum EventStreamCorpus {
    /// `../shared/corpus/bedrock-eventstream` beside the package root, or nil when absent.
    static let root: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/bedrock-eventstream")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// `(folder, case)` of every `.bin` under `conformance/*/<kind>/`.
    static func vectors(_ kind: String) -> [String] {
        guard let root else { return [] }
        return ["aws-sdk-go", "smithy-rs"].flatMap { source -> [String] in
            let dir = root.appendingPathComponent("conformance/\(source)/\(kind)")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return files.filter { $0.hasSuffix(".bin") }.map { "conformance/\(source)/\(kind)/\($0.dropLast(4))" }
        }.sorted()
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        guard let root else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: root.appendingPathComponent(relative)))
    }
}

/// Feeds `stream` in pieces of the given sizes (cycled) and finishes.
func decode(_ stream: [UInt8], sizes: [Int], limits: AWSEventStreamLimits = AWSEventStreamLimits()) -> AWSEventStreamReference.Outcome {
    AWSEventStreamFuzzProperty.run(stream, sizes: sizes, limits: limits)
}

/// One of every header type.
let everyHeaderType: [AWSEventStreamHeader] = [
    AWSEventStreamHeader(name: "true", value: .bool(true)),
    AWSEventStreamHeader(name: "false", value: .bool(false)),
    AWSEventStreamHeader(name: "byte", value: .byte(-49)),
    AWSEventStreamHeader(name: "short", value: .short(-20000)),
    AWSEventStreamHeader(name: "int", value: .int(-500_000)),
    AWSEventStreamHeader(name: "long", value: .long(-50_000_000_000)),
    AWSEventStreamHeader(name: "bytes", value: .bytes([0, 1, 0xFF, 0x80])),
    AWSEventStreamHeader(name: "string", value: .string("héllo ✓")),
    AWSEventStreamHeader(name: "timestamp", value: .timestamp(1_700_000_000_123)),
    AWSEventStreamHeader(name: "uuid", value: .uuid(Array(0..<16))),
]
