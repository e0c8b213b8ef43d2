import Foundation
import IncrementalJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Starts Server/loopback_server.py (python3, standard library) on 127.0.0.1
// with an ephemeral port for one test and stops it afterwards. The server
// also exits when its stdin closes, so a crashed test run leaves nothing
// behind. What it answers is chosen by the path of the base URL the test
// gives its client: fixed routes (replays of the corpus, faults, hostile
// servers, cloud endpoints), or a script the test installs, one answer per
// request, under `/s/<id>/`.

package struct ServerStartError: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

/// A running loopback server.
package final class LoopbackServer: @unchecked Sendable {
    // @unchecked: the child process is touched only by start and stop, on the test's task.
    package let port: Int
    private let child: ProgramUnderTest

    private init(port: Int, child: ProgramUnderTest) {
        self.port = port
        self.child = child
    }

    package static func start() throws -> LoopbackServer {
        guard let python = TestPaths.python else { throw ServerStartError(description: "python3 not found") }
        // A server lives as long as the test (or suite) that started it.
        let child = try ProgramUnderTest(executable: python, [TestPaths.server.path, "--corpus", TestPaths.corpus.path], timeLimit: 1800)
        let announced = child.waitForOutput(timeout: 60) { $0.contains(UInt8(ascii: "\n")) }
        let text = String(decoding: announced, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            child.signalGroup(SIGKILL)
            _ = child.finish()
            throw ServerStartError(description: "server did not announce a port: \(text)")
        }
        return LoopbackServer(port: port, child: child)
    }

    /// Closes the server's stdin, which stops it, and reaps it.
    package func stop() {
        _ = child.finish()
    }

    /// A base URL whose path selects what the server does (see the server's docstring).
    package func url(_ route: String) -> URL {
        // Routes are built from file names the corpus chose; they are URL-safe.
        URL(string: "http://127.0.0.1:\(port)/\(route)") ?? URL(fileURLWithPath: "/invalid")
    }

    /// Every request the server has seen on its fixed routes, oldest first.
    package func recordedRequests() async throws -> [RecordedRequest] {
        let value = try JSONValue.parse(Array(try await exchange(URLRequest(url: url("_requests")))))
        return (value.arrayValue ?? JSONArray()).map(RecordedRequest.init)
    }

    /// What the server recorded for each `500-huge` answer (see the server's docstring).
    package func sentRecords() async throws -> [JSONValue] {
        let data = try await exchange(URLRequest(url: url("_sent")))
        return Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
    }

    // MARK: Scripts

    /// The base URL of script `id`.
    package func base(_ id: String) -> URL { url("s/\(id)") }

    /// Installs the answers for script `id`, served in order, one a request.
    package func script(_ id: String, _ answers: [ScriptedAnswer]) async throws {
        var request = URLRequest(url: base(id))
        request.httpMethod = "PUT"
        request.httpBody = try JSONSerialization.data(withJSONObject: answers.map(\.json))
        _ = try await exchange(request)
    }

    /// The request bodies script `id` received, parsed, oldest first.
    package func bodies(_ id: String) async throws -> [JSONValue] {
        try await recorded(id).map { try JSONValue.parse($0["body"]?.stringValue ?? "") }
    }

    /// The seconds between consecutive requests of script `id`, by the server's clock.
    package func gaps(_ id: String) async throws -> [Double] {
        let times = try await recorded(id).compactMap { try? $0["time"]?.numberValue?.double() }
        return zip(times, times.dropFirst()).map { $1 - $0 }
    }

    /// Every request of script `id` (path, body text, headers, arrival time).
    package func recorded(_ id: String) async throws -> [JSONValue] {
        let data = try await exchange(URLRequest(url: base(id).appendingPathComponent("requests")))
        return Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
    }

    private func exchange(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let data {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? ServerStartError(description: "no answer"))
                }
            }.resume()
        }
    }
}

/// One answer of a script.
package struct ScriptedAnswer {
    package var json: [String: Any]

    /// An answer given as the server's JSON (see the server's docstring).
    package init(json: [String: Any]) { self.json = json }

    package static func stream(_ sse: String, pieces: Int? = nil, hold: Double? = nil) -> ScriptedAnswer {
        var json: [String: Any] = ["body": sse]
        if let pieces { json["pieces"] = pieces }
        if let hold { json["hold"] = hold }
        return ScriptedAnswer(json: json)
    }

    package static func file(_ path: String, pieces: Int? = nil) -> ScriptedAnswer {
        var json: [String: Any] = ["file": path]
        if let pieces { json["pieces"] = pieces }
        return ScriptedAnswer(json: json)
    }

    package static func dropped(_ sse: String, after bytes: Int) -> ScriptedAnswer {
        ScriptedAnswer(json: ["body": sse, "drop_after": bytes])
    }

    package static func status(_ code: Int, _ body: String, headers: [String: String] = [:]) -> ScriptedAnswer {
        ScriptedAnswer(json: ["status": code, "body": body, "headers": headers])
    }

    /// The API's error body of `type` with `status`.
    package static func apiError(_ code: Int, _ type: String, headers: [String: String] = [:]) -> ScriptedAnswer {
        status(code, #"{"type":"error","error":{"type":"\#(type)","message":"scripted \#(code)"}}"#, headers: headers)
    }

    /// The connection reset (RST) once the request is read, before any answer.
    package static var reset: ScriptedAnswer { ScriptedAnswer(json: ["reset": true]) }
}

/// One request as the server saw it.
package struct RecordedRequest {
    package var method: String
    package var path: String
    package var headers: [(String, String)]
    package var body: String

    init(_ value: JSONValue) {
        method = value["method"]?.stringValue ?? ""
        path = value["path"]?.stringValue ?? ""
        body = value["body"]?.stringValue ?? ""
        headers = (value["headers"]?.arrayValue ?? JSONArray()).map { pair in
            (pair[0]?.stringValue ?? "", pair[1]?.stringValue ?? "")
        }
    }

    package func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    package var json: JSONValue? { try? JSONValue.parse(body) }
}

/// The idle timeout of the clients the tests point at a loopback server:
/// far above any pause a server makes unless told to, because a loaded
/// machine (the suite's tests in parallel, a fuzz campaign beside them) has
/// starved a server past 10 s before its first byte. Tests of the timeout
/// itself set their own.
package let loopbackIdleTimeout: Double = 30

/// Runs `body` with a fresh server and always stops it.
package func withLoopbackServer<T>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
    let server = try LoopbackServer.start()
    defer { server.stop() }
    return try await body(server)
}
