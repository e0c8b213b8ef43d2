// Replays the json fuzzer's seeds and regressions through the same property
// the fuzzer checks (Fuzz/FuzzProperties/JSONProperties.swift).

import Foundation
import FuzzProperties
import Testing

@Suite struct FuzzCorpusReplayTests {
    @Test func seedsAndRegressionsHoldTheProperty() throws {
        let inputs = FuzzCorpus.inputs("json")
        #expect(inputs.count >= 12)
        for input in inputs {
            let failure = try FuzzCorpus.failure("json", input, of: JSONFuzzProperty.check)
            #expect(failure == nil, "\(input): \(failure ?? "")")
        }
    }

    /// The property itself must be able to fail: a document Foundation
    /// accepts and the parser rejects (outside the documented differences)
    /// would be reported. Here, checked through the documented lenient case.
    @Test func propertyKnowsFoundationsLeniency() {
        let trailingComma = Array("[1,]".utf8)
        let lenient = trailingComma.withUnsafeBytes { JSONFuzzProperty.foundationIsLenient($0) }
        #expect(lenient)
        let plain = Array("[1]".utf8)
        #expect(!plain.withUnsafeBytes { JSONFuzzProperty.foundationIsLenient($0) })
    }

    @Test func fuzzPropertyOnRandomInputs() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array(#"{}[]:,"\ u0123456789abcdefDE.-+eE truefalsnl"#.utf8) + [0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x0A]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &rng)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let failure = bytes.withUnsafeBytes { JSONFuzzProperty.check($0) }
            #expect(failure == nil, "\(bytes): \(failure ?? "")")
        }
    }
}
