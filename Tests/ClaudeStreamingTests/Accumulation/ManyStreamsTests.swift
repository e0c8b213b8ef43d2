// Many streams in one process: accumulators share nothing, so thousands open
// at once, fed in any interleaving or on several threads, each end exactly
// as the same stream fed alone. (What they cost, in memory and CPU, is
// measured by the benchmark's `many` rows, not here.)

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Synchronization
import Testing
@testable import ClaudeStreaming

@Suite struct ManyStreamsTests {
    /// Stream `n`: a text block and a tool call whose deltas differ from
    /// stream to stream (escapes, non-ASCII text, lengths), ~6 KiB.
    static func stream(_ n: Int) -> [UInt8] {
        var events = [StreamFixture.messageStart, StreamFixture.textStart(0)]
        for delta in 0..<40 {
            let text = String(repeating: "w\(n % 7) ", count: 1 + (n + delta) % 9) + (delta % 3 == 0 ? #"caf\u00e9 \"q\"\n"# : "é ")
            events.append(StreamFixture.text(0, text))
        }
        events += [StreamFixture.stop(0), StreamFixture.toolStart(1)]
        events.append(StreamFixture.json(1, #"{\"n\": \#(n), \"items\": ["#))
        for item in 0..<20 { events.append(StreamFixture.json(1, #"\"item \#(item) of \#(n)\", "#)) }
        events += [StreamFixture.json(1, #"true]}"#), StreamFixture.stop(1), StreamFixture.messageDelta(), StreamFixture.messageStop]
        return StreamFixture.sse(events)
    }

    /// The final message of `bytes` fed whole, as API JSON.
    static func alone(_ bytes: [UInt8]) throws -> JSONValue {
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(bytes)
        return try accumulator.finish().messageJSON()
    }

    static func feed(_ accumulator: inout MessageAccumulator, _ bytes: [UInt8], from offset: Int, count: Int) throws {
        let end = min(bytes.count, offset + count)
        guard offset < end else { return }
        _ = try accumulator.feed(Array(bytes[offset..<end]))
    }

    /// 1,000 streams open at once, fed 1 KiB (100 of them 7 bytes) a chunk in
    /// turn: each ends as it does alone.
    @Test(arguments: [1024, 7])
    func roundRobinFeedingGivesEachStreamsOwnMessage(chunk: Int) throws {
        let count = chunk == 7 ? 100 : 1_000
        let streams = (0..<count).map(Self.stream)
        var open = (0..<count).map { _ in MessageAccumulator() }
        let longest = streams.map(\.count).max() ?? 0
        var offset = 0
        while offset < longest {
            for index in open.indices { try Self.feed(&open[index], streams[index], from: offset, count: chunk) }
            offset += chunk
        }
        for index in open.indices {
            #expect(try open[index].finish().messageJSON() == Self.alone(streams[index]), "stream \(index)")
        }
    }

    /// Two threads, each feeding streams of its own, end as one thread does.
    @Test func twoThreadsFeedingTheirOwnStreamsAgreeWithOne() throws {
        let count = 400
        let streams = (0..<count).map(Self.stream)
        let expected = try streams.map(Self.alone)
        let results = Mutex<[Int: JSONValue]>([:])
        let done = DispatchGroup()
        for half in 0..<2 {
            done.enter()
            Thread {
                for index in stride(from: half, to: count, by: 2) {
                    var accumulator = MessageAccumulator()
                    var offset = 0
                    while offset < streams[index].count {
                        try? Self.feed(&accumulator, streams[index], from: offset, count: 1024)
                        offset += 1024
                    }
                    if let message = try? accumulator.finish().messageJSON() { results.withLock { $0[index] = message } }
                }
                done.leave()
            }.start()
        }
        done.wait()
        let got = results.withLock { $0 }
        #expect(got.count == count)
        for index in 0..<count { #expect(got[index] == expected[index], "stream \(index)") }
    }
}
