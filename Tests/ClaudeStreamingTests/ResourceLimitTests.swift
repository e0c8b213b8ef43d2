// Resource limits of the accumulator: many tiny events complete in linear
// time, too many blocks and an endless tool-input string end in a typed
// `MessageStreamError` carrying the snapshot so far, and an endless event
// stops at the SSE event limit. Small limits keep the tests fast; the README's
// Robustness section states the default bounds.

import ClaudeStreaming
import ClaudeTestSupport
import IncrementalJSON
import ServerSentEvents
import Testing

@Suite struct ResourceLimitTests {
    typealias F = StreamFixture

    /// 200,000 one-character text deltas (the million of the issue, scaled
    /// so a debug build stays fast; time is linear, see the benchmarks): the
    /// message completes and holds every character.
    @Test func manyTinyEventsComplete() throws {
        let count = 200_000
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(F.sse([F.messageStart, F.textStart(0)]))
        let delta = F.sse([F.text(0, "x")])
        var batch: [UInt8] = []
        for _ in 0..<1_000 { batch += delta }
        for _ in 0..<(count / 1_000) { _ = try accumulator.feed(batch) }
        _ = try accumulator.feed(F.sse([F.stop(0), F.messageDelta(), F.messageStop]))
        let final = try accumulator.finish()
        #expect(final.text.utf8.count == count)
        #expect(accumulator.eventCount == count + 5)
    }

    /// Blocks beyond `maxBlocks` are a protocol violation with the blocks so
    /// far in the error's snapshot (a "million blocks" stream stops there).
    @Test func tooManyBlocksIsATypedError() {
        let limit = 1_000
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(maxBlocks: limit))
        var thrown: MessageStreamError?
        do throws(MessageStreamError) {
            _ = try accumulator.feed(F.sse([F.messageStart]))
            for index in 0..<1_000_000 {
                _ = try accumulator.feed(F.sse([F.textStart(index), F.text(index, "b"), F.stop(index)]))
            }
        } catch {
            thrown = error
        }
        guard let error = thrown else {
            Issue.record("a million blocks accepted")
            return
        }
        guard case .protocolViolation = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(error.snapshot?.content.count == limit)
        #expect(error.eventIndex == 1 + 3 * limit)
    }

    /// A tool input whose string never closes: `maxStringBytes` in the JSON
    /// options stops its parse with a typed error recorded on the block (the
    /// stream goes on, as for any tool input that is not JSON), so the parsed
    /// value stays within the limit. The raw `inputJSON` text keeps every
    /// byte (replay must be exact) up to `maxMessageBytes` (next test).
    @Test func neverEndingToolInputStringStopsItsParse() throws {
        var options = MessageAccumulatorOptions()
        options.json = JSONParserOptions(maxStringBytes: 10_000)
        var accumulator = MessageAccumulator(options: options)
        let piece = F.sse([F.json(0, String(repeating: "y", count: 500))])
        _ = try accumulator.feed(F.sse([F.messageStart, F.toolStart(0), F.json(0, #"{\"query\": \""#)]))
        for _ in 0..<1_000 { _ = try accumulator.feed(piece) }
        let snapshot = try #require(accumulator.snapshot)
        guard case .toolUse(let tool) = snapshot.content.first else {
            Issue.record("no tool block")
            return
        }
        let error = try #require(tool.inputError)
        #expect(error.offset == 11 + 10_000, "\(error)")
        #expect((tool.input["query"]?.stringValue?.utf8.count ?? 0) <= 10_000)
        #expect(tool.inputJSON.string.utf8.count == 11 + 500_000)
    }

    /// Deltas that never end: `maxMessageBytes` bounds what one message can
    /// accumulate, with a typed error carrying the snapshot so far.
    @Test func neverEndingDeltasStopAtTheMessageLimit() throws {
        var options = MessageAccumulatorOptions()
        options.maxMessageBytes = 100_000
        var accumulator = MessageAccumulator(options: options)
        let piece = F.sse([F.text(0, String(repeating: "z", count: 1_000))])
        _ = try accumulator.feed(F.sse([F.messageStart, F.textStart(0)]))
        var failure: MessageStreamError?
        for _ in 0..<1_000 where failure == nil {
            do throws(MessageStreamError) {
                _ = try accumulator.feed(piece)
            } catch {
                failure = error
            }
        }
        let error = try #require(failure)
        guard case .protocolViolation(let what) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(what.contains("exceed 100000 bytes"))
        #expect(error.snapshot?.text.utf8.count == 100_000, "every delta before the limit is kept")
        #expect(error.eventIndex == 2 + 100)
    }

    /// An event made of endless `data:` lines stops at the SSE event limit,
    /// reported as a framing error.
    @Test func endlessEventIsAFramingError() {
        var options = MessageAccumulatorOptions()
        options.sseLimits = SSELimits(maxLineBytes: 1_024, maxEventBytes: 64 << 10)
        var accumulator = MessageAccumulator(options: options)
        let line = Array(("data: " + String(repeating: "z", count: 1_000) + "\n").utf8)
        var fed = 0
        var thrown: MessageStreamError?
        do throws(MessageStreamError) {
            _ = try accumulator.feed(F.sse([F.messageStart]))
            for _ in 0..<1_000_000 {
                _ = try accumulator.feed(line)
                fed += line.count
            }
        } catch {
            thrown = error
        }
        guard case .framing = thrown?.kind else {
            Issue.record("\(thrown.map { "\($0)" } ?? "no error")")
            return
        }
        #expect(fed <= 64 << 10)
        #expect(thrown?.snapshot != nil)
    }
}
