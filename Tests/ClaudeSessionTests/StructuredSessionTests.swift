import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// Typed structured output through the session, on a recorded stream
// (vercel-ai's json output format recording from the shared corpus): the
// partial type decodes at every snapshot, each one only extends the one
// before, and the complete type decodes at the end.

struct Party: StructuredResponse {
    struct Character: Decodable, Sendable, Equatable {
        var name: String
        var `class`: String
        var description: String
    }
    var characters: [Character]

    struct Partial: Decodable, Sendable {
        struct Character: Decodable, Sendable {
            var name: String?
            var `class`: String?
            var description: String?
        }
        var characters: [Character]?
    }

    static var outputSchema: JSONValue {
        JSONSchema.object([
            .init(
                "characters",
                .array(
                    items: .object([
                        .init("name", .string()), .init("class", .string()), .init("description", .string()),
                    ])))
        ]).jsonValue
    }
}

private let recording = TestPaths.sharedCorpus.appendingPathComponent("anthropic-sse/vercel-ai__anthropic-json-output-format.1.sse")

@Suite(.enabled(if: TestPaths.serverAvailable && FileManager.default.fileExists(atPath: recording.path), "needs python3 and the shared corpus"))
struct StructuredSessionTests {
    @Test func partialValuesAtEverySnapshotThenTheCompleteType() async throws {
        try await withLoopbackServer { server in
            try await server.script("typed", [.file(recording.path, pieces: 23), .file(recording.path)])
            let session = ClaudeSession(model: .opus5, transport: server.client("typed"))
            var snapshots = 0
            var previousNames: [String] = []
            var previousCount = 0
            for try await element in session.streamResponse(to: "Three characters", generating: Party.self) {
                snapshots += 1
                if let issue = element.issue {
                    #expect(issue == .noOutputYet, "snapshot \(snapshots): \(issue)")
                    continue
                }
                let characters = element.partial?.characters ?? []
                #expect(characters.count >= previousCount)
                let names = characters.map { $0.name ?? "" }
                for (old, new) in zip(previousNames, names) { #expect(new.hasPrefix(old)) }
                previousNames = names
                previousCount = characters.count
            }
            // The stream hands out the newest snapshot (they are cumulative), so how
            // many arrive depends on timing; the final one always does.
            #expect(snapshots >= 1)
            #expect(previousCount == 3)
            let bodies = try await server.bodies("typed")
            #expect(bodies.first?["output_config"]?["format"]?["schema"] == Party.outputSchema)

            let party = try await session.respond(to: "Again", generating: Party.self)
            #expect(party.characters.count == 3)
            #expect(party.characters.first?.name == "Theron Ironheart")
        }
    }

    @Test func everySnapshotOfTheRecordingDecodes() async throws {
        // Deterministic: every snapshot the accumulator makes, fed 23 bytes at a time.
        let bytes = try Data(contentsOf: recording)
        var options = MessageAccumulatorOptions()
        options.structuredOutput = .allTextBlocks
        var decoded = 0
        var previous = ""
        for try await snapshot in DataChunks(bytes, chunkSize: 23).messageSnapshots(options: options) {
            let element = StructuredSnapshot<Party.Partial>(snapshot)
            if element.issue == .noOutputYet { continue }
            #expect(element.issue == nil, "\(String(describing: element.issue))")
            let names = (element.partial?.characters ?? []).map { $0.name ?? "" }.joined(separator: "|")
            #expect(names.hasPrefix(previous))
            previous = names
            decoded += 1
        }
        #expect(decoded > 50)
        let names = previous.split(separator: "|")
        #expect(names.count == 3)
        #expect(names.prefix(2) == ["Theron Ironheart", "Lyra Starweaver"])
    }

    @Test func clientStreamGeneratingAPartialType() async throws {
        try await withLoopbackServer { server in
            try await server.script("client-typed", [.file(recording.path, pieces: 101)])
            let request = MessageRequest(model: .opus5, messages: [.user("Three characters")], outputSchema: Party.outputSchema)
            var last: StructuredSnapshot<Party.Partial>?
            for try await element in try server.client("client-typed").stream(request, generating: Party.Partial.self) {
                if let issue = element.issue { #expect(issue == .noOutputYet) }
                last = element
            }
            #expect(last?.partial?.characters?.count == 3)
            #expect(last?.snapshot.isComplete == true)
            #expect(try last?.snapshot.decodeStructured(Party.self, complete: true).characters.last?.class != nil)
        }
    }

    @Test func aFailedDecodeSaysWhy() async throws {
        struct Wrong: StructuredResponse {
            struct Partial: Decodable, Sendable {}
            var heroes: [String]
            static var outputSchema: JSONValue { .object([("type", .string("object"))]) }
        }
        try await withLoopbackServer { server in
            try await server.script("wrong", [.file(recording.path)])
            let session = ClaudeSession(model: .opus5, transport: server.client("wrong"))
            do throws(SessionError) {
                _ = try await session.respond(to: "x", generating: Wrong.self)
                Issue.record("decoded a type that does not fit")
            } catch {
                guard case .structuredOutput(.typeMismatch(let why)) = error.kind else {
                    Issue.record("\(error)")
                    return
                }
                #expect(why.contains("heroes"))
                #expect(error.transcript.responses.count == 1)
            }
        }
    }
}
