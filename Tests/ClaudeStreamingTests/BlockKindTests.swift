// Block kinds the corpus has few of, each from a fixture written here, and
// the async adapter.

import ClaudeStreaming
import ClaudeTestSupport
import CommandLineDisplay
import IncrementalJSON
import Testing

@Suite struct BlockKindTests {
    typealias F = StreamFixture

    @Test func compactionDeltaReplacesItsFields() throws {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":"","encrypted_content":null}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"first draft","encrypted_content":null}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"Summary of the chat.","encrypted_content":"ZW5j"}}"#,
            F.stop(0), F.messageDelta(stop: "compaction"), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        guard case .compaction(let block) = message.content.first else { throw Failure("a compaction block") }
        #expect(block.content == "Summary of the chat.")
        #expect(block.encryptedContent == "ZW5j")
        #expect(
            message.contentJSON().compactJSON
                == #"[{"type":"compaction","content":"Summary of the chat.","encrypted_content":"ZW5j"}]"#)
        #expect(message.stopReason == "compaction")
    }

    @Test func mcpCallAndResultPair() throws {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"mcp_tool_use","id":"mcptoolu_1","name":"search_docs","server_name":"docs","input":{}}}"#,
            F.json(0, #"{\"q\": \"sse\"}"#), F.stop(0),
            #"{"type":"content_block_start","index":1,"content_block":{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"found"}]}}"#,
            F.stop(1), F.messageDelta(), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        guard case .toolUse(let call) = message.content[0], case .toolResult(let result) = message.content[1] else {
            throw Failure("an MCP call and its result")
        }
        #expect(call.kind == .mcpToolUse)
        #expect(call.input == ["q": "sse"])
        #expect(result.toolUseID == "mcptoolu_1")
        #expect(message.contentJSON().compactJSON.contains(#""server_name":"docs""#))
    }

    @Test func redactedThinkingAndContainerUploadAreKeptVerbatim() throws {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}"#,
            F.stop(0),
            #"{"type":"content_block_start","index":1,"content_block":{"type":"container_upload","file_id":"file_01"}}"#,
            F.stop(1), F.messageDelta(), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        #expect(message.content.map(\.type) == ["redacted_thinking", "container_upload"])
        #expect(
            message.contentJSON().compactJSON
                == #"[{"type":"redacted_thinking","data":"EmwKAhgB"},{"type":"container_upload","file_id":"file_01"}]"#)
    }

    @Test func toolCallArrivingFilledHasNoDeltas() throws {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{"a":[1,2]},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}}"#,
            F.stop(0), F.messageDelta(stop: "tool_use"), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        guard case .toolUse(let call) = message.content[0] else { throw Failure("a tool call") }
        #expect(call.input == ["a": [1, 2]])
        #expect(call.finalInput == ["a": [1, 2]])
        #expect(call.inputJSON.isEmpty)
    }

    @Test func cutToolInputReplaysWhatParsedWithoutTheOpenString() throws {
        let bytes = F.sse([
            F.messageStart, F.toolStart(0), F.json(0, #"{\"lines\": [\"one\", \"tw"#),
            F.messageDelta(stop: "max_tokens"), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        guard case .toolUse(let call) = message.content[0] else { throw Failure("a tool call") }
        #expect(call.input.compactJSON == #"{"lines":["one","tw"]}"#, "while streaming the open string shows")
        #expect(call.finalInput.compactJSON == #"{"lines":["one"]}"#, "replay leaves the cut string out")
        #expect(!call.isComplete)
    }

    @Test func asyncAdapterYieldsEverySnapshotInOrder() async throws {
        let bytes = DemoRecording.bytes
        let chunks = stride(from: 0, to: bytes.count, by: 37).map { Array(bytes[$0..<min(bytes.count, $0 + 37)]) }
        let stream = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        var texts: [String] = []
        for try await snapshot in stream.messageSnapshots() { texts.append(snapshot.text) }
        let direct = runStream(bytes)
        #expect(texts.count == direct.snapshots)
        #expect(texts.last == direct.last?.text)
    }

    @Test func asyncAdapterThrowsIncompleteWithTheSnapshot() async {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(F.sse([F.messageStart, F.textStart(0), F.text(0, "cut here")]))
            continuation.finish()
        }
        do {
            for try await _ in stream.messageSnapshots() {}
            Issue.record("expected the stream to be reported incomplete")
        } catch let error as MessageStreamError {
            #expect(error.kind == .incomplete)
            #expect(error.snapshot?.text == "cut here")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
