import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalJSON

// Starts Server/loopback_server.py (python3, standard library) on 127.0.0.1
// with an ephemeral port for one test and stops it afterwards. The server
// also exits when its stdin closes, so a crashed test run leaves nothing
// behind.

/// Paths resolved from this file: the package root is two folders up.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let server = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/loopback_server.py")
    static let corpus = packageRoot.appendingPathComponent("../shared/corpus/anthropic-sse").standardizedFileURL

    static var corpusAvailable: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    static var python: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var serverAvailable: Bool { python != nil && FileManager.default.fileExists(atPath: server.path) }

    /// The recordings of the corpus, sorted by name.
    static func recordings() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".sse") }.sorted()
    }
}

struct ServerStartError: Error, CustomStringConvertible {
    var description: String
}

/// A running loopback server.
final class LoopbackServer {
    let port: Int
    private let process: Process
    private let input: Pipe

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    static func start() throws -> LoopbackServer {
        guard let python = TestPaths.python else { throw ServerStartError(description: "python3 not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [TestPaths.server.path, "--corpus", TestPaths.corpus.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line.append(contentsOf: data)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerStartError(description: "server did not announce a port: \(text)")
        }
        return LoopbackServer(port: port, process: process, input: input)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// A base URL whose path selects what the server does (see the server's docstring).
    func url(_ route: String) -> URL { _url(route) }

    private func _url(_ route: String) -> URL {
        // Routes are built from file names the corpus chose; they are URL-safe.
        URL(string: "http://127.0.0.1:\(port)/\(route)") ?? URL(fileURLWithPath: "/invalid")
    }

    /// Every request the server has seen, oldest first.
    func recordedRequests() async throws -> [RecordedRequest] {
        let (data, _) = try await _get(_url("_requests"))
        let value = try JSONValue.parse(Array(data))
        return (value.arrayValue ?? JSONArray()).map(RecordedRequest.init)
    }

    /// What the server recorded for each `500-huge` answer (see the server's docstring).
    func sentRecords() async throws -> [JSONValue] {
        let (data, _) = try await _get(_url("_sent"))
        return Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
    }

    private func _get(_ url: URL) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: url) { data, response, error in
                if let data, let response { continuation.resume(returning: (data, response)) }
                else { continuation.resume(throwing: error ?? ServerStartError(description: "no answer")) }
            }.resume()
        }
    }
}

/// One request as the server saw it.
struct RecordedRequest {
    var method: String
    var path: String
    var headers: [(String, String)]
    var body: String

    init(_ value: JSONValue) {
        method = value["method"]?.stringValue ?? ""
        path = value["path"]?.stringValue ?? ""
        body = value["body"]?.stringValue ?? ""
        headers = (value["headers"]?.arrayValue ?? JSONArray()).map { pair in
            (pair[0]?.stringValue ?? "", pair[1]?.stringValue ?? "")
        }
    }

    func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    var json: JSONValue? { try? JSONValue.parse(body) }
}

/// Runs `body` with a fresh server and always stops it.
func withLoopbackServer<T>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
    let server = try LoopbackServer.start()
    defer { server.stop() }
    return try await body(server)
}
