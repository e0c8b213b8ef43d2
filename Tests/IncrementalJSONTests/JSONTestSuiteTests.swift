// JSONTestSuite (../shared/corpus/jsontestsuite/test_parsing): every y_ file
// accepted, every n_ file rejected, every i_ file answered as the table
// below documents; each file also parsed in 1-byte and random chunks with
// an identical result (same value, or same error at the same offset).

import Foundation
import IncrementalJSON
import Testing

@Suite struct JSONTestSuiteTests {
    static let folder = "jsontestsuite/test_parsing"
    static let available = Corpus.exists(folder)

    /// Our answer for each implementation-defined (i_) file, and why.
    /// - Numbers: accepted, since the exact text is kept (too big for Double
    ///   only matters when asking for a Double, which then throws).
    /// - Lone or mismatched surrogate escapes: rejected (`loneSurrogate`),
    ///   because strings are UTF-8, which cannot hold a lone surrogate.
    /// - Invalid, overlong, truncated UTF-8, encoded surrogates, values past
    ///   U+10FFFF, Latin-1: rejected (`invalidUTF8`).
    /// - UTF-16 text and a UTF-8 BOM: rejected (input must be UTF-8 JSON; a
    ///   BOM is not JSON).
    /// - 500 nested arrays: accepted (within the default depth limit of 512).
    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": true,
        "i_structure_UTF-8_BOM_empty_object.json": false,
    ]

    static func files(_ prefix: String) -> [URL] {
        Corpus.files(folder, suffix: ".json").filter { $0.lastPathComponent.hasPrefix(prefix) }
    }

    /// The whole-input result, after checking chunked parses agree with it.
    static func outcome(_ url: URL) -> Result<JSONValue, JSONParseError> {
        let bytes = Corpus.bytes(url)
        let whole = parseWhole(bytes)
        for sizes in [chunkSizes(count: bytes.count, fixed: 1), chunkSizes(count: bytes.count, seed: 7), chunkSizes(count: bytes.count, seed: 99, maxSize: 5)] {
            let chunked = parseChunked(bytes, sizes: sizes)
            #expect("\(chunked)" == "\(whole)", "\(url.lastPathComponent) split \(sizes.prefix(8))")
        }
        return whole
    }

    @Test(.enabled(if: available)) func acceptsEveryYFile() {
        let files = Self.files("y_")
        #expect(files.count == 95)
        for url in files {
            if case .failure(let error) = Self.outcome(url) { Issue.record("\(url.lastPathComponent) rejected: \(error)") }
        }
    }

    @Test(.enabled(if: available)) func rejectsEveryNFile() {
        let files = Self.files("n_")
        #expect(files.count == 188)
        for url in files {
            if case .success(let value) = Self.outcome(url) { Issue.record("\(url.lastPathComponent) accepted as \(value.compactJSON)") }
        }
    }

    @Test(.enabled(if: available)) func answersEveryIFileAsDocumented() {
        let files = Self.files("i_")
        #expect(files.count == Self.implementationDefined.count)
        for url in files {
            let name = url.lastPathComponent
            guard let expected = Self.implementationDefined[name] else {
                Issue.record("undocumented i_ file \(name)")
                continue
            }
            let accepted = (try? Self.outcome(url).get()) != nil
            #expect(accepted == expected, "\(name)")
        }
    }

    /// A valid document re-encodes to compact JSON that parses to the same value.
    @Test(.enabled(if: available)) func compactEncodingRoundTrips() throws {
        for url in Self.files("y_") {
            let value = try JSONValue.parse(Corpus.bytes(url))
            #expect(try JSONValue.parse(value.compactJSON) == value, "\(url.lastPathComponent)")
        }
    }
}
