// Fuzz property for the message accumulator: arbitrary bytes as a stream.
// Whatever they are, it must not trap; the outcome (completed messages,
// the last snapshot, the error with its event number and offset) must not
// depend on how the bytes are split; it must not depend on whether the
// usual blocks, deltas and boundary events are read in one step or every
// event goes through the SSE lines and the full JSON parser (key order,
// whitespace, escapes at window edges, unknown fields, a missing or repeated
// `type`: whatever the input holds); every hot delta the fast scanner reads
// must read the same through the full JSON parser; a caller that holds every
// snapshot changes nothing, each held snapshot shows what the same snapshot
// shows to a caller that holds none, and still shows it later (holding is
// what makes blocks share storage, StreamingBlocks.swift, and tool inputs
// replay from checkpoints, ParseCheckpoint.swift); and a final message must encode,
// rebuild and encode again to the same JSON.
//
// Input layout: byte 0 picks options (sequential messages, structured output,
// small limits), bytes 1...4 are chunk sizes used in a cycle; the rest is the
// stream. Short inputs are used whole with default options.

@_spi(FuzzTesting) import ClaudeStreaming
import IncrementalJSON
import ServerSentEvents

public enum AccumulatorFuzzProperty {
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        let header = 5
        guard input.count > header else { return compare(input, sizes: [1], options: MessageAccumulatorOptions()) }
        let selector = input[0]
        var options = MessageAccumulatorOptions(
            allowsSequentialMessages: selector & 1 != 0,
            structuredOutput: selector & 2 != 0 ? .allTextBlocks : .none)
        if selector & 4 != 0 {
            options.sseLimits = SSELimits(maxLineBytes: 64 + Int(selector >> 3) * 8, maxEventBytes: 256)
            options.json = JSONParserOptions(maxDepth: 4 + Int(selector >> 5))
            options.maxBlocks = 3
        }
        let sizes = (1...4).map { Int(input[$0]) % 41 + 1 }
        return compare(UnsafeRawBufferPointer(rebasing: input[header...]), sizes: sizes, options: options)
    }

    struct Outcome: Equatable {
        var messages: [String] = []
        var last: String?
        var error: String?
        var snapshots = 0
    }

    /// Feeds `stream` in chunks of `sizes`, in a cycle. With `sampling`,
    /// `seen` is a sample of the snapshots (at most about 128: reading one
    /// is O(size)) as they were handed out; with `holding` too, every
    /// snapshot is kept, and `changed` says which of the sample changed
    /// since, if one did.
    static func run(
        _ stream: UnsafeRawBufferPointer, sizes: [Int], options: MessageAccumulatorOptions, generalPathOnly: Bool = false,
        sampling: Bool = false, holding: Bool = false
    ) -> (outcome: Outcome, final: MessageSnapshot?, seen: [String], changed: String?) {
        var accumulator = generalPathOnly ? MessageAccumulator._generalPathOnly(options: options) : MessageAccumulator(options: options)
        var outcome = Outcome()
        var start = 0
        var turn = 0
        var final: MessageSnapshot?
        var held: [MessageSnapshot] = []
        var seen: [(index: Int, json: String)] = []
        let stride = max(1, stream.count / 128)
        do throws(MessageStreamError) {
            while start < stream.count {
                let end = min(stream.count, start + sizes[turn % sizes.count])
                turn += 1
                try accumulator.feed(UnsafeRawBufferPointer(rebasing: stream[start..<end])) { snapshot in
                    let index = outcome.snapshots
                    outcome.snapshots += 1
                    if sampling && index % stride == 0 { seen.append((index, snapshot.messageJSON().compactJSON)) }
                    if holding { held.append(snapshot) }
                }
                start = end
            }
            final = try accumulator.finish()
            outcome.messages = accumulator.completedMessages.map { $0.messageJSON().compactJSON }
        } catch {
            outcome.error = error.description
            outcome.messages = error.completedMessages.map { $0.messageJSON().compactJSON }
            final = error.snapshot
        }
        outcome.last = final?.messageJSON().compactJSON
        let changed = holding ? seen.first { held[$0.index].messageJSON().compactJSON != $0.json } : nil
        return (
            outcome, final, seen.map(\.json),
            changed.map { "held snapshot \($0.index) changed after it was handed out: it showed \($0.json)" }
        )
    }

    static func compare(_ stream: UnsafeRawBufferPointer, sizes: [Int], options: MessageAccumulatorOptions) -> String? {
        let (whole, final, wholeSeen, _) = run(stream, sizes: [max(1, stream.count)], options: options, sampling: true)
        let (split, _, splitSeen, changed) = run(stream, sizes: sizes, options: options, sampling: true, holding: true)
        if whole != split { return "chunking \(sizes), every snapshot held, changed the outcome:\n\(whole)\nvs\n\(split)" }
        if let changed { return changed }
        if let index = wholeSeen.indices.first(where: { $0 >= splitSeen.count || wholeSeen[$0] != splitSeen[$0] }) {
            let held = index < splitSeen.count ? splitSeen[index] : "nothing"
            return "a held snapshot showed otherwise than the same snapshot unheld:\n\(wholeSeen[index])\nvs\n\(held)"
        }
        let (general, _, _, _) = run(stream, sizes: sizes, options: options, generalPathOnly: true)
        if whole != general { return "the general path changed the outcome:\n\(whole)\nvs\n\(general)" }
        if let failure = checkHotPath(stream, limits: options.sseLimits) { return failure }
        if let final, final.isComplete {
            let json = final.messageJSON()
            let rebuilt = MessageSnapshot(messageJSON: json).messageJSON()
            if rebuilt != json { return "replay changed the message:\n\(json.compactJSON)\nvs\n\(rebuilt.compactJSON)" }
        }
        return nil
    }

    /// Every event's data through the fast delta scanner and the full parser.
    static func checkHotPath(_ stream: UnsafeRawBufferPointer, limits: SSELimits) -> String? {
        var parser = SSEParser(limits: limits)
        var failure: String?
        do throws(SSEError) {
            try parser.feed(stream) { event in
                if failure == nil { failure = MessageAccumulator._checkHotPathAgreement(event.data) }
            }
        } catch {}
        return failure
    }
}
