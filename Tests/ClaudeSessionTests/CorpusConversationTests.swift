import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// The 28 recorded conversations of ../shared/corpus/conversations. For each
// interaction NN that continues MM: the state after MM is request MM's
// messages plus response MM as the session keeps it (a ResponseEntry); the
// recorded user and tool content that follows in NN is appended; request NN
// is encoded, and its `messages` must equal the recorded ones as JSON values
// (key order ignored). Where the recording client altered history
// (`replay_notes`), the assistant turn must instead be the response itself,
// verbatim.

private let conversations = TestPaths.sharedCorpus.appendingPathComponent("conversations")

private struct Interaction: Sendable, CustomTestStringConvertible {
    var folder: String
    var number: String
    var replays: String
    var notes: [String]
    var testDescription: String { "\(folder) \(number)" }
}

private func interactions() -> [Interaction] {
    guard let data = FileManager.default.contents(atPath: conversations.appendingPathComponent("manifest.json").path),
        let manifest = try? JSONValue.parse(Array(data)).arrayValue
    else { return [] }
    var found: [Interaction] = []
    for entry in manifest {
        let folder = entry["folder"]?.stringValue ?? ""
        let notes = (entry["replay_notes"]?.arrayValue ?? JSONArray()).compactMap(\.stringValue)
        for item in entry["items"]?.arrayValue ?? JSONArray() {
            guard let number = item["n"]?.stringValue, let replays = item["replays_response_of"]?.stringValue else { continue }
            found.append(
                Interaction(
                    folder: folder, number: number, replays: replays,
                    notes: notes.filter { $0.hasPrefix("\(number):") }))
        }
    }
    return found
}

/// A message with string content written as the one text block the API reads
/// it as (llm-anthropic sends an assistant turn's text as a string).
private func normalized(_ message: JSONValue) -> JSONValue {
    guard let text = message["content"]?.stringValue, let role = message["role"] else { return message }
    return .object([("role", role), ("content", .array([.object([("type", .string("text")), ("text", .string(text))])]))])
}

/// JSON text with object keys sorted at every level, for comparing values.
private func canonical(_ value: JSONValue) -> String {
    switch value.kind {
    case .object(let object):
        let members = object.entries.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
        return "{" + members.map { JSONValue.string($0.0).compactJSON + ":" + canonical($0.1) }.joined(separator: ",") + "}"
    case .array(let array):
        return "[" + array.map(canonical).joined(separator: ",") + "]"
    default:
        return value.compactJSON
    }
}

private func load(_ folder: String, _ name: String) throws -> [UInt8]? {
    FileManager.default.contents(atPath: conversations.appendingPathComponent(folder).appendingPathComponent(name).path).map(Array.init)
}

/// The response of interaction `number` as the session would have it.
private func response(_ folder: String, _ number: String) throws -> MessageSnapshot {
    if let sse = try load(folder, "\(number).response.sse") {
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(sse)
        return try accumulator.finish()
    }
    let json = try #require(try load(folder, "\(number).response.json"))
    return MessageSnapshot(messageJSON: try JSONValue.parse(json))
}

@Suite(.enabled(if: FileManager.default.fileExists(atPath: conversations.path), "needs ../shared/corpus/conversations"))
struct CorpusConversationTests {
    @Test func everyConversationIsInTheCorpus() {
        let folders = Set(interactions().map(\.folder))
        #expect(folders.count == 28)
        #expect(interactions().count == 66 - 28 - 3)  // interactions that continue an earlier one
    }

    @Test(arguments: interactions())
    private func laterRequestIsRebuiltFromTheState(_ interaction: Interaction) throws {
        let earlier = try JSONValue.parse(try #require(try load(interaction.folder, "\(interaction.replays).request.json")))
        let later = try JSONValue.parse(try #require(try load(interaction.folder, "\(interaction.number).request.json")))
        let before = Array(earlier["messages"]?.arrayValue ?? JSONArray())
        let recorded = Array(later["messages"]?.arrayValue ?? JSONArray())
        try #require(recorded.count > before.count)
        #expect(recorded[before.count]["role"]?.stringValue == "assistant")

        // State after the earlier response: its request's turns, then the response as the transcript keeps it.
        var transcript = SessionTranscript(setup: RequestSetup(model: ClaudeModel(id: "corpus", capabilities: .all)))
        transcript.appendResponse(ResponseEntry(try response(interaction.folder, interaction.replays)))
        // The recorded user and tool content that follows.
        for message in recorded.dropFirst(before.count + 1) {
            let content = message["content"] ?? .array([])
            if message["role"]?.stringValue == "user" {
                transcript.appendPrompt([.raw(RawJSON(content))])
            } else {
                Issue.record("an assistant turn the test cannot supply follows the replayed response")
            }
        }
        let history = before.map { turn in
            ConversationTurn(
                role: turn["role"]?.stringValue == "assistant" ? .assistant : .user,
                content: [.raw(RawJSON(turn["content"] ?? .array([])))])
        }
        let request = MessageRequest(model: ClaudeModel(id: "corpus", capabilities: .all), messages: history + transcript.messages)
        let sent = Array(try JSONValue.parse(try RequestEncoder.encode(request).body)["messages"]?.arrayValue ?? JSONArray())
        #expect(sent.count == recorded.count)

        let replayed = try #require(transcript.responses.first).content.value
        #expect(sent[before.count]["content"].map(canonical) == canonical(replayed))
        if interaction.notes.isEmpty {
            for index in sent.indices where index < recorded.count {
                #expect(canonical(normalized(sent[index])) == canonical(normalized(recorded[index])), "message \(index)")
            }
        } else {
            // The recording client altered history: check what it did not touch, and
            // that the assistant turn went out as the response said it verbatim.
            let historyAltered = interaction.notes.contains { $0.contains("differ from request") }
            for index in sent.indices where index != before.count && (index > before.count || !historyAltered) {
                #expect(canonical(normalized(sent[index])) == canonical(normalized(recorded[index])), "message \(index)")
            }
            #expect(canonical(sent[before.count]) != canonical(recorded[before.count]), "a noted alteration that is not there")
        }
    }
}
