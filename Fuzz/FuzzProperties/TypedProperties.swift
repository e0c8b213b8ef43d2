// Fuzz property for typed partial decoding (`JSONValueDecoder`).
//
// Arbitrary bytes go through `IncrementalJSONParser` in data-chosen chunks;
// after every chunk the snapshot is decoded into a nested "partial" type
// (all-optional properties, arrays of nested partial types, an enum), and the
// final value (when the bytes are one JSON text) into both the partial and
// the complete type. Checked:
//
// - no traps, whatever the bytes (a `DecodingError` is a fine outcome);
// - completeness agreement: the complete type decodes from the final value
//   (with `requireComplete`) iff the partial type decodes with every field
//   non-nil, and then both give the same values. This is the promise of the
//   partial/complete twin pattern: a caller may switch from the partial to
//   the complete type exactly when the partial one is full;
// - growth: a snapshot's partial value is extended by the final one (a
//   string only grows, an array only gains elements, a nil only becomes a
//   value), whenever both decode; a long input decodes at most 32 of its
//   snapshots (`SnapshotSample`). Values with a duplicate key are exempt
//   (the last member wins, so an earlier value may be replaced).
//
// The enum's raw values are chosen so none is a prefix of another: a
// half-arrived `"nor"` must not already read as some other case.
//
// Input layout: byte 0 picks the string policy, bytes 1...4 are chunk sizes
// used in a cycle; the rest is the document. Short inputs are used whole in
// 1-byte chunks.

import IncrementalJSON

public enum TypedFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        let header = 5
        guard input.count > header else { return compare(document: input, sizes: [1], options: JSONParserOptions()) }
        var options = JSONParserOptions()
        if input[0] & 1 == 1 { options.partialStrings = .hidden }
        let sizes = (1...4).map { Int(input[$0]) % 23 + 1 }
        return compare(document: UnsafeRawBufferPointer(rebasing: input[header...]), sizes: sizes, options: options)
    }

    /// The properties for one document cut into `sizes` (cycled).
    public static func compare(document: UnsafeRawBufferPointer, sizes: [Int], options: JSONParserOptions) -> String? {
        var parser = IncrementalJSONParser(options: options)
        var partials: [FuzzTrip.Partial] = []
        var start = 0
        var turn = 0
        let sample = SnapshotSample(count: document.count, sizes: sizes)
        while start < document.count {
            let end = min(document.count, start + max(1, sizes[turn % sizes.count]))
            turn += 1
            do throws(JSONParseError) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: document[start..<end]))
            } catch {
                return nil  // invalid JSON: the snapshots so far decoded without trapping
            }
            if sample.keeps(turn: turn - 1, isLast: end == document.count), let snapshot = parser.value,
                let partial = try? JSONValueDecoder().decode(FuzzTrip.Partial.self, from: snapshot)
            {
                partials.append(partial)
            }
            start = end
        }
        let final: JSONValue
        do throws(JSONParseError) { final = try parser.finish() } catch { return nil }

        let complete = try? JSONValueDecoder(requireComplete: true).decode(FuzzTrip.self, from: final)
        let partial = try? JSONValueDecoder().decode(FuzzTrip.Partial.self, from: final)
        if complete != partial?.completed {
            return "complete type \(complete.map { "\($0)" } ?? "fails") but partial type gives \(partial.map { "\($0)" } ?? "an error")"
                + " for \(final.compactJSON)"
        }
        guard let partial, !hasDuplicateKeys(final) else { return nil }
        for earlier in partials where !earlier.isExtended(by: partial) {
            return "snapshot \(earlier) is not extended by the final \(partial) (\(final.compactJSON))"
        }
        return nil
    }

    static func hasDuplicateKeys(_ value: JSONValue) -> Bool {
        switch value.kind {
        case .object(let object):
            return Set(object.keys).count != object.count || object.entries.contains { hasDuplicateKeys($0.value) }
        case .array(let array):
            return array.contains { hasDuplicateKeys($0) }
        default:
            return false
        }
    }
}

