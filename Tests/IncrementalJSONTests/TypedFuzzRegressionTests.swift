// Replays the typed fuzz target's seeds and every input that ever failed it
// (Fuzz/typed) through the property the fuzzer checks
// (Fuzz/FuzzProperties/TypedProperties.swift), without libFuzzer.

import Foundation
import FuzzProperties
import IncrementalJSON
import Testing

@Suite struct TypedFuzzRegressionTests {
    @Test func corpusIsPresent() {
        #expect(FuzzCorpus.seeds("typed").count >= 5)
    }

    @Test(arguments: FuzzCorpus.inputs("typed"))
    func propertyHolds(input: String) throws {
        let failure = try FuzzCorpus.failure("typed", input, of: TypedFuzzProperty.check)
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    /// The full seed really is a complete value, so the "complete iff full"
    /// comparison is exercised on its positive side, at every chunk size.
    @Test func fullSeedDecodesCompletely() throws {
        let data = try FuzzCorpus.bytes("typed", "seeds/full_trip")
        let document = Array(data.dropFirst(5))
        let value = try JSONValue.parse(document)
        #expect(throws: Never.self) { try JSONValueDecoder(requireComplete: true).decode(FuzzTrip.self, from: value) }
        for size in 1...9 {
            let failure = document.withUnsafeBytes {
                TypedFuzzProperty.compare(document: $0, sizes: [size], options: JSONParserOptions())
            }
            #expect(failure == nil, "size \(size): \(failure ?? "")")
        }
    }

    /// A missing field makes the complete type fail; the property still holds
    /// (the partial type is not full), and the seeds cover it.
    @Test func missingFieldIsNotComplete() throws {
        let value = try JSONValue.parse(#"{"destination":"Lyon","nights":2}"#)
        #expect(throws: DecodingError.self) { try JSONValueDecoder(requireComplete: true).decode(FuzzTrip.self, from: value) }
        #expect(throws: Never.self) { try JSONValueDecoder().decode(FuzzTrip.Partial.self, from: value) }
    }
}
