// The loopback server's scripts (one answer per request, in order) seen
// from a synchronous test: chat is a blocking child process there, so the
// script is installed and read back with blocking calls too.

import ClaudeTestSupport
import Foundation
import IncrementalJSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loopback server of its own with script `chat` on it.
final class ChatScript {
    private let server: LoopbackServer

    init() throws { server = try LoopbackServer.start() }

    /// A server of its own that answers the requests with `answers`, in order.
    convenience init(_ answers: [[String: Any]]) throws {
        try self.init()
        try load(answers)
    }

    deinit { server.stop() }

    var base: String { server.base("chat").absoluteString }

    func load(_ answers: [[String: Any]]) throws {
        var request = URLRequest(url: server.base("chat"))
        request.httpMethod = "PUT"
        request.httpBody = try JSONSerialization.data(withJSONObject: answers)
        _ = try exchange(request)
    }

    /// Every request received (path, body text, headers, arrival time), oldest first.
    func recorded() throws -> [JSONValue] {
        let data = try exchange(URLRequest(url: server.base("chat").appendingPathComponent("requests")))
        return Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
    }

    /// The seconds between consecutive requests, by the server's clock.
    func gaps() throws -> [Double] {
        let times = try recorded().compactMap { try? $0["time"]?.numberValue?.double() }
        return zip(times, times.dropFirst()).map { $1 - $0 }
    }

    /// The request bodies received, parsed, oldest first.
    func bodies() throws -> [JSONValue] {
        try recorded().map { entry -> JSONValue in
            (try? JSONValue.parse(entry["body"]?.stringValue ?? "", options: .init(maxDepth: 1000))) ?? .null
        }
    }

    /// The size in bytes of each request body received, oldest first.
    func bodySizes() throws -> [Int] {
        let data = try exchange(URLRequest(url: server.base("chat").appendingPathComponent("requests")))
        let recorded = Array(try JSONValue.parse(Array(data)).arrayValue ?? JSONArray())
        return recorded.map { $0["body"]?.stringValue?.utf8.count ?? 0 }
    }

    private func exchange(_ request: URLRequest) throws -> Data {
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
}
