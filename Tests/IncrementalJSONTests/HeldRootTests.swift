// A holder that keeps the partial value of every feed gets checkpoint
// paths (ParseCheckpoint.swift): one shared by the roots of a stretch of
// input, each replayed to its own end when read. These keep roots as
// callers do (every one, the latest only, some), across documents that
// grow the storages, add columns, store long keys and numbers and cut
// escapes, and check each root against a fresh parse of its prefix.

import Foundation
import Testing

@testable import IncrementalJSON

@Suite struct HeldRootTests {
    /// Records with long keys (stored once through the key cache), long
    /// numbers (stored as text), escapes, and a deepening tail that adds
    /// columns late.
    static func records(_ count: Int) -> String {
        var text = #"{"records": ["#
        for n in 0..<count {
            text += (n == 0 ? "" : ", ")
            text += #"{"identifier": \#(n), "description_of_the_record": "line \#(n)\n\"quoted\" \u00e9 \ud83d\ude00", "#
            text += #""measurement": 12345678.\#(n)e-3, "tags": ["a", "bb", "ccc"], "ok": \#(n % 2 == 0)}"#
        }
        text += #"], "deep": [[[[{"x": [[["bottom"]]]}]]]], "last": "end"}"#
        return text
    }

    /// About 6 KB: every root of it is checked.
    static let records = records(30)

    static let documents = [
        records,
        #"[1, "two", [3, {"four": null}], false, -0.5e3, {"a": {"b": {"c": "deep \"quoted\" \u00e9"}}}]"#,
    ]

    /// The value a fresh parser has after reading `bytes`.
    static func freshValue(_ bytes: ArraySlice<UInt8>, _ options: JSONParserOptions) -> JSONValue? {
        var parser = IncrementalJSONParser(options: options)
        try? parser.feed(Array(bytes))
        return parser.value
    }

    /// The storages an open top-level container reads.
    static func storages(of value: JSONValue) -> DocumentStorages? {
        switch value.kind {
        case .object(let object): if case .open(let container) = object.memberStorage { return container.reader.storages }
        case .array(let array): if case .open(let container) = array.arrayElements { return container.reader.storages }
        default: break
        }
        return nil
    }

    enum Keeping: CaseIterable { case every, latest, everyThird }

    struct Held {
        let root: OpenRoot
        let streamed: AppendOnlyText
        let end: Int
    }

    /// Feeds `document` in `size`-byte pieces, publishing a root after each
    /// as a message snapshot does, and keeps them as `keeping` says.
    static func publish(
        _ document: String, pieces size: Int, keeping: Keeping, span: Int, options: JSONParserOptions = .init()
    ) -> (held: [Held], checkpoints: Int) {
        let bytes = Array(document.utf8)
        var parser = IncrementalJSONParser(options: options)
        var text = AppendOnlyArray<UInt8>()
        var (root, spare): (OpenRoot?, OpenRoot?) = (nil, nil)
        var held: [Held] = []
        var latest: Held? = nil
        var checkpoints: [ObjectIdentifier] = []
        var feeds = 0
        for start in stride(from: 0, to: bytes.count, by: size) {
            let piece = Array(bytes[start..<min(bytes.count, start + size)])
            do {
                try parser.feed(piece)
            } catch {
                Issue.record("does not parse at \(start): \(error)")
                break
            }
            text.append(contentsOf: piece)
            feeds += 1
            guard parser.refreshOpenRoot(&root, spare: &spare, streamedCount: text.count, checkpointSpan: span), let current = root
            else { continue }
            if let checkpoint = current.elementPath.checkpoint, checkpoints.last != ObjectIdentifier(checkpoint) {
                checkpoints.append(ObjectIdentifier(checkpoint))
            }
            let entry = Held(root: current, streamed: AppendOnlyText(_sharing: text), end: text.count)
            switch keeping {
            case .every: held.append(entry)
            case .latest: latest = entry
            case .everyThird: if feeds % 3 == 0 { held.append(entry) }
            }
        }
        if let latest { held.append(latest) }
        return (held, checkpoints.count)
    }

