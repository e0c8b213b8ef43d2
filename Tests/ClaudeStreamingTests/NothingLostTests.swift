// Nothing lost: for every corpus recording cut at many byte offsets, the
// snapshot the error (or the finished message) carries equals the snapshot
// obtained by feeding only the events that completed before the cut, framed
// anew. So every event that arrived before a failure is in the snapshot.

import ClaudeStreaming
import ClaudeTestSupport
import ServerSentEvents
import Testing

@Suite struct NothingLostTests {
    /// What a stream gave at its end: the message JSON of every completed
    /// message and of the current one, and whether it finished.
    struct Ending: Equatable {
        var completed: [String]
        var current: String?
        var finished: Bool
    }

    static func ending(_ bytes: ArraySlice<UInt8>) -> Ending {
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(allowsSequentialMessages: true))
        do throws(MessageStreamError) {
            _ = try accumulator.feed(Array(bytes))
            let final = try accumulator.finish()
            return Ending(
                completed: accumulator.completedMessages.map { $0.messageJSON().compactJSON },
                current: final.messageJSON().compactJSON, finished: true)
        } catch {
            return Ending(
                completed: error.completedMessages.map { $0.messageJSON().compactJSON },
                current: error.snapshot?.messageJSON().compactJSON, finished: false)
        }
    }

    /// `event: TYPE` / `data: LINE` framing of dispatched events.
    static func framed(_ events: ArraySlice<ServerSentEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            if let type = event.eventType { bytes += Array("event: \(type)\n".utf8) }
            for line in event.data.split(separator: 0x0A, omittingEmptySubsequences: false) {
                bytes += Array("data: ".utf8) + line + [0x0A]
            }
            bytes += [0x0A]
        }
        return bytes
    }

    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"))
    func everyEventBeforeACutIsInTheSnapshot() throws {
        let names = Corpus.recordingNames()
        #expect(names.count > 10)
        var cuts = 0
        for name in names {
            let stream = try Corpus.bytes(of: name)
            var parser = SSEParser()
            let events = try parser.feed(stream)
            // Evenly spaced cuts plus the bytes around a few dispatches.
            var offsets = Set((0...16).map { stream.count * $0 / 16 })
            for event in events.prefix(6) + events.suffix(3) {
                offsets.formUnion([event.streamOffset, event.streamOffset + 1])
            }
            for cut in offsets.sorted() where cut <= stream.count {
                let before = events.prefix { $0.streamOffset < cut }
                let reference = Self.ending(Self.framed(before)[...])
                let actual = Self.ending(stream[..<cut])
                #expect(actual.completed == reference.completed, "\(name) cut at \(cut): completed messages differ")
                #expect(actual.current == reference.current, "\(name) cut at \(cut): snapshot differs")
                cuts += 1
            }
        }
        #expect(cuts > 100)
    }

    /// The same for a fault in the middle: an `error` event after some text.
    @Test func errorEventKeepsWhatCameBefore() {
        typealias F = StreamFixture
        let stream = F.sse([
            F.messageStart, F.textStart(0), F.text(0, "kept"),
            #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            F.text(0, " lost"),
        ])
        let ending = Self.ending(stream[...])
        #expect(!ending.finished)
        #expect(ending.current?.contains(#""text":"kept""#) == true)
        #expect(ending.current?.contains("lost") == false)
    }
}
