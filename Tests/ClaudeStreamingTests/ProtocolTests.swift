// The protocol rules of the accumulator: routing by index, interleaving,
// what is a violation (with its event number and offset), what is kept.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import Testing

@Suite struct ProtocolTests {
    typealias F = StreamFixture

    @Test func simpleMessageUnderEveryChunking() {
        for chunking in Chunking.allCases {
            let outcome = runStream(F.simple("Hi there"), chunking: chunking)
            #expect(outcome.error == nil)
            #expect(outcome.last?.text == "Hi there")
            #expect(outcome.last?.stopReason == "end_turn")
            #expect(outcome.last?.usage.outputTokens == 42)
            #expect(outcome.last?.usage.inputTokens == 10, "a delta that omits a field keeps its value")
            #expect(outcome.last?.isComplete == true)
        }
    }

    @Test func interleavedBlocksAreRoutedByIndex() {
        let bytes = F.sse([
            F.messageStart, F.textStart(0), F.toolStart(1), F.text(0, "a"), F.json(1, #"{\"q\": \"x"#),
            F.text(0, "b"), F.stop(0), F.json(1, #"y\"}"#), F.stop(1), F.messageDelta(), F.messageStop,
        ])
        let outcome = runStream(bytes)
        #expect(outcome.error == nil)
        #expect(outcome.last?.text == "ab")
        guard case .toolUse(let call) = outcome.last?.content.block(at: 1) else {
            Issue.record("block 1 should be a tool call")
            return
        }
        #expect(call.input == JSONValue.object([("q", .string("xy"))]))
        #expect(call.inputJSON.string == #"{"q": "xy"}"#)
    }

    @Test func toolInputGrowsAsAPartialValue() {
        let bytes = F.sse([
            F.messageStart, F.toolStart(0), F.json(0, ""), F.json(0, #"{\"city\": \"Lis"#),
            F.json(0, #"bon\", \"days\": 3"#), F.json(0, "}"), F.stop(0), F.messageDelta(stop: "tool_use"), F.messageStop,
        ])
        var inputs: [String] = []
        _ = runStream(bytes) { snapshot in
            if case .toolUse(let call) = snapshot.content.block(at: 0) { inputs.append(call.input.compactJSON) }
        }
        #expect(inputs.contains(#"{"city":"Lis"}"#), "a growing string is visible")
        #expect(inputs.contains(#"{"city":"Lisbon"}"#), "the number 3 is not shown until its token ends")
        #expect(inputs.last == #"{"city":"Lisbon","days":3}"#)
    }

    @Test func violationsNameTheEventAndOffset() {
        let cases: [(String, [String])] = [
            ("delta before start", [F.messageStart, F.text(0, "x")]),
            ("stop for unknown index", [F.messageStart, F.stop(3)]),
            ("delta for a start that skipped an index", [F.messageStart, F.textStart(1), F.text(1, "x")]),
            ("delta type that does not fit", [F.messageStart, F.textStart(0), F.json(0, "{}")]),
            ("delta after stop", [F.messageStart, F.textStart(0), F.stop(0), F.text(0, "late")]),
            ("second message_start", [F.messageStart, F.messageStart]),
            ("content after message_stop", [F.messageStart, F.messageStop, F.textStart(0)]),
            ("block before message_start", [F.textStart(0)]),
        ]
        for (name, events) in cases {
            let bytes = F.sse(events)
            let outcome = runStream(bytes, options: MessageAccumulatorOptions(allowsSequentialMessages: false))
            guard let error = outcome.error, case .protocolViolation = error.kind else {
                Issue.record("\(name): expected a protocol violation, got \(String(describing: outcome.error))")
                continue
            }
            #expect(error.eventIndex == events.count - 1, "\(name)")
            #expect(error.byteOffset > 0 && error.byteOffset <= bytes.count, "\(name)")
            #expect(error.description.hasPrefix("event \(events.count - 1), offset "), "\(name)")
        }
    }

    @Test func errorEventCarriesTheSnapshotSoFar() {
        let bytes = F.sse([
            F.messageStart, F.textStart(0), F.text(0, "partial answer"),
            #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_9"}"#,
        ])
        let outcome = runStream(bytes)
        guard case .apiError(let payload) = outcome.error?.kind else {
            Issue.record("expected an API error, got \(String(describing: outcome.error))")
            return
        }
        #expect(payload == APIErrorEvent(type: "overloaded_error", message: "Overloaded", requestID: "req_9"))
        #expect(outcome.error?.snapshot?.text == "partial answer")
    }

    @Test func streamWithoutMessageStopIsIncomplete() {
        let bytes = F.sse([F.messageStart, F.textStart(0), F.text(0, "cut")])
        let outcome = runStream(bytes)
        #expect(outcome.error?.kind == .incomplete)
        #expect(outcome.last?.text == "cut")
        #expect(outcome.last?.isComplete == false)
        #expect(runStream([]).error?.kind == .incomplete)
    }

    @Test func invalidEventJSONIsATypedError() {
        var bytes = F.sse([F.messageStart])
        bytes += Array("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\n\n".utf8)
        let outcome = runStream(bytes)
        guard case .invalidEventJSON = outcome.error?.kind else {
            Issue.record("expected invalid JSON, got \(String(describing: outcome.error))")
            return
        }
        #expect(outcome.error?.eventIndex == 1)
        #expect(outcome.error?.snapshot?.id == "msg_1")
    }

    @Test func unknownEventsBlocksAndDeltasAreKept() {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"brand_new_event","payload":[1,2,3]}"#,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"hologram","frames":[1,2.50,3e2],"note":"kept"}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"hologram_delta","frame":4}}"#,
            F.stop(0), F.textStart(1),
            #"{"type":"content_block_delta","index":1,"delta":{"type":"sparkle_delta","amount":1}}"#,
            F.text(1, "ok"), F.stop(1), F.messageDelta(), F.messageStop,
        ])
        let outcome = runStream(bytes)
        #expect(outcome.error == nil)
        guard case .unknown(let block) = outcome.last?.content.block(at: 0) else {
            Issue.record("expected an unknown block")
            return
        }
        #expect(block.type == "hologram")
        #expect(block.unknownDeltas.count == 1)
        #expect(
            outcome.last?.contentJSON().compactJSON
                == #"[{"type":"hologram","frames":[1,2.50,3e2],"note":"kept"},{"type":"text","text":"ok"}]"#)
    }

    @Test func usageOverwritesAndKeepsOmittedFields() {
        let bytes = F.sse([
            F.messageStart,
            F.messageDelta(usage: #"{"output_tokens":5,"server_tool_use":{"web_search_requests":1}}"#),
            F.messageDelta(usage: #"{"output_tokens":9}"#),
            F.messageStop,
        ])
        let usage = runStream(bytes).last?.usage
        #expect(usage?.outputTokens == 9, "totals, not increments")
        #expect(usage?.inputTokens == 10)
        #expect(usage?["server_tool_use"]?["web_search_requests"] != nil)
    }

    @Test func blockLimitIsATypedError() {
        var events = [F.messageStart]
        for i in 0..<5 { events += [F.textStart(i), F.stop(i)] }
        let outcome = runStream(F.sse(events), options: MessageAccumulatorOptions(maxBlocks: 3))
        guard case .protocolViolation(let what) = outcome.error?.kind else {
            Issue.record("expected the block limit to stop the stream")
            return
        }
        #expect(what.contains("more than 3"))
        #expect(outcome.last?.content.count == 3)
    }

    @Test func errorsAreStickyAfterTheFirstFailure() throws {
        var accumulator = MessageAccumulator()
        #expect(throws: MessageStreamError.self) { _ = try accumulator.feed(F.sse([F.textStart(0)])) }
        #expect(throws: MessageStreamError.self) { _ = try accumulator.feed(F.simple()) }
    }
}
