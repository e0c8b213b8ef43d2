// Replays the replay fuzz target's seeds and every input that ever failed it
// (Fuzz/replay) through the property the fuzzer checks
// (Fuzz/FuzzProperties/ReplayProperties.swift), and runs every corpus
// recording through it.

import ClaudeStreaming
import CommandLineDisplay
import Foundation
import FuzzProperties
import Testing

@Suite struct ReplayFuzzRegressionTests {
    @Test func corpusIsPresent() {
        #expect(FuzzCorpus.seeds("replay").count >= 5)
    }

    @Test(arguments: FuzzCorpus.inputs("replay"))
    func propertyHolds(input: String) throws {
        let failure = try FuzzCorpus.failure("replay", input) { ReplayFuzzProperty.check($0) }
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    @Test(.enabled(if: Corpus.root != nil, "../shared/corpus is absent"))
    func recordingsReplay() throws {
        let names = Corpus.recordingNames()
        #expect(names.count > 10)
        for name in names {
            let stream = try Corpus.bytes(of: name)
            for selector: UInt8 in [0, 1, 2] {
                let failure = ([selector] + stream).withUnsafeBytes { ReplayFuzzProperty.check($0, everySnapshot: false) }
                #expect(failure == nil, "\(name) options \(selector): \(failure ?? "")")
            }
        }
    }

    /// Every snapshot of the demo stream, one per event, survives Codable
    /// (the fuzzer checks the ones its inputs reach; this checks them all on
    /// a realistic stream), and the final one rebuilds from its JSON.
    @Test func everyDemoSnapshotSurvivesCodable() throws {
        var accumulator = MessageAccumulator()
        var snapshots: [MessageSnapshot] = []
        var failure: MessageStreamError?
        DemoRecording.bytes.withUnsafeBytes { raw in
            do throws(MessageStreamError) { try accumulator.feed(raw) { snapshots.append($0) } } catch { failure = error }
        }
        #expect(failure == nil)
        let final = try accumulator.finish()
        #expect(snapshots.count > 10)
        #expect(snapshots.contains { !$0.isComplete })
        for (index, snapshot) in snapshots.enumerated() {
            let failure = ReplayFuzzProperty.survivesCodable(snapshot)
            #expect(failure == nil, "snapshot \(index): \(failure ?? "")")
        }
        #expect(ReplayFuzzProperty.rebuildsFromJSON(final) == nil)
    }
}
