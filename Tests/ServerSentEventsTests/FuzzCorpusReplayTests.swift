// Replays the fuzz target's seeds and regressions through the same property
// the fuzzer checks, so a fixed crash stays fixed without running libFuzzer.

import Foundation
import FuzzProperties
import Testing

@Suite struct FuzzCorpusReplayTests {
    @Test(arguments: ["seeds", "regressions"])
    func everyFileHoldsTheProperty(folder: String) throws {
        let inputs = FuzzCorpus.inputs("sse").filter { $0.hasPrefix(folder + "/") }
        #expect(!inputs.isEmpty, "Fuzz/sse/\(folder) should not be empty")
        for input in inputs {
            let failure = try FuzzCorpus.failure("sse", input, of: SSEFuzzProperty.check)
            #expect(failure == nil, "\(input): \(failure ?? "")")
        }
    }

    @Test func wellFormedInputWithHeaderPasses() {
        // Header bytes pick default limits and chunk sizes 2,3,4,5.
        let input = Array("\u{0}\u{1}\u{2}\u{3}\u{4}data: a\n\ndata: b\r\n\r\n".utf8)
        #expect(input.withUnsafeBytes { SSEFuzzProperty.check($0) } == nil)
    }
}
