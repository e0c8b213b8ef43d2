// Fuzz property for the SSE parser: arbitrary bytes, cut into chunks whose
// sizes come from the input itself, must give exactly what the unsplit input
// gives (events, offsets, error, bytes discarded), and nothing may trap.
//
// Input layout: byte 0 picks the limits (small ones so the limit paths are
// reached), bytes 1...4 are chunk sizes used in a cycle; the rest is the
// stream. Short inputs are used whole as the stream with default settings.

import ServerSentEvents

public enum SSEFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        let header = 5
        guard input.count > header else {
            return compare(stream: input, sizes: [1], limits: SSELimits())
        }
        let selector = input[0]
        let limits =
            selector & 1 == 0
            ? SSELimits()
            : SSELimits(maxLineBytes: Int(selector >> 1) % 48, maxEventBytes: Int(selector >> 3) % 64)
        let sizes = (1...4).map { Int(input[$0]) % 33 + 1 }
        return compare(stream: UnsafeRawBufferPointer(rebasing: input[header...]), sizes: sizes, limits: limits)
    }

    private struct Outcome: Equatable {
        var events: [ServerSentEvent] = []
        var error: SSEError? = nil
        var discarded = 0
        var lastEventID = ""
    }

    private static func run(_ stream: UnsafeRawBufferPointer, sizes: [Int], limits: SSELimits) -> Outcome {
        var parser = SSEParser(limits: limits)
        var outcome = Outcome()
        var start = 0
        var turn = 0
        while start < stream.count {
            let end = min(stream.count, start + sizes[turn % sizes.count])
            turn += 1
            do throws(SSEError) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: stream[start..<end])) { outcome.events.append($0.makeEvent()) }
            } catch {
                outcome.error = error
                return outcome
            }
            start = end
        }
        outcome.discarded = parser.finish()
        outcome.lastEventID = parser.lastEventID
        return outcome
    }

    private static func compare(stream: UnsafeRawBufferPointer, sizes: [Int], limits: SSELimits) -> String? {
        let whole = run(stream, sizes: [max(1, stream.count)], limits: limits)
        let split = run(stream, sizes: sizes, limits: limits)
        if whole != split {
            return "chunking \(sizes) changed the outcome: whole \(whole) vs split \(split)"
        }
        var previousOffset = -1
        for event in whole.events {
            if event.data.count > limits.maxEventBytes { return "event of \(event.data.count) bytes passed limit \(limits.maxEventBytes)" }
            if event.streamOffset <= previousOffset || event.streamOffset >= stream.count {
                return "event offset \(event.streamOffset) out of order (previous \(previousOffset), stream \(stream.count))"
            }
            previousOffset = event.streamOffset
        }
        if let error = whole.error, error.offset < 0 || error.offset > stream.count {
            return "error offset \(error.offset) outside the stream of \(stream.count) bytes"
        }
        if whole.discarded < 0 || whole.discarded > stream.count { return "discarded \(whole.discarded) of \(stream.count) bytes" }
        return nil
    }
}
