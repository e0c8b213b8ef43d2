// `chat --request FILE` sends the file's messages as written: every recorded
// request body of ../shared/corpus/conversations that ends with the user's
// turn is given to chat without a prompt (chat then sends the conversation
// as it stands), and each message the server receives must have the file's
// role and the file's content, value for value (key order, number text and
// string content included; the two keys of a message are written role
// first, whatever order the file had them in).

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

private let conversations = TestPaths.sharedCorpus.appendingPathComponent("conversations")

/// Every `NN.request.json` whose last message is the user's.
private func recordedBodies() -> [URL] {
    let folders = (try? FileManager.default.contentsOfDirectory(at: conversations, includingPropertiesForKeys: nil)) ?? []
    return folders.flatMap { folder -> [URL] in
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.lastPathComponent.hasSuffix(".request.json") }
    }
    .filter { url in
        guard let data = FileManager.default.contents(atPath: url.path), let body = try? JSONValue.parse(Array(data)) else { return false }
        return body["messages"]?.arrayValue?.last?["role"]?.stringValue == "user"
    }
    .sorted { $0.path < $1.path }
}

@Suite(
    .enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"),
    .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct ChatRequestFileTests {
    @Test func recordedBodiesGoOutAsWritten() throws {
        let bodies = recordedBodies()
        #expect(bodies.count >= 40)
        var differences: [String] = []
        let server = try ChatScript()
        for url in bodies {
            try server.load([response([textBlock], stop: "end_turn")])
            let run = try runChat(["--final-json", "--base-url", server.base, "--request", url.path])
            let name = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
            guard run.status == 0, let sent = try server.bodies().first else {
                differences.append("\(name): exit \(run.status): \(run.stderr)")
                continue
            }
            let given = try JSONValue.parse(Array(try Data(contentsOf: url)))
            func turns(_ body: JSONValue) -> [String] {
                (body["messages"]?.arrayValue.map(Array.init) ?? []).map {
                    ($0["role"]?.compactJSON ?? "") + " " + ($0["content"]?.compactJSON ?? "")
                }
            }
            if turns(sent) != turns(given) {
                differences.append("\(name): sent \(sent["messages"]?.compactJSON.prefix(300) ?? "nothing")")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(bodies.count) differ:\n\(differences.joined(separator: "\n"))")
    }
}
