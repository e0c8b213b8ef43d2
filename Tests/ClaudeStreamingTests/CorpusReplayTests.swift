// Every recorded stream of ../shared/corpus/anthropic-sse against the final
// messages the official Python SDK builds (expected/README.md: compare after
// dropping null-valued keys; key order not meaningful), whole and under every
// chunking. The SDK is a reference, not the truth; where this package is
// deliberately different the test says why and checks the right answer.

import ClaudeStreaming
import Foundation
import IncrementalJSON
import Testing

@Suite struct CorpusReplayTests {
    static let names = Corpus.recordingNames()
    static let sdkDropsDeltaUsageFields: Set<String> = [
        "vercel-ai__issue-17326-anthropic-claude-haiku-4.5", "vercel-ai__issue-17326-anthropic-stream",
    ]

    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"), arguments: names)
    func matchesExpectedFinalMessages(name: String) throws {
        guard let expected = Corpus.expected(for: name) else { return }  // no reference: checked below
        let bytes = try Corpus.bytes(of: name)
        let outcome = runStream(bytes, checkChunkings: false)  // chunkings: the next test
        var whole = expectedForm(outcome)
        if Self.sdkDropsDeltaUsageFields.contains(name) {
            // The SDK copies only the usage fields it knows from
            // `message_delta`; WIRE.md says every field a delta sends
            // overwrites. These gateway streams send `cache_creation` only in
            // the delta: check it is there, then compare the rest.
            let usage = outcome.last?.usage
            #expect(usage?["cache_creation"]?["ephemeral_5m_input_tokens"] != nil, "\(name)")
            whole = whole.map { entry in
                guard var entry = entry as? [String: Any], var message = entry["message"] as? [String: Any],
                    var usage = message["usage"] as? [String: Any]
                else { return entry }
                usage["cache_creation"] = nil
                message["usage"] = usage
                entry["message"] = message
                return entry
            }
        }
        let difference = jsonDifference(droppingNulls(whole), droppingNulls(expected))
        #expect(difference == nil, "\(name): \(difference ?? "")")
    }

    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"), arguments: names)
    func everyChunkingGivesTheSameMessages(name: String) throws {
        let bytes = try Corpus.bytes(of: name)
        let reference = runStream(bytes, checkChunkings: false)
        let referenceJSON = (reference.completed + [reference.last].compactMap { $0 }).map { $0.messageJSON().compactJSON }
        for chunking in Chunking.allCases where chunking != .whole {
            let outcome = runStream(bytes, chunking: chunking)
            let json = (outcome.completed + [outcome.last].compactMap { $0 }).map { $0.messageJSON().compactJSON }
            #expect(json == referenceJSON, "\(name) at chunking \(chunking)")
            #expect(outcome.error?.kind == reference.error?.kind, "\(name) at chunking \(chunking)")
            #expect(outcome.snapshots == reference.snapshots, "\(name) at chunking \(chunking)")
        }
    }

    /// No expected file: the SDK cannot hold two messages in one stream.
    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"))
    func sequentialMessagesAreKeptApart() throws {
        let bytes = try Corpus.bytes(of: "vercel-ai__issue-18331-sequential-messages")
        let outcome = runStream(bytes)
        #expect(outcome.error == nil)
        #expect(outcome.completed.count == 2)
        #expect(Set(outcome.completed.map(\.id)).count == 2)
        #expect(outcome.completed.map(\.messageIndex) == [0, 1])
        // Without the opt-in, the second message_start is a protocol violation
        // that still carries the first message.
        let strict = runStream(bytes, options: MessageAccumulatorOptions(allowsSequentialMessages: false))
        guard case .protocolViolation = strict.error?.kind else {
            Issue.record("expected a protocol violation, got \(String(describing: strict.error))")
            return
        }
        #expect(strict.completed.count == 1)
    }

    /// No expected file: the SDK turns input that is not JSON into whatever
    /// prefix parses. Here the block records why and keeps the raw text.
    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"))
    func invalidToolInputIsRecordedNotFatal() throws {
        let bytes = try Corpus.bytes(of: "vercel-ai__anthropic-code-execution-20250825-empty-first-delta")
        let outcome = runStream(bytes)
        #expect(outcome.error == nil)
        guard case .toolUse(let call) = outcome.last?.content.first else {
            Issue.record("expected a server tool call first")
            return
        }
        #expect(call.inputJSON.string == #""command":"view","path":"/tmp/a.txt"}"#)
        #expect(call.inputError != nil)
        #expect(call.isComplete)
    }
}
