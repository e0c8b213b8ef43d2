// Fuzz property for the incremental JSON parser.
//
// Input layout: byte 0 picks the chunking and options, bytes 1...4 are chunk
// sizes used in a cycle; the rest is the document. Short inputs are used
// whole, in 1-byte chunks.
//
// Checked for every input:
// - split invariance: the chunked parse gives exactly the unsplit result
//   (same value, or same error at the same offset); the unsplit one is
//   `JSONValue.parse`, which reads a whole document in one pass
//   (WholeDocumentParser.swift), so this also holds that reader to the
//   resumable parser;
// - prefix consistency: each snapshot taken at a chunk boundary is extended
//   by the next one, and the last by the final value, so each by the final
//   value (`JSONValue.divergence(toward:)`); a long input compares at most
//   32 of its snapshots (`SnapshotSample`);
// - agreement with Foundation's JSONSerialization on accept/reject and, for
//   accepted input, on the value (numbers compared as Double with a relative
//   tolerance; the parser keeps the exact text, Foundation does not);
// - no traps (a trap is a crash for libFuzzer).
//
// Known, intended differences from JSONSerialization on Linux (verified
// against JSONTestSuite, see JSONTestSuiteTests): Foundation accepts a
// trailing comma (`[1,]`, `{"a":1,}`), a UTF-8 BOM, and UTF-16/32 input
// (it sniffs the encoding); it rejects numbers that overflow Double
// (`1e400`), which the parser accepts as exact text; and it has its own
// nesting limit. Inputs in those classes skip the accept/reject comparison.
// For values: Foundation drops U+FEFF at the start of a string or key and
// after an escape (it decodes the runs between escapes separately; found by
// this fuzzer), which the parser keeps; comparisons ignore U+FEFF.

import Foundation
import IncrementalJSON

