// Declared-once structured output, each figure beside its baseline in the
// same run:
// - deriving a schema from a Decodable type, the first time per type
//   (`JSONSchema(for:)` runs init(from:) twice per nested type), beside
//   rendering the same schema written by hand; and a derived schema's later
//   uses (a cached lookup) beside the same render. Each timed derivation gets
//   a type never seen before: `Answer<Marker>` over a marker built from 20
//   binary digits, so the cache cannot answer.
// - decoding the partial value at every snapshot of a streamed answer
//   (20-byte deltas, the snapshots taken beforehand) and reading every field,
//   through the default `PartialValue<Cast>` beside a hand-written all-
//   optional `Cast.Partial` through JSONValueDecoder. Target: within 1.5x.

import IncrementalJSON

enum StructuredBenchmarks {
    static let suite = BenchmarkSuite(name: "structured") { context in
        derivation(context) + partialDecoding(context)
    }

    // MARK: Derivation

    static func derivation(_ context: BenchmarkContext) -> [BenchmarkResult] {
        let handWritten = Cast.handWrittenSchema
        let rounds = 50
        let render = context.measure { for _ in 0..<rounds { blackHole(handWritten.jsonValue) } }
        var counter = 0
        let first = context.measure {
            for _ in 0..<rounds {
                counter += 1
                blackHole(deriveFresh(bits: counter, depth: 20))
            }
        }
        // What of that is the runtime's first protocol-conformance lookups for
        // a type it has never seen (the casts derivation makes of each type),
        // not the recording itself.
        let lookups = context.measure {
            for _ in 0..<rounds {
                counter += 1
                blackHole(conformanceLookupsOfFreshType(bits: counter, depth: 20))
            }
        }
        _ = try? JSONSchema(for: Cast.self)
        let cached = context.measure { for _ in 0..<rounds { blackHole(try? JSONSchema(for: Cast.self).jsonValue) } }
        let derivedMatches = (try? JSONSchema(for: Cast.self)) == handWritten
        return [
            BenchmarkResult(
                suite: "structured", name: "derive schema, first use (x\(rounds))", bytes: 0, seconds: first,
                baselineName: "render hand-written schema", baselineSeconds: render,
                target: "once per type: \(BenchmarkReport.fixed(first / Double(rounds) * 1e6, 1)) us each, equals hand-written: \(derivedMatches)",
                targetMet: derivedMatches),
            BenchmarkResult(
                suite: "structured", name: "fresh type, conformance lookups alone (x\(rounds))", bytes: 0, seconds: lookups,
                baselineName: "derive schema, first use", baselineSeconds: first),
            BenchmarkResult(
                suite: "structured", name: "derived schema, later uses (x\(rounds))", bytes: 0, seconds: cached,
                baselineName: "render hand-written schema", baselineSeconds: render),
        ]
    }

    /// Derives `Answer<M>` for a marker `M` spelling `bits` in `depth` binary
    /// digits: a type whose schema is not cached yet.
    static func deriveFresh(bits: Int, depth: Int) -> Int {
        func descend<M>(_ marker: M.Type, _ remaining: Int) -> Int {
            if remaining == 0 { return (try? JSONSchema(for: Answer<M>.self)).map { _ in 1 } ?? 0 }
            return (bits >> (remaining - 1)) & 1 == 0 ? descend(Zero<M>.self, remaining - 1) : descend(One<M>.self, remaining - 1)
        }
        return descend(Never.self, depth)
    }

    /// The casts derivation makes of `Answer<M>`, for a fresh `M`, and nothing else.
    static func conformanceLookupsOfFreshType(bits: Int, depth: Int) -> Int {
        func descend<M>(_ marker: M.Type, _ remaining: Int) -> Int {
            if remaining == 0 {
                let type: Any.Type = Answer<M>.self
                var found = 0
                if type is any JSONSchemaDeclaring.Type { found += 1 }
                if type is any JSONSchemaAnnotated.Type { found += 1 }
                if type is any (RawRepresentable & CaseIterable).Type { found += 1 }
                if type is any RawRepresentable.Type { found += 1 }
                if type is any (FixedWidthInteger & Decodable).Type { found += 1 }
                if type is any (BinaryFloatingPoint & Decodable).Type { found += 1 }
                if type is any Collection.Type { found += 1 }
                return found
            }
            return (bits >> (remaining - 1)) & 1 == 0 ? descend(Zero<M>.self, remaining - 1) : descend(One<M>.self, remaining - 1)
        }
        return descend(Never.self, depth)
    }

    enum Zero<Rest> {}
    enum One<Rest> {}

    /// The cast answer, generic over a marker that only makes it a new type.
    struct Answer<Marker>: Decodable {
        var characters: [Cast.Character]
        var setting: String
        var tone: Cast.Tone?
    }

    // MARK: Partial decoding per snapshot

