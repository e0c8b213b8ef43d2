import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import Testing

@testable import ClaudeTransport

// The delegate reads the accumulator's snapshot once per piece of the body,
// and only when an event in that piece changed the message. Served byte by
// byte (thousands of pieces, most ending inside an event), the consumer must
// still see only snapshots that feeding the file produces, in the file's
// order, at most one per changing event (the final one is not handed over
// a second time at the end), ending with the file's final message.

@Suite(.enabled(if: TestPaths.serverAvailable && TestPaths.corpusAvailable, "needs python3 and ../shared/corpus"))
struct SnapshotPerPieceTests {
    @Test(arguments: ["bytes", "chunk-3", "random-7"])
    func snapshotsFollowTheFileInOrderAtMostOnePerChange(mode: String) async throws {
        let name = "pydantic-ai__test_anthropic_web_search_citations_stream.sse"
        let bytes = Array(try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name)))
        var fromFile: [String] = []
        var accumulator = MessageAccumulator()
        try bytes.withUnsafeBytes { raw in
            try accumulator.feed(raw) { fromFile.append($0.messageJSON().compactJSON) }
        }
        let final = try accumulator.finish().messageJSON().compactJSON
        #expect(bytes.count > 10 * fromFile.count, "byte by byte must give far more pieces than changes")

        try await withLoopbackServer { server in
            let client = loopbackClient(server, "replay/\(name)/\(mode)")
            var delivered: [String] = []
            for try await snapshot in try client.stream(simpleRequest) { delivered.append(snapshot.messageJSON().compactJSON) }
            #expect(delivered.count >= 2)
            #expect(delivered.count <= fromFile.count)
            #expect(delivered.last == final)
            // Each delivered snapshot is one the file produces, never an older one than the last seen.
            var position = fromFile.startIndex
            for (index, snapshot) in delivered.dropLast().enumerated() {
                guard let found = fromFile[position...].firstIndex(of: snapshot) else {
                    Issue.record("snapshot \(index) of \(delivered.count) is not one the file produces after the previous one")
                    return
                }
                position = found
            }
        }
    }
}
