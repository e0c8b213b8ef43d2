// Where the tests find what is not compiled into them: the package root, the
// shared corpus beside it (`../shared/corpus`; tests skip cleanly when it is
// absent), the loopback server script and a python3 to run it.

import Foundation

package enum TestPaths {
    /// The package root: this file is Tests/ClaudeTestSupport/TestPaths.swift.
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` beside the package root (it may not exist).
    package static let sharedCorpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The recorded Messages API streams of the corpus.
    package static let corpus = sharedCorpus.appendingPathComponent("anthropic-sse")

    package static var corpusAvailable: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// The recordings of the corpus, sorted by name.
    package static func recordings() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".sse") }.sorted()
    }

    /// The loopback server every networked test talks to (see its docstring).
    package static let server = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Server/loopback_server.py")

    package static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/python3", "/usr/local/bin/python3"] + path.split(separator: ":").map { "\($0)/python3" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    package static var serverAvailable: Bool { python != nil && FileManager.default.fileExists(atPath: server.path) }
}