    static func partialDecoding(_ context: BenchmarkContext) -> [BenchmarkResult] {
        let document = Cast.document(characters: context.quick ? 6 : 24)
        let snapshots = Cast.snapshots(of: document, delta: 20)
        let viaDefault = context.measure { blackHole(readEveryField(snapshots)) }
        let viaHandWritten = context.measure { blackHole(readEveryFieldHandWritten(snapshots)) }
        let decodeOnly = context.measure {
            var seen = 0
            for value in snapshots { if (try? JSONValueDecoder().decode(PartialValue<Cast>.self, from: value)) != nil { seen += 1 } }
            blackHole(seen)
        }
        let checksumsAgree = readEveryField(snapshots) == readEveryFieldHandWritten(snapshots)
        let factor = viaDefault / viaHandWritten
        return [
            BenchmarkResult(
                suite: "structured", name: "PartialValue per snapshot, every field (\(snapshots.count) snapshots)", bytes: document.count,
                seconds: viaDefault, baselineName: "hand-written Partial via JSONValueDecoder", baselineSeconds: viaHandWritten,
                target: "<= 1.5x hand-written (measured \(BenchmarkReport.fixed(factor, 2))x, same fields: \(checksumsAgree))",
                targetMet: factor <= 1.5 && checksumsAgree),
            BenchmarkResult(
                suite: "structured", name: "PartialValue per snapshot, decode only", bytes: document.count, seconds: decodeOnly,
                baselineName: "hand-written Partial via JSONValueDecoder", baselineSeconds: viaHandWritten),
        ]
    }

    /// Every field of every snapshot through `PartialValue<Cast>`; a checksum of what was read.
    @inline(never)
    static func readEveryField(_ snapshots: [JSONValue]) -> Int {
        var sum = 0
        for value in snapshots {
            guard let cast = try? JSONValueDecoder().decode(PartialValue<Cast>.self, from: value) else { continue }
            sum &+= cast[Cast.CodingKeys.setting, as: String.self]?.utf8.count ?? 0
            sum &+= cast[Cast.CodingKeys.tone, as: Cast.Tone.self] == nil ? 0 : 1
            for character in cast[Cast.CodingKeys.characters, as: [PartialValue<Cast.Character>].self] ?? [] {
                sum &+= character[Cast.Character.CodingKeys.name, as: String.self]?.utf8.count ?? 0
                sum &+= character[Cast.Character.CodingKeys.role, as: Cast.Role.self] == nil ? 0 : 1
                sum &+= character[Cast.Character.CodingKeys.level, as: Int.self] ?? 0
                sum &+= character[Cast.Character.CodingKeys.description, as: String.self]?.utf8.count ?? 0
            }
        }
        return sum
    }

    /// The same fields through the hand-written twin.
    @inline(never)
    static func readEveryFieldHandWritten(_ snapshots: [JSONValue]) -> Int {
        var sum = 0
        for value in snapshots {
            guard let cast = try? JSONValueDecoder().decode(Cast.Partial.self, from: value) else { continue }
            sum &+= cast.setting?.utf8.count ?? 0
            sum &+= cast.tone == nil ? 0 : 1
            for character in cast.characters ?? [] {
                sum &+= character.name?.utf8.count ?? 0
                sum &+= character.role == nil ? 0 : 1
                sum &+= character.level ?? 0
                sum &+= character.description?.utf8.count ?? 0
            }
        }
        return sum
    }
}

/// A structured answer: a cast of characters.
struct Cast: Decodable {
    var characters: [Character]
    var setting: String
    var tone: Tone?
    enum CodingKeys: String, CodingKey { case characters, setting, tone }

    enum Tone: String, Decodable, CaseIterable { case light, dark }
    enum Role: String, Decodable, CaseIterable { case warrior, mage, thief, bard }
    struct Character: Decodable {
        var name: String
        var role: Role
        var level: Int
        var description: String
        enum CodingKeys: String, CodingKey { case name, role, level, description }
    }

    /// The twin a user would otherwise write: every property optional.
    struct Partial: Decodable {
        var characters: [Character]?
        var setting: String?
        var tone: Tone?
        struct Character: Decodable {
            var name: String?
            var role: Role?
            var level: Int?
            var description: String?
        }
    }

    /// The schema a user would otherwise write.
    static let handWrittenSchema = JSONSchema.object([
        .init(
            "characters",
            .array(
                items: .object([
                    .init("name", .string()), .init("role", .string(enum: ["warrior", "mage", "thief", "bard"])),
                    .init("level", .integer()), .init("description", .string()),
                ]))),
        .init("setting", .string()),
        .init("tone", .string(enum: ["light", "dark"]), isRequired: false),
    ])

    static func document(characters: Int) -> [UInt8] {
        let roles = ["warrior", "mage", "thief", "bard"]
        let people = (0..<characters).map { index in
            #"{"name":"Character \#(index) of the long saga","role":"\#(roles[index % 4])","level":\#(index % 20 + 1),"description":"A seasoned adventurer who has crossed the northern wastes \#(index) times, carrying a map, a lantern and an old grudge against the river king."}"#
        }
        return Array((#"{"characters":["# + people.joined(separator: ",") + #"],"setting":"A drowned kingdom","tone":"dark"}"#).utf8)
    }

    /// The parser's value after every `delta` bytes.
    static func snapshots(of document: [UInt8], delta: Int) -> [JSONValue] {
        var parser = IncrementalJSONParser()
        var values: [JSONValue] = []
        var offset = 0
        while offset < document.count {
            let end = min(document.count, offset + delta)
            do { try parser.feed(Array(document[offset..<end])) } catch { return values }
            if let value = parser.value { values.append(value) }
            offset = end
        }
        return values
    }
}
