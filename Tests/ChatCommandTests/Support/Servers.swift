// The two Python servers the chat tests talk to, both standard library only
// and both in the repository: the loopback server of the transport tests
// (fixed routes: echo, faults, Bedrock and Vertex paths) and the scripted
// server of the session tests (one answer per request, in order). Each
// stops when its stdin closes, so a crashed test run leaves nothing behind.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalJSON

enum TestPaths {
    /// The package root: this file is Tests/ChatCommandTests/Support/Servers.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let loopbackServer = packageRoot.appendingPathComponent("Tests/ClaudeTransportTests/Server/loopback_server.py")
    static let scriptServer = packageRoot.appendingPathComponent("Tests/ClaudeSessionTests/Server/script_server.py")
    static let corpus = packageRoot.appendingPathComponent("../shared/corpus/anthropic-sse").standardizedFileURL

    static var python: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var serverAvailable: Bool {
        python != nil && FileManager.default.fileExists(atPath: loopbackServer.path)
            && FileManager.default.fileExists(atPath: scriptServer.path)
    }
}

struct ServerStartError: Error, CustomStringConvertible {
    var description: String
}

/// A Python server started for one test; `PORT n` is its first line.
class PythonServer {
    let port: Int
    private let process: Process
    private let keepAlive: Pipe

    init(_ script: URL, arguments: [String] = []) throws {
        guard let python = TestPaths.python else { throw ServerStartError(description: "python3 not found") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path] + arguments
        keepAlive = Pipe()
        let announce = Pipe()
        process.standardInput = keepAlive
        process.standardOutput = announce
        try process.run()
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let data = announce.fileHandleForReading.availableData
            if data.isEmpty { break }
            line.append(contentsOf: data)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ServerStartError(description: "server did not announce a port: \(text)")
        }
        self.port = port
    }

    deinit {
        try? keepAlive.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    func exchange(_ request: URLRequest) throws -> Data {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Data?
        URLSession.shared.dataTask(with: request) { data, _, _ in
            result = data
            done.signal()
        }.resume()
        done.wait()
        guard let result else { throw ServerStartError(description: "no answer") }
        return result
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/invalid")
    }
}

/// The loopback server: a base URL's path selects what it does (see its docstring).
final class LoopbackServer: PythonServer {
    init() throws { try super.init(TestPaths.loopbackServer, arguments: ["--corpus", TestPaths.corpus.path]) }

    /// Every request the server has seen, oldest first.
    func recordedRequests() throws -> [RecordedRequest] {
        let value = try JSONValue.parse(Array(try exchange(URLRequest(url: url("_requests")))))
        return (value.arrayValue ?? JSONArray()).map(RecordedRequest.init)
    }
}

/// One request as the loopback server saw it.
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

/// Runs `body` with a fresh loopback server.
func withLoopbackServer<T>(_ body: (LoopbackServer) throws -> T) throws -> T {
    try body(try LoopbackServer())
}

/// The scripted server: `load` the answers, then read the request bodies.
final class ChatScript: PythonServer {
    init() throws { try super.init(TestPaths.scriptServer) }

    var base: String { "http://127.0.0.1:\(port)/s/chat" }

    func load(_ answers: [[String: Any]]) throws {
        var request = URLRequest(url: URL(string: base) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = "PUT"
        request.httpBody = try JSONSerialization.data(withJSONObject: answers)
        _ = try exchange(request)
    }

    func bodies() throws -> [JSONValue] {
        let data = try exchange(URLRequest(url: URL(string: base + "/requests") ?? URL(fileURLWithPath: "/")))
        let recorded = Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
        return recorded.map { entry -> JSONValue in
            let text = entry["body"]?.stringValue ?? ""
            return (try? JSONValue.parse(text)) ?? .null
        }
    }
}
