// Replays the fuzz target's seeds and regressions through the same property
// the fuzzer checks, so a fixed crash stays fixed without running libFuzzer.

import Foundation
import FuzzProperties
import Testing

private let fuzzFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/sse")

@Suite struct FuzzCorpusReplayTests {
    @Test(arguments: ["seeds", "regressions"])
    func everyFileHoldsTheProperty(folder: String) throws {
        let directory = fuzzFolder.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!files.isEmpty, "Fuzz/sse/\(folder) should not be empty")
        for file in files {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
            let failure = bytes.withUnsafeBytes { SSEFuzzProperty.check($0) }
            #expect(failure == nil, "\(folder)/\(file): \(failure ?? "")")
        }
    }

    @Test func wellFormedInputWithHeaderPasses() {
        // Header bytes pick default limits and chunk sizes 2,3,4,5.
        let input = Array("\u{0}\u{1}\u{2}\u{3}\u{4}data: a\n\ndata: b\r\n\r\n".utf8)
        #expect(input.withUnsafeBytes { SSEFuzzProperty.check($0) } == nil)
    }
}
