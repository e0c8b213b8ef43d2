import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeTransport

// Every corpus recording served over a real socket must give exactly what
// feeding the file to MessageAccumulator gives: the same final message JSON,
// or the same stream error with the same partial snapshot.

/// How a stream ended, comparable across the network and the file.
enum StreamOutcome: Equatable, CustomStringConvertible {
    case complete(String)
    case streamError(String, snapshot: String?)
    case transport(String)

    var description: String {
        switch self {
        case .complete(let json): "complete \(json.prefix(120))…"
        case .streamError(let kind, let snapshot): "stream error \(kind) (snapshot: \(snapshot?.prefix(80) ?? "none"))"
        case .transport(let text): "transport \(text)"
        }
    }

    static func direct(_ bytes: [UInt8]) -> StreamOutcome {
        var accumulator = MessageAccumulator()
        do throws(MessageStreamError) {
            _ = try accumulator.feed(bytes)
            return .complete(try accumulator.finish().messageJSON().compactJSON)
        } catch {
            return .streamError("\(error.kind)", snapshot: error.snapshot?.messageJSON().compactJSON)
        }
    }

    static func network(_ client: MessagesClient, _ request: MessageRequest) async -> StreamOutcome {
        do throws(TransportError) {
            return .complete(try await client.send(request).messageJSON().compactJSON)
        } catch {
            if case .stream(let streamError) = error {
                return .streamError("\(streamError.kind)", snapshot: streamError.snapshot?.messageJSON().compactJSON)
            }
            return .transport("\(error)")
        }
    }
}

let testKey = "sk-ant-test-KEY-0123456789-zq"

func loopbackClient(
    _ server: LoopbackServer, _ route: String, idleTimeout: Double = loopbackIdleTimeout,
    overallTimeout: Double = 600, retryPolicy: RetryPolicy = .none,
    credentials: Credentials? = .apiKey(testKey)
) -> MessagesClient {
    MessagesClient(
        configuration: ClientConfiguration(
            baseURL: server.url(route), credentials: credentials,
            idleTimeout: idleTimeout, overallTimeout: overallTimeout, retryPolicy: retryPolicy))
}

let simpleRequest = MessageRequest(model: .opus5, messages: [.user("Hello")])

@Suite(.enabled(if: TestPaths.serverAvailable && TestPaths.corpusAvailable, "needs python3 and ../shared/corpus"))
struct RecordingOverNetworkTests {
    @Test func everyRecordingInRandomChunksMatchesTheFile() async throws {
        let names = TestPaths.recordings()
        #expect(names.count > 50)
        try await withLoopbackServer { server in
            var mismatches: [String] = []
            for (seed, name) in names.enumerated() {
                let bytes = Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name)))
                let expected = StreamOutcome.direct(bytes)
                let actual = await StreamOutcome.network(loopbackClient(server, "replay/\(name)/random-\(seed)"), simpleRequest)
                if actual != expected { mismatches.append("\(name): expected \(expected), got \(actual)") }
            }
            #expect(mismatches.isEmpty, "\(mismatches.count) of \(names.count) differ:\n\(mismatches.joined(separator: "\n"))")
        }
    }

    @Test func smallRecordingsByteByByteMatchTheFile() async throws {
        let names = TestPaths.recordings().filter { name in
            let size = (try? FileManager.default.attributesOfItem(atPath: TestPaths.corpus.appendingPathComponent(name).path)[.size] as? Int) ?? .max
            return size <= 12_000
        }
        #expect(!names.isEmpty)
        try await withLoopbackServer { server in
            for name in names {
                let bytes = Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name)))
                let actual = await StreamOutcome.network(loopbackClient(server, "replay/\(name)/bytes"), simpleRequest)
                #expect(actual == StreamOutcome.direct(bytes), "\(name)")
            }
        }
    }

    @Test func wholeBodyAndFixedChunksMatchToo() async throws {
        let name = "pydantic-ai__test_anthropic_web_search_citations_stream.sse"
        let bytes = Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name)))
        let expected = StreamOutcome.direct(bytes)
        guard case .complete = expected else {
            Issue.record("\(name) should be a complete recording")
            return
        }
        try await withLoopbackServer { server in
            for mode in ["whole", "chunk-1", "chunk-2", "chunk-3", "chunk-7", "chunk-64"] {
                let actual = await StreamOutcome.network(loopbackClient(server, "replay/\(name)/\(mode)"), simpleRequest)
                #expect(actual == expected, "\(mode)")
            }
        }
    }

    @Test func snapshotsOnlyGrowAndTheLastIsFinal() async throws {
        let name = "anthropic-sdk-typescript__basic_response.sse"
        try await withLoopbackServer { server in
            let client = loopbackClient(server, "replay/\(name)/bytes")
            var texts: [String] = []
            var last: MessageSnapshot?
            for try await snapshot in try client.stream(simpleRequest) {
                texts.append(snapshot.messageJSON().compactJSON)
                last = snapshot
            }
            #expect(texts.count >= 2)
            #expect(last?.stopReason == "end_turn")
            #expect(last?.messageJSON()["content"]?[0]?["text"]?.stringValue == "Hello there!")
        }
    }

    @Test func sendWithAndWithoutObserverAgree() async throws {
        let name = "pydantic-ai__test_anthropic_web_search_citations_stream.sse"
        try await withLoopbackServer { server in
            let client = loopbackClient(server, "replay/\(name)/chunk-500")
            var observed = 0
            let watched = try await client.send(simpleRequest) { _ in observed += 1 }
            let quiet = try await client.send(simpleRequest)
            #expect(observed >= 1)
            #expect(watched.messageJSON().compactJSON == quiet.messageJSON().compactJSON)
            #expect(quiet.stopReason != nil)
        }
    }
}