// MARK: The decoded types

/// A complete value: every property required.
public struct FuzzTrip: Decodable, Equatable, Sendable {
    public enum Heading: String, Decodable, Sendable { case north, south, east, west }

    public struct Stop: Decodable, Equatable, Sendable {
        var name: String
        var minutes: UInt8
        var heading: Heading
    }

    public struct Day: Decodable, Equatable, Sendable {
        var title: String
        var stops: [Stop]
    }

    var destination: String
    var nights: Int
    var rating: Double
    var booked: Bool
    var heading: Heading
    var tags: [String]
    var days: [Day]

    /// The partial twin: every property optional, nested types partial too.
    public struct Partial: Decodable, Sendable {
        public struct Stop: Decodable, Sendable {
            var name: String?
            var minutes: UInt8?
            var heading: Heading?

            var completed: FuzzTrip.Stop? {
                guard let name, let minutes, let heading else { return nil }
                return FuzzTrip.Stop(name: name, minutes: minutes, heading: heading)
            }

            func isExtended(by later: Stop) -> Bool {
                grows(name, later.name) && same(minutes, later.minutes) && same(heading, later.heading)
            }
        }

        public struct Day: Decodable, Sendable {
            var title: String?
            var stops: [Stop]?

            var completed: FuzzTrip.Day? {
                guard let title, let stops = stops.flatMap(allCompleted(\.completed)) else { return nil }
                return FuzzTrip.Day(title: title, stops: stops)
            }

            func isExtended(by later: Day) -> Bool {
                grows(title, later.title) && arrayGrows(stops, later.stops) { $0.isExtended(by: $1) }
            }
        }

        var destination: String?
        var nights: Int?
        var rating: Double?
        var booked: Bool?
        var heading: Heading?
        var tags: [String]?
        var days: [Day]?

        /// The complete value when every field (recursively) is present.
        var completed: FuzzTrip? {
            guard let destination, let nights, let rating, let booked, let heading, let tags,
                let days = days.flatMap(allCompleted(\.completed))
            else { return nil }
            return FuzzTrip(
                destination: destination, nights: nights, rating: rating, booked: booked,
                heading: heading, tags: tags, days: days)
        }

        func isExtended(by later: Partial) -> Bool {
            grows(destination, later.destination) && same(nights, later.nights) && same(rating, later.rating)
                && same(booked, later.booked) && same(heading, later.heading)
                && arrayGrows(tags, later.tags) { grows($0, $1) }
                && arrayGrows(days, later.days) { $0.isExtended(by: $1) }
        }
    }
}

// MARK: Growth rules

/// nil grows into anything; a value must stay as it was.
private func same<T: Equatable>(_ earlier: T?, _ later: T?) -> Bool {
    earlier == nil || earlier == later
}

/// A string may only gain text at its end (compared as UTF-8 bytes: a
/// grapheme-based prefix test would reject `e` growing into `e` + U+0301).
private func grows(_ earlier: String?, _ later: String?) -> Bool {
    guard let earlier else { return true }
    guard let later else { return false }
    return later.utf8.starts(with: earlier.utf8)
}

/// An array may only gain elements, each earlier element extended by its successor.
private func arrayGrows<T>(_ earlier: [T]?, _ later: [T]?, _ extends: (T, T) -> Bool) -> Bool {
    guard let earlier else { return true }
    guard let later, later.count >= earlier.count else { return false }
    return zip(earlier, later).allSatisfy(extends)
}

/// All elements completed, or nil when one is not.
private func allCompleted<T, U>(_ completed: @escaping (T) -> U?) -> ([T]) -> [U]? {
    { elements in
        var result: [U] = []
        for element in elements {
            guard let done = completed(element) else { return nil }
            result.append(done)
        }
        return result
    }
}
