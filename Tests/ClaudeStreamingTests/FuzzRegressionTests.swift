// Replays the accumulator fuzz target's seeds and every input that ever
// failed it (Fuzz/accumulator/regressions) through the same property the
// fuzzer checks, so a fixed bug stays fixed without running the fuzzer.

import Foundation
import FuzzProperties
import Testing

@Suite struct FuzzRegressionTests {
    @Test func corpusIsPresent() {
        #expect(FuzzCorpus.seeds("accumulator").count >= 5)
    }

    @Test(arguments: FuzzCorpus.inputs("accumulator"))
    func propertyHolds(input: String) throws {
        let failure = try FuzzCorpus.failure("accumulator", input, of: AccumulatorFuzzProperty.check)
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    /// The demo recording and the corpus recordings, whole, under the property.
    @Test func recordingsSatisfyTheProperty() throws {
        var streams: [[UInt8]] = []
        for name in Corpus.recordingNames() { streams.append(try Corpus.bytes(of: name)) }
        for (i, stream) in streams.enumerated() {
            for header: [UInt8] in [[0, 1, 2, 3, 5], [3, 7, 11, 13, 40]] {
                let failure = (header + stream).withUnsafeBytes { AccumulatorFuzzProperty.check($0) }
                #expect(failure == nil, "recording \(i): \(failure ?? "")")
            }
        }
    }
}