public enum JSONFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        let header = 5
        guard input.count > header else { return compare(document: input, sizes: [1], options: JSONParserOptions()) }
        let selector = input[0]
        var options = JSONParserOptions()
        if selector & 1 == 1 { options.partialStrings = .hidden }
        if selector & 6 == 6 { options.maxDepth = Int(selector >> 3) + 1 }
        let sizes = (1...4).map { Int(input[$0]) % 17 + 1 }
        return compare(document: UnsafeRawBufferPointer(rebasing: input[header...]), sizes: sizes, options: options)
    }

    /// The properties for one document, cut into `sizes` (cycled).
    public static func compare(document: UnsafeRawBufferPointer, sizes: [Int], options: JSONParserOptions) -> String? {
        let whole = Result { () throws(JSONParseError) in try JSONValue.parse(document, options: options) }
        var parser = IncrementalJSONParser(options: options)
        var snapshots: [JSONValue] = []
        var start = 0
        var turn = 0
        var chunked: Result<JSONValue, JSONParseError>? = nil
        let sample = SnapshotSample(count: document.count, sizes: sizes)
        while start < document.count {
            let end = min(document.count, start + max(1, sizes[turn % sizes.count]))
            turn += 1
            do {
                try parser.feed(UnsafeRawBufferPointer(rebasing: document[start..<end]))
            } catch {
                chunked = .failure(error)
                break
            }
            if sample.keeps(turn: turn - 1, isLast: end == document.count), let snapshot = parser.value {
                snapshots.append(snapshot)
            }
            start = end
        }
        if chunked == nil { chunked = Result { () throws(JSONParseError) in try parser.finish() } }
        guard let chunked else { return "no outcome" }
        switch (whole, chunked) {
        case (.success(let a), .success(let b)):
            if a != b { return "split changed the value: \(a.compactJSON) vs \(b.compactJSON)" }
        case (.failure(let a), .failure(let b)):
            if a != b { return "split changed the error: \(a) vs \(b)" }
        default:
            return "split changed the outcome: \(whole) vs \(chunked)"
        }
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
            if let problem = earlier.divergence(toward: later) { return "snapshot not extended by the next: \(problem)" }
        }
        // "Extends" is transitive (equal complete nodes, growing string
        // prefixes, arrays and objects that only gain children), so the
        // last snapshot extended by the final value means every one is: a
        // check of each against the final value cost half the campaign's
        // time and could find nothing more.
        if case .success(let final) = whole, let last = snapshots.last {
            if let problem = last.divergence(toward: final) { return "snapshot not extended by the final value: \(problem)" }
        }
        if options == JSONParserOptions() || options.partialStrings == .hidden && options.maxDepth == 512 {
            return compareWithFoundation(document, whole)
        }
        return nil
    }

    // MARK: Foundation comparison

    static func compareWithFoundation(_ document: UnsafeRawBufferPointer, _ ours: Result<JSONValue, JSONParseError>) -> String? {
        let data = Data(document)
        let theirs = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        switch (ours, theirs) {
        case (.success(let value), let object?):
            return sameValue(value, object, path: "$")
        case (.failure(let error), _?):
            if foundationIsLenient(document) { return nil }
            return "JSONSerialization accepts what the parser rejects (\(error))"
        case (.success(let value), nil):
            if exceedsFoundation(value, depth: 0) { return nil }
            return "JSONSerialization rejects what the parser accepts: \(value.compactJSON)"
        case (.failure, nil):
            return nil
        }
    }

    /// Inputs where Foundation deliberately accepts more (see the header).
    public static func foundationIsLenient(_ document: UnsafeRawBufferPointer) -> Bool {
        if document.contains(0) || document.starts(with: [0xEF, 0xBB, 0xBF]) || document.starts(with: [0xFE, 0xFF])
            || document.starts(with: [0xFF, 0xFE])
        {
            return true
        }
        // A comma followed (after whitespace) by a closing bracket.
        var afterComma = false
        for byte in document {
            switch byte {
            case UInt8(ascii: ","): afterComma = true
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
            default: afterComma = false
            }
        }
        return false
    }

    /// Values Foundation cannot represent: Double overflow, deep nesting.
    static func exceedsFoundation(_ value: JSONValue, depth: Int) -> Bool {
        if depth > 400 { return true }
        switch value.kind {
        case .number(let number): return (try? number.double()) == nil
        case .array(let array): return array.contains { exceedsFoundation($0, depth: depth + 1) }
        case .object(let object): return object.entries.contains { exceedsFoundation($0.value, depth: depth + 1) }
        default: return false
        }
    }

    static func withoutFEFF(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.filter { $0 != "\u{FEFF}" })
        return String(scalars)
    }

    static func sameValue(_ value: JSONValue, _ object: Any, path: String) -> String? {
        let mismatch = "\(path): parser has \(value.compactJSON), JSONSerialization has \(object)"
        switch value.kind {
        case .null:
            return object is NSNull ? nil : mismatch
        case .bool(let flag):
            return (object as? NSNumber)?.boolValue == flag ? nil : mismatch
        case .number(let number):
            guard let theirs = (object as? NSNumber)?.doubleValue, let ours = try? number.double() else { return mismatch }
            let scale = max(abs(ours), abs(theirs), Double.leastNormalMagnitude)
            return abs(ours - theirs) / scale <= 1e-9 || ours == theirs ? nil : mismatch
        case .string(let text):
            guard let theirs = object as? String else { return mismatch }
            return withoutFEFF(theirs) == withoutFEFF(text.string) ? nil : mismatch
        case .array(let array):
            guard let theirs = object as? [Any], theirs.count == array.count else { return mismatch }
            for (index, element) in array.enumerated() {
                if let problem = sameValue(element, theirs[index], path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let members):
            guard let dictionary = object as? [String: Any] else { return mismatch }
            var theirs: [String: Any] = [:]
            for (key, value) in dictionary { theirs[withoutFEFF(key)] = value }
            // Keys that differ only by U+FEFF collide once Foundation drops
            // it, and which of them Foundation keeps is its own business:
            // any of the colliding values may match.
            var ours: [String: [JSONValue]] = [:]
            for (key, value) in members.entries { ours[withoutFEFF(key), default: []].append(value) }
            guard Set(ours.keys) == Set(theirs.keys) else { return mismatch }
            for (key, candidates) in ours {
                guard let other = theirs[key] else { return mismatch }
                let problems = candidates.map { sameValue($0, other, path: "\(path).\(key)") }
                if let last = problems.last, let problem = last, !problems.contains(where: { $0 == nil }) {
                    return problem
                }
            }
            return nil
        }
    }
}
