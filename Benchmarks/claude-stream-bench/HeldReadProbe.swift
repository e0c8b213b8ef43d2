// `--memory-probe held-read KIND BYTES`: what reading a kept snapshot's
// tool input costs. Accumulates KIND (`tool`, `tool16`, `mixed`) keeping
// every snapshot, as the `every snapshot held` memory probe does, then
// reads the input of the last tool call of every 97th kept snapshot, and
// of the newest, as a caller reading its history would. The parser shares
// one checkpoint among the partial values of a span of input and replays
// each when it is read (IncrementalJSON's ParseCheckpoint.swift), so this
// is the price of holding them at a few bytes each. Prints `reads
// mean-microseconds max-microseconds newest-microseconds` (thread CPU time).

import ClaudeStreaming
import Foundation
import IncrementalJSON

/// The `held-read` probe (file comment).
enum HeldReadProbe {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let bytes = Int(arguments[1]), bytes > 0,
            let stream = generate(probeKind: arguments[0], bytes: bytes)
        else { return 64 }
        var held: [MessageSnapshot] = []
        held.reserveCapacity(stream.events)
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(allowsSequentialMessages: true))
        stream.bytes.withUnsafeBytes { raw in
            do throws(MessageStreamError) {
                try accumulator.feed(raw) { held.append($0) }
            } catch {
                return
            }
        }
        var times: [Double] = []
        for index in stride(from: 0, to: held.count, by: 97) {
            times.append(CPUClock.thread { blackHole(lastToolInput(held[index])) })
        }
        let newest = held.last.map { snapshot in CPUClock.thread { blackHole(lastToolInput(snapshot)) } } ?? 0
        let mean = times.reduce(0, +) / Double(max(1, times.count))
        let microseconds = [mean, times.max() ?? 0, newest].map { String(format: "%.2f", $0 * 1e6) }
        print("\(times.count) " + microseconds.joined(separator: " "))
        return 0
    }

    /// The input of the snapshot's last tool call, as a count of its
    /// top-level members' children (so that the value is read, not only made).
    static func lastToolInput(_ snapshot: MessageSnapshot) -> Int {
        for block in snapshot.content.reversed() {
            if case .toolUse(let call) = block { return call.input["records"]?.arrayValue?.count ?? 0 }
        }
        return 0
    }
}
