// Typed partial decoding at every prefix, the complete type from the final
// value, coding paths in errors, and a recorded structured-output stream.

import Foundation
import IncrementalJSON
import Testing

@Suite struct TypedDecodingTests {
    @Test func partialTwinDecodesAtEveryPrefix() throws {
        let bytes = Array(Trip.sampleJSON.utf8)
        let decoder = JSONValueDecoder()
        var parser = IncrementalJSONParser()
        var previous: Trip.Partial? = nil
        var distinct = 0
        for byte in bytes {
            try parser.feed([byte])
            guard let snapshot = parser.value else { continue }
            let partial = try decoder.decode(Trip.Partial.self, from: snapshot)
            if let previous, previous != partial {
                distinct += 1
                // Growth only: a field once set keeps a value that extends it.
                if let old = previous.destination { #expect(partial.destination?.hasPrefix(old) == true) }
                if let old = previous.nights { #expect(partial.nights == old) }
                #expect((partial.days?.count ?? 0) >= (previous.days?.count ?? 0))
            }
            previous = partial
        }
        #expect(distinct > 50)
        let final = try parser.finish()
        var strict = JSONValueDecoder()
        strict.requireComplete = true
        let trip = try strict.decode(Trip.self, from: final)
        #expect(trip.destination == "Kyoto, Japan")
        #expect(trip.days[0].title == "Temples \u{2014} east")
        #expect(trip.days[1].budget == 80)
        #expect(trip.rating == .relaxed)
        // And it agrees with Foundation's decoder on the same bytes.
        #expect(try JSONDecoder().decode(Trip.self, from: Data(bytes)) == trip)
        #expect(Trip.schema.validate(final).isEmpty)
    }

    @Test func midStreamValues() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"destination": "Kyo"#)
        var partial = try JSONValueDecoder().decode(Trip.Partial.self, from: #require(parser.value))
        #expect(partial == Trip.Partial(destination: "Kyo"))
        try parser.feed(#"to", "nights": 3, "days": [{"title": "Tem"#)
        partial = try JSONValueDecoder().decode(Trip.Partial.self, from: #require(parser.value))
        #expect(partial.nights == 3)
        #expect(partial.days == [Trip.Partial.Day(title: "Tem")])
        // A half-arrived enum value is nil until it decodes.
        try parser.feed(#""}], "rating": "rel"#)
        #expect(try JSONValueDecoder().decode(Trip.Partial.self, from: #require(parser.value)).rating == nil)
        try parser.feed(#"axed"#)
        #expect(try JSONValueDecoder().decode(Trip.Partial.self, from: #require(parser.value)).rating == .relaxed)
        // The complete type cannot be decoded yet, and the strict decoder says so.
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Trip.self, from: #require(parser.value)) }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder(requireComplete: true).decode(Trip.Partial.self, from: #require(parser.value))
        }
    }

    @Test func errorsCarryTheCodingPath() throws {
        let value = try JSONValue.parse(#"{"destination": "x", "nights": 2.5, "travelers": [], "days": []}"#)
        do {
            _ = try JSONValueDecoder().decode(Trip.self, from: value)
            Issue.record("decoded a fractional Int")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["nights"])
        }
        let nested = try JSONValue.parse(#"{"destination": "x", "nights": 2, "travelers": [], "days": [{"title": "a", "activities": ["ok", 7], "budget": 1}]}"#)
        do {
            _ = try JSONValueDecoder().decode(Trip.self, from: nested)
            Issue.record("decoded a number as String")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(
                context.codingPath.map(\.stringValue) == ["days", "Index 0", "activities", "Index 1"].map { $0.replacingOccurrences(of: "Index ", with: "") })
        }
        do {
            _ = try JSONValueDecoder().decode(Trip.self, from: ["destination": "x"])
            Issue.record("decoded without nights")
        } catch let DecodingError.keyNotFound(key, _) {
            #expect(key.stringValue == "nights")
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: 300) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: nil) }
        #expect(try JSONValueDecoder().decode(Int?.self, from: nil) == nil)
        #expect(try JSONValueDecoder().decode([String: Int].self, from: ["a": 1, "b": 2]) == ["a": 1, "b": 2])
        #expect(try JSONValueDecoder().decode(Decimal.self, from: JSONValue.parse("0.1000000000000000000001")) == Decimal(string: "0.1000000000000000000001"))
        #expect(try JSONValueDecoder().decode(URL.self, from: "https://example.com/a") == URL(string: "https://example.com/a"))
    }

    /// vercel-ai's recorded structured output (text deltas of one JSON
    /// object): the partial type decodes after every delta and byte, and the
    /// complete type from the end.
    struct Party: Decodable {
        struct Character: Decodable {
            var name: String
            var `class`: String
            var description: String
        }
        var characters: [Character]
        struct Partial: Decodable {
            struct Character: Decodable {
                var name: String?
                var `class`: String?
                var description: String?
            }
            var characters: [Character]?
        }
    }

    static let recording = Corpus.directory("anthropic-sse/vercel-ai__anthropic-json-output-format.1.sse")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: recording.path))) func recordedStructuredOutput() throws {
        let block = try #require(streamedJSON(in: Self.recording, includeText: true).first { $0.kind == "text" })
        var parser = IncrementalJSONParser()
        var seenNames: [String] = []
        for delta in block.deltas {
            for byte in delta.utf8 {
                try parser.feed([byte])
                guard let snapshot = parser.value else { continue }
                let partial = try JSONValueDecoder().decode(Party.Partial.self, from: snapshot)
                let names = partial.characters?.compactMap(\.name) ?? []
                #expect(names.count >= seenNames.count)
                for (old, new) in zip(seenNames, names) { #expect(new.hasPrefix(old)) }
                seenNames = names
            }
        }
        let party = try JSONValueDecoder(requireComplete: true).decode(Party.self, from: parser.finish())
        #expect(party.characters.map(\.name) == ["Theron Ironheart", "Lyra Starweaver", "Rook Shadowstep"])
        #expect(party.characters.map(\.class) == ["warrior", "mage", "thief"])
    }
}
