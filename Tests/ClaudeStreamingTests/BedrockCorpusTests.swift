// Recorded Bedrock and Vertex streams (../shared/corpus/bedrock-eventstream):
// each gives the same messages through the AWS event-stream framing as its
// Anthropic events fed over SSE, at every chunking.
//
// The SSE side is built here from the recording with Foundation's JSON and
// base64 decoders and the bitwise reference framing decoder, so it shares
// no code with the path under test.

import AWSEventStream
import ClaudeStreaming
import Foundation
import FuzzProperties
import ServerSentEvents
import Testing

enum BedrockCorpus {
    static var root: URL? { Corpus.root?.appendingPathComponent("bedrock-eventstream") }

    /// Manifest entries of the recordings of `kind` (`bedrock-…` or `vertex-…`).
    static func recordings(_ prefix: String) -> [[String: Any]] {
        guard let root,
            let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let recorded = manifest["recorded"] as? [[String: Any]]
        else { return [] }
        return recorded.filter { ($0["kind"] as? String)?.hasPrefix(prefix) == true }
    }

    static var bedrockFiles: [String] { recordings("bedrock").compactMap { $0["file"] as? String } }
    static var vertexFiles: [String] { recordings("vertex").compactMap { $0["file"] as? String } }

    static func entry(_ file: String) -> [String: Any] {
        recordings("").first { $0["file"] as? String == file } ?? [:]
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        guard let root else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: root.appendingPathComponent(file)))
    }
}

/// The events inside a Bedrock body, unwrapped independently of the code under test.
func referenceEvents(ofBedrockBody body: [UInt8]) throws -> [[UInt8]] {
    let outcome = AWSEventStreamReference.decode(body)
    if let error = outcome.error { throw error }
    return try outcome.messages.map { message in
        let object = try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]
        guard let text = object?["bytes"] as? String, let event = Data(base64Encoded: text) else { throw CocoaError(.coderReadCorrupt) }
        return Array(event)
    }
}

/// The same events as an SSE body (`event:` from each event's `type`).
func sseBody(_ events: [[UInt8]]) -> [UInt8] {
    var body: [UInt8] = []
    for event in events {
        let object = try? JSONSerialization.jsonObject(with: Data(event)) as? [String: Any]
        if let type = object?["type"] as? String { body += Array("event: \(type)\n".utf8) }
        for line in event.split(separator: 0x0A, omittingEmptySubsequences: false) { body += Array("data: ".utf8) + line + [0x0A] }
        body.append(0x0A)
    }
    return body
}

/// What must agree between the two framings: messages, how it ended, snapshot count.
func framingIndependentSummary(_ outcome: StreamOutcome) -> [String] {
    let ending: String
    switch outcome.error?.kind {
    case nil: ending = "complete"
    case .incomplete?: ending = "incomplete"
    case .legacyTextCompletions?: ending = "legacy"
    case let kind?: ending = "error \(kind)"
    }
    return outcome.completed.map { $0.messageJSON().compactJSON }
        + [outcome.last?.messageJSON().compactJSON ?? "-", ending, "\(outcome.snapshots)"]
}

let bedrockOptions = MessageAccumulatorOptions(allowsSequentialMessages: true, framing: .awsEventStream)

