// Replays the accumulator fuzz target's seeds and every input that ever
// failed it (Fuzz/accumulator/regressions) through the same property the
// fuzzer checks, so a fixed bug stays fixed without running the fuzzer.

import Foundation
import FuzzProperties
import Testing

@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/accumulator")

    static func inputs() -> [String] {
        ["seeds", "regressions"].flatMap { sub -> [String] in
            let dir = folder.appendingPathComponent(sub)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.sorted().map { "\(sub)/\($0)" }
        }
    }

    @Test func corpusIsPresent() {
        #expect(Self.inputs().filter { $0.hasPrefix("seeds/") }.count >= 5)
    }

    @Test(arguments: inputs())
    func propertyHolds(input: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(input))
        let failure = data.withUnsafeBytes { AccumulatorFuzzProperty.check($0) }
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
