import ClaudeSession
import ClaudeTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalJSON

// The scripted server (Server/script_server.py) for one test: the test says
// what each request gets back, then reads what the session sent.

enum SessionTestPaths {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let script = here.deletingLastPathComponent().appendingPathComponent("Server/script_server.py")
    static let sharedCorpus = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    static var python3: String? {
        let candidates = ["/usr/bin/python3", "/usr/local/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var canServe: Bool { python3 != nil && FileManager.default.fileExists(atPath: script.path) }
}

struct ScriptServerError: Error, CustomStringConvertible { var description: String }

/// One answer of the script.
struct Answer {
    var json: [String: Any]

    static func stream(_ sse: String, pieces: Int? = nil, hold: Double? = nil) -> Answer {
        var json: [String: Any] = ["body": sse]
        if let pieces { json["pieces"] = pieces }
        if let hold { json["hold"] = hold }
        return Answer(json: json)
    }

    static func file(_ path: String, pieces: Int? = nil) -> Answer {
        var json: [String: Any] = ["file": path]
        if let pieces { json["pieces"] = pieces }
        return Answer(json: json)
    }

    static func dropped(_ sse: String, after bytes: Int) -> Answer { Answer(json: ["body": sse, "drop_after": bytes]) }

    static func status(_ code: Int, _ body: String, headers: [String: String] = [:]) -> Answer {
        Answer(json: ["status": code, "body": body, "headers": headers])
    }
}

final class ScriptServer: @unchecked Sendable {
    // @unchecked: the process and pipe are only touched by start/stop on the test's task.
    let port: Int
    private let process: Process
    private let stdin: Pipe

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    static func launch() throws -> ScriptServer {
        guard let python = SessionTestPaths.python3 else { throw ScriptServerError(description: "no python3") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [SessionTestPaths.script.path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var announced = Data()
        while !announced.contains(UInt8(ascii: "\n")) {
            let more = stdout.fileHandleForReading.availableData
            if more.isEmpty { break }
            announced.append(more)
        }
        let line = String(decoding: announced, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw ScriptServerError(description: "no port announced: \(line)")
        }
        return ScriptServer(port: port, process: process, stdin: stdin)
    }

    func shutdown() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    func base(_ id: String) -> URL { URL(string: "http://127.0.0.1:\(port)/s/\(id)") ?? URL(fileURLWithPath: "/") }

    /// Installs the answers for script `id`.
    func script(_ id: String, _ answers: [Answer]) async throws {
        var request = URLRequest(url: base(id))
        request.httpMethod = "PUT"
        request.httpBody = try JSONSerialization.data(withJSONObject: answers.map(\.json))
        _ = try await exchange(request)
    }

    /// The request bodies script `id` received, parsed, oldest first.
    func bodies(_ id: String) async throws -> [JSONValue] {
        try await recorded(id).map { try JSONValue.parse($0["body"]?.stringValue ?? "") }
    }

    /// Every request of script `id` (path, body text, headers).
    func recorded(_ id: String) async throws -> [JSONValue] {
        let data = try await exchange(URLRequest(url: base(id).appendingPathComponent("requests")))
        return Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
    }

    private func exchange(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let data { continuation.resume(returning: data) } else {
                    continuation.resume(throwing: error ?? ScriptServerError(description: "no answer"))
                }
            }.resume()
        }
    }

    /// A client of script `id`.
    func client(_ id: String, idleTimeout: Double = 10) -> MessagesClient {
        MessagesClient(configuration: ClientConfiguration(baseURL: base(id), credentials: .apiKey("sk-ant-session-test-0123456789"),
                                                          idleTimeout: idleTimeout))
    }
}

/// Runs `body` with a fresh server, always stopped afterwards.
func withScriptServer<T>(_ body: (ScriptServer) async throws -> T) async throws -> T {
    let server = try ScriptServer.launch()
    defer { server.shutdown() }
    return try await body(server)
}