@Suite struct BedrockCorpusTests {
    @Test func sha256MatchesKnownDigests() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array(String(repeating: "a", count: 1000).utf8)).count == 64)
    }

    @Test(.enabled(if: BedrockCorpus.root != nil, "../shared/corpus/bedrock-eventstream is absent"))
    func corpusHasEveryRecording() {
        #expect(BedrockCorpus.bedrockFiles.count == 56)
        #expect(BedrockCorpus.vertexFiles.count == 13)
    }

    @Test(arguments: BedrockCorpus.bedrockFiles)
    func bedrockStreamMatchesItsEventsOverSSE(_ file: String) throws {
        let body = try BedrockCorpus.bytes(file)
        let entry = BedrockCorpus.entry(file)
        let events = try referenceEvents(ofBedrockBody: body)
        let frames = (entry["botocore_1_44_8"] as? [String: Any])?["frames"] as? Int
        #expect(events.count == frames, "frame count")
        // The decoded events, joined with LF, are the ones the manifest hashed.
        #expect(SHA256.hex(Array(events.joined(separator: [0x0A]))) == entry["inner_events_sha256"] as? String)
        // Every frame carries one of the header sets the manifest lists.
        let headerSets = (entry["distinct_header_sets"] as? [[String: String]]) ?? []
        #expect(!headerSets.isEmpty)
        for message in AWSEventStreamReference.decode(body).messages {
            var headers: [String: String] = [:]
            for header in message.headers {
                guard case .string(let value) = header.value else {
                    Issue.record("\(header.name) is not a string")
                    continue
                }
                headers[header.name] = value
            }
            #expect(headerSets.contains(headers), "headers \(headers)")
        }
        // runStream also replays at 1, 2, 3, 7, 64 and random chunk sizes.
        let overSSE = runStream(sseBody(events))
        let overBedrock = runStream(body, options: bedrockOptions)
        #expect(framingIndependentSummary(overBedrock) == framingIndependentSummary(overSSE))
        let counts = (entry["event_counts"] as? [String: Int])?.values.reduce(0, +)
        if overBedrock.error == nil { #expect(counts == events.count) }

        let api = entry["anthropic_api"] as? [String] ?? []
        if api == ["text-completions"] {
            guard case .legacyTextCompletions? = overBedrock.error?.kind else {
                Issue.record("legacy stream ended with \(String(describing: overBedrock.error))")
                return
            }
        } else if entry["ends_with_message_stop"] as? Bool == false {
            guard case .incomplete? = overBedrock.error?.kind else {
                Issue.record("unfinished stream ended with \(String(describing: overBedrock.error))")
                return
            }
            #expect(overBedrock.last != nil)
        } else {
            #expect(overBedrock.error == nil, "\(overBedrock.error.map { "\($0)" } ?? "")")
            let models = entry["models"] as? [String] ?? []
            for message in overBedrock.completed { #expect(models.contains(message.model), "model \(message.model)") }
        }

        // The recorder's own write boundaries (newrelic mock server).
        if let sizes = entry["write_chunks"] as? [Int] {
            var accumulator = MessageAccumulator(options: bedrockOptions)
            var start = 0
            var failure: MessageStreamError?
            for size in sizes where failure == nil {
                let end = min(body.count, start + size)
                body[start..<end].withUnsafeBytes { raw in
                    do throws(MessageStreamError) { try accumulator.feed(raw) } catch { failure = error }
                }
                start = end
            }
            #expect(start == body.count)
            let final = failure?.snapshot ?? accumulator.snapshot
            #expect(final?.messageJSON().compactJSON == (overBedrock.last ?? overBedrock.completed.last)?.messageJSON().compactJSON)
        }
    }

    /// Vertex sends plain SSE; the same events framed as Bedrock chunks (with
    /// padding, by the test encoder) must give the same messages.
    @Test(arguments: BedrockCorpus.vertexFiles)
    func vertexStreamMatchesTheSameEventsOverBedrockFraming(_ file: String) throws {
        let body = try BedrockCorpus.bytes(file)
        var parser = SSEParser()
        let events = try parser.feed(body).map(\.data)
        #expect(!events.isEmpty)
        let framed = events.enumerated().flatMap { index, event in
            AWSEventStreamEncoder.bedrockChunk(event: event, padding: index % 23)
        }
        let overSSE = runStream(body)
        let overBedrock = runStream(framed, options: bedrockOptions)
        #expect(overSSE.error == nil, "\(overSSE.error.map { "\($0)" } ?? "")")
        #expect(framingIndependentSummary(overBedrock) == framingIndependentSummary(overSSE))
    }
}