    /// Every root is kept; about 150 of each document's are checked (a
    /// fresh parse of each prefix is the slow part, under the address
    /// sanitizer most of all).
    @Test(arguments: [1, 7, 40], [16, 256])
    func everyHeldRootReadsItsOwnPrefix(pieceSize: Int, span: Int) {
        for document in Self.documents {
            Self.checkEveryHeldRoot(document, pieces: pieceSize, span: span, every: max(1, 40 / pieceSize))
        }
    }

    /// The default span over a document of several spans, every 37th root
    /// checked (a fresh parse of each prefix is the slow part).
    @Test func theDefaultSpan() {
        Self.checkEveryHeldRoot(Self.records(200), pieces: 40, span: ParseCheckpoint.defaultSpan, every: 37)
    }

    static func checkEveryHeldRoot(_ document: String, pieces pieceSize: Int, span: Int, every stride: Int) {
        let bytes = Array(document.utf8)
        let (held, checkpoints) = Self.publish(document, pieces: pieceSize, keeping: .every, span: span)
        #expect(held.count >= bytes.count / pieceSize - 2)
        // A span ends at the first feed past it, and two exact paths come
        // before the next checkpoint (IncrementalJSONParser+OpenRoot.swift).
        let stretch = span + 3 * pieceSize
        #expect(checkpoints >= bytes.count / stretch / 2, "checkpoints are taken along the input")
        if span >= 8 * pieceSize { #expect(checkpoints < held.count / 4, "roots share checkpoints") }
        for (n, entry) in held.enumerated() where n % stride == 0 || n == held.count - 1 {
            do {
                let expected = Self.freshValue(bytes[0..<entry.end], .init())
                let value = entry.root.value(streamed: entry.streamed)
                if value != expected {
                    Issue.record("pieces of \(pieceSize), span \(span): the root at \(entry.end) reads otherwise than its prefix")
                    return
                }
                // Replayed in the storages of the root's path: nothing copied.
                if entry.root.elementPath.checkpoint != nil,
                    Self.storages(of: value) !== entry.root.elementPath.reader.storages
                {
                    Issue.record("pieces of \(pieceSize), span \(span): the root at \(entry.end) was replayed into storages of its own")
                    return
                }
            }
        }
    }

    /// A long key and a long number, each cut by a feed, then a long
    /// string with short keys and no number: once they ended, checkpoints
    /// are taken again (the tokens' arrays stay until a token of the same
    /// kind begins).
    @Test(arguments: [#""a_parameter_name_well_over_twenty_four_bytes": 1"#, #""n": 1234567890123456789012345678901234567890"#])
    func checkpointsResumeAfterALongCutToken(head: String) {
        let document = "{" + head + #", "x": "# + "\"" + String(repeating: "s", count: 20_000) + "\"" + "}"
        let bytes = Array(document.utf8)
        let (held, _) = Self.publish(document, pieces: 17, keeping: .every, span: 1024)
        #expect(held.contains { $0.root.elementPath.checkpoint != nil && $0.end > bytes.count / 2 }, "checkpoints in the string")
        for (n, entry) in held.enumerated() where n % 97 == 0 || n == held.count - 1 {
            #expect(entry.root.value(streamed: entry.streamed) == Self.freshValue(bytes[0..<entry.end], .init()), "root at \(entry.end)")
        }
    }

    /// A key and a number far longer than the parser keeps inline, each
    /// cut by hundreds of feeds, between stretches of records: no
    /// checkpoint holds a copy of either (one copy per checkpoint would
    /// grow with the square of the token's length), checkpoints are still
    /// taken around them, and the roots read their own prefixes.
    @Test func aLongCutTokenIsKeptOutOfCheckpoints() {
        let key = String(repeating: "k", count: 20_000)
        let number = "1" + String(repeating: "0", count: 20_000)
        let records = Self.records(8)
        let document = #"{"head": "# + records + #", "\#(key)": \#(number), "tail": "# + records + "}"
        let bytes = Array(document.utf8)
        let (held, _) = Self.publish(document, pieces: 40, keeping: .every, span: 1024)
        let tokens = (records.utf8.count + 12)..<(bytes.count - records.utf8.count - 12)
        #expect(held.contains { $0.root.elementPath.checkpoint != nil && $0.end < tokens.lowerBound }, "a checkpoint before the long tokens")
        #expect(held.contains { $0.root.elementPath.checkpoint != nil && $0.end > tokens.upperBound }, "a checkpoint after them")
        var spilled = 0
        for entry in held {
            guard let checkpoint = entry.root.elementPath.checkpoint else { continue }
            if checkpoint.parser.holdsLongCutToken { spilled += 1 }
        }
        #expect(spilled == 0, "roots whose checkpoint holds a long token cut open")
        for (n, entry) in held.enumerated() where n % 53 == 0 || n == held.count - 1 {
            #expect(entry.root.value(streamed: entry.streamed) == Self.freshValue(bytes[0..<entry.end], .init()), "root at \(entry.end)")
        }
    }

    /// A caller that keeps the latest snapshot only gets exact paths (two
    /// taking turns), never a checkpoint; one that keeps some gets both.
    @Test(arguments: Keeping.allCases)
    func whatTheCallerKeepsDecidesThePath(keeping: Keeping) {
        let bytes = Array(Self.records.utf8)
        let (held, checkpoints) = Self.publish(Self.records, pieces: 13, keeping: keeping, span: 512)
        switch keeping {
        case .latest: #expect(checkpoints == 0)
        case .every, .everyThird: #expect(checkpoints > 0)
        }
        for (n, entry) in held.enumerated() where n % 4 == 0 || n == held.count - 1 {
            #expect(entry.root.value(streamed: entry.streamed) == Self.freshValue(bytes[0..<entry.end], .init()))
        }
    }

    /// With strings hidden until they end, the replay hides them too.
    @Test func hiddenPartialStrings() {
        let options = JSONParserOptions(partialStrings: .hidden)
        let bytes = Array(Self.records.utf8)
        let (held, _) = Self.publish(Self.records, pieces: 5, keeping: .every, span: 300, options: options)
        for (n, entry) in held.enumerated() where n % 7 == 0 {
            #expect(entry.root.value(streamed: entry.streamed) == Self.freshValue(bytes[0..<entry.end], options))
        }
    }

    /// A settled root stands for its own input as an exact path.
    @Test func aSettledRootIsExact() {
        let bytes = Array(Self.records.utf8)
        let (held, _) = Self.publish(Self.records, pieces: 11, keeping: .every, span: 400)
        let shared = held.filter { $0.root.elementPath.checkpoint != nil }
        #expect(shared.count > held.count / 2)
        for entry in shared.prefix(60) {
            let settled = entry.root.settled(streamed: entry.streamed)
            #expect(settled.elementPath.checkpoint == nil)
            #expect(settled.value == Self.freshValue(bytes[0..<entry.end], .init()))
        }
    }

    /// Held roots read on other threads while the parser goes on writing
    /// the storages they share.
    @Test func heldRootsReadWhileTheParserGoesOn() async {
        let bytes = Array(Self.records(60).utf8)
        var parser = IncrementalJSONParser()
        var text = AppendOnlyArray<UInt8>()
        var (root, spare): (OpenRoot?, OpenRoot?) = (nil, nil)
        // Every root is kept, so the parser publishes checkpoint paths;
        // one in eight is read at once on another thread.
        var kept: [OpenRoot] = []
        var readers: [Task<Bool, Never>] = []
        for start in stride(from: 0, to: bytes.count, by: 9) {
            let piece = Array(bytes[start..<min(bytes.count, start + 9)])
            guard (try? parser.feed(piece)) != nil else { break }
            text.append(contentsOf: piece)
            guard parser.refreshOpenRoot(&root, spare: &spare, streamedCount: text.count, checkpointSpan: 1024),
                let current = root
            else { continue }
            kept.append(current)
            guard kept.count % 8 == 0 else { continue }
            let (streamed, expected) = (AppendOnlyText(_sharing: text), Self.freshValue(bytes[0..<text.count], .init()))
            readers.append(Task.detached { current.value(streamed: streamed) == expected })
        }
        var agreed = 0
        for reader in readers where await reader.value { agreed += 1 }
        #expect(readers.count > 100)
        #expect(agreed == readers.count)
        #expect(kept.contains { $0.elementPath.checkpoint != nil })
    }
}
