// The parser's document layout (Values/Node.swift): values made from nodes
// must behave exactly like values built in code, whatever the parser reuses
// or shares behind them.

import Testing

@testable import IncrementalJSON

@Suite struct DocumentLayoutTests {
    /// A parsed document equals the same value built in code, reads the same
    /// through every accessor, and encodes back to its compact text.
    @Test func parsedEqualsBuilt() throws {
        let text = #"{"name":"a string longer than fifteen bytes","n":[1,-2.5e3,true,false,null],"nested":{"k":"v","":{}},"empty":[]}"#
        let parsed = try JSONValue.parse(text)
        let built = JSONValue.object([
            ("name", .string("a string longer than fifteen bytes")),
            ("n", .array([.number(JSONNumber(1)), .number(try #require(JSONNumber(text: "-2.5e3"))), .bool(true), .bool(false), .null])),
            ("nested", .object([("k", .string("v")), ("", .object([]))])),
            ("empty", .array([])),
        ])
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        #expect(parsed.compactJSON == text)
        #expect(parsed["nested"]?[""]?.objectValue?.isEmpty == true)
        #expect(parsed["n"]?[1]?.numberValue?.text == "-2.5e3")
        #expect(parsed["missing"] == nil)
        #expect(parsed.objectValue?.keys == ["name", "n", "nested", "empty"])
    }

    /// The worked example at the top of JSONValue.swift, node for node.
    @Test func theWorkedExampleOfJSONValueSwift() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"id":7,"tags":["rain","heavy showers by noo"#)
        let snapshot = parser.value
        #expect(parser.chunkBytes.elementsEqual("rainheavy showers by noo".utf8))
        #expect(parser.nodeColumns.count == 2)
        #expect(parser.nodeColumns[0].map(\.tag) == [.shortString, .shortNumber])
        #expect(parser.nodeColumns[1].map { [$0.tag == .string ? 1 : 0, $0.start, $0.count] } == [[1, 0, 4]])
        #expect(snapshot?["tags"]?.isComplete == false)
        #expect(snapshot?["tags"]?[0]?.stringValue == "rain")
        let leaf = try #require(snapshot?["tags"]?[1])
        #expect(leaf.stringValue == "heavy showers by noo" && !leaf.isComplete)

        // Up to the array's close (once the document closes, its columns
        // are settled and the parser lets them go).
        try parser.feed(#"n"]"#)
        try #require(parser.nodeColumns.count == 2)
        #expect(parser.nodeColumns[1].map { [$0.start, $0.count] } == [[0, 4], [4, 21]])
        #expect(parser.nodeColumns[0].map(\.tag) == [.shortString, .shortNumber, .shortString, .array])
        #expect(parser.nodeColumns[0].last.map { [$0.start, $0.count] } == [0, 2])
        try parser.feed("}")
        let done = try parser.finish()
        #expect(done.compactJSON == #"{"id":7,"tags":["rain","heavy showers by noon"]}"#)
        #expect(snapshot?["tags"]?[1]?.stringValue == "heavy showers by noo", "the earlier snapshot reads its own prefix")
    }

    /// A long parsed string shares the document's bytes; appending to it
    /// copies it first, so the document is never changed.
    @Test func longStringsAreSlicesAndAppendingCopies() throws {
        let parsed = try JSONValue.parse(#"["first string, long enough", "second string, long enough"]"#)
        var first = try #require(parsed[0]?.text)
        let second = try #require(parsed[1]?.text)
        guard case .slice = first._storage, case .slice = second._storage else {
            Issue.record("expected both strings to be slices of the document")
            return
        }
        #expect(first.storageIdentity == second.storageIdentity)
        first.append("!")
        #expect(first.string == "first string, long enough!")
        #expect(parsed[0]?.stringValue == "first string, long enough")
        #expect(parsed[1]?.stringValue == "second string, long enough")
        #expect(first.storageIdentity != second.storageIdentity)
    }

    /// Repeated keys are stored once; distinct keys, including ones that
    /// share a cache slot, keep their own text. (Keys of up to 7 bytes live
    /// in their node; these are longer, so they go through the key cache.)
    @Test(arguments: [50, 700]) func repeatedKeysAreStoredOnceAndNeverConfused(distinctKeys: Int) throws {
        var text = "["
        for index in 0..<2_000 {
            if index > 0 { text += "," }
            text += #"{"identifier":\#(index),"record_key_\#(index % distinctKeys)":\#(index % 3 == 0),"identifier":"duplicate"}"#
        }
        text += "]"
        var parser = IncrementalJSONParser()
        try parser.feed(text)
        let value = try parser.finish()
        let records = try #require(value.arrayValue)
        #expect(records.count == 2_000)
        for (index, record) in records.enumerated() {
            let object = try #require(record.objectValue)
            #expect(object.keys == ["identifier", "record_key_\(index % distinctKeys)", "identifier"])
            #expect(object["identifier"]?.stringValue == "duplicate", "the last duplicate wins")
            #expect(object.entries[0].value.numberValue?.text == "\(index)")
            #expect(object["record_key_\(index % distinctKeys)"]?.boolValue == (index % 3 == 0))
        }
        if distinctKeys <= 50 {
            // "duplicate" (9 bytes) is a value, stored every time: 18,000
            // bytes. The keys, 46,000 bytes over all records, are mostly
            // stored once (a few may share a cache slot and be stored again).
            #expect(parser.chunkBytes.count < 18_000 + 4_000)
        }
    }

    /// Numbers and keys of up to 7 bytes sit in their nodes and read back
    /// exactly like the longer ones kept in the byte storage.
    @Test func shortNumbersAndKeysLiveInTheirNodes() throws {
        let text = #"{"a":1,"seven77":-1.5e-9,"eight888":12345678,"":0,"k":[1234567,12345678,-123456,true,false,null]}"#
        var parser = IncrementalJSONParser()
        try parser.feed(text)
        let value = try parser.finish()
        #expect(value.compactJSON == text)
        #expect(value["seven77"]?.numberValue?.text == "-1.5e-9")
        #expect(value["eight888"]?.numberValue?.text == "12345678")
        #expect(value[""]?.numberValue?.text == "0")
        #expect(try value["k"]?[0]?.numberValue?.int() == 1_234_567)
        #expect(value["k"]?[3]?.boolValue == true && value["k"]?[4]?.boolValue == false && value["k"]?[5]?.isNull == true)
        // Only the 8-byte key and the two 8-byte numbers were stored as text.
        #expect(parser.chunkBytes.count == 24)
    }

    /// A copy of a parser is an independent parser: both continue the same
    /// prefix differently, and neither sees the other's input, even though
    /// they shared every buffer at the moment of the copy.
    @Test func parserCopiesDiverge() throws {
        var original = IncrementalJSONParser()
        try original.feed(#"{"list":[{"a":"a long shared string value","b":[1,2"#)
        let before = try #require(original.value)
        var copy = original
        try original.feed(#"3]},{"c":1}],"tail":"from the original"}"#)
        try copy.feed(#"]},"the copy's own long string"],"other":{"x":[]}}"#)
        let left = try original.finish()
        let right = try copy.finish()
        #expect(left.compactJSON == #"{"list":[{"a":"a long shared string value","b":[1,23]},{"c":1}],"tail":"from the original"}"#)
        #expect(right.compactJSON == #"{"list":[{"a":"a long shared string value","b":[1,2]},"the copy's own long string"],"other":{"x":[]}}"#)
        #expect(before.compactJSON == #"{"list":[{"a":"a long shared string value","b":[1]}]}"#)
        #expect(before.divergence(toward: left) == nil)
    }

    /// The parser keeps appending to the columns that held snapshots read,
    /// and the finished document is compacted into a buffer of its own:
    /// every held snapshot keeps reading what it saw.
    @Test func heldSnapshotsNeverChange() throws {
        var parser = IncrementalJSONParser()
        var snapshots: [(JSONValue, String)] = []
        var fed = ""
        let text = #"[{"a":[1,2,3],"b":{"c":"dee"}},{"a":[4],"b":{"c":"long enough to be a slice"}},[[[]]],{"z":{}}]"#
        for (index, byte) in text.utf8.enumerated() {
            try parser.feed([byte])
            fed.append(Character(UnicodeScalar(byte)))
            // Hold only some snapshots, so that some storages are released.
            if index % 3 == 0, let value = parser.value { snapshots.append((value, value.compactJSON)) }
        }
        let final = try parser.finish()
        #expect(final.compactJSON == text)
        for (snapshot, seen) in snapshots {
            #expect(snapshot.compactJSON == seen)
            #expect(snapshot.divergence(toward: final) == nil)
        }
    }

    /// Held snapshots of a stream of records share the document's columns:
    /// a snapshot adds its open path, never a child list of its own, and the
    /// parser makes a new `DocumentStorages` only when a column moves.
    @Test func heldSnapshotsShareTheColumns() throws {
        var text = #"{"records": ["#
        for index in 0..<3_000 {
            text += (index == 0 ? "" : ", ") + #"{"id": \#(index), "tags": ["a", "b"], "ok": true}"#
        }
        text += "]}"
        var parser = IncrementalJSONParser()
        var snapshots: [JSONValue] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            try parser.feed(Array(bytes[offset..<min(bytes.count, offset + 40)]))
            offset += 40
            if let value = parser.value { snapshots.append(value) }
        }
        var storages = Set<ObjectIdentifier>()
        var recordColumns = Set<ObjectIdentifier>()
        for snapshot in snapshots {
            guard case .object(let root) = snapshot.kind, case .open(let open) = root.memberStorage,
                let held = open.reader.storages
            else { continue }
            storages.insert(ObjectIdentifier(held))
            if let owner = held.column(2)?.owner { recordColumns.insert(ObjectIdentifier(owner)) }
        }
        // 3,000 records in ~2,000 snapshots. A column moves only while it
        // is small (doubling up to 4 KiB, then into a region that grows in
        // place): a few dozen at most, not one per record or snapshot.
        #expect(snapshots.count > 1_900)
        #expect(storages.count <= 40)
        #expect(recordColumns.count <= 12)
        let final = try parser.finish()
        #expect(final["records"]?.arrayValue?.count == 3_000)
        // A held snapshot reads its closed records from the shared columns.
        let records = try #require(snapshots[1_000]["records"]?.arrayValue)
        #expect(records.count > 800)
        #expect(try records[records.count - 2]["id"]?.numberValue?.int() == records.count - 2)
        #expect(records[records.count - 2]["tags"] == ["a", "b"])
        for snapshot in snapshots.prefix(200) { #expect(snapshot.divergence(toward: final) == nil) }
    }

    /// A finished small document is copied into one exact buffer that all
    /// its columns point into; a large one the resumable parser read stays
    /// in its columns. A whole document read in one pass
    /// (`JSONValue.parse`) is always laid out in one exact buffer. All
    /// read the same.
    @Test(arguments: [(10, false), (2_000, false), (10, true), (2_000, true)])
    func finishedSmallDocumentsAreCompacted(records: Int, readWhole: Bool) throws {
        let text = "[" + (0..<records).map { #"{"k": [\#($0), {"deep": [true, null]}]}"# }.joined(separator: ",") + "]"
        let value: JSONValue
        if readWhole {
            value = try #require(Array(text.utf8).withUnsafeBytes { WholeDocumentParser.parse($0, options: JSONParserOptions()) })
        } else {
            var parser = IncrementalJSONParser()
            try parser.feed(text)
            value = try parser.finish()
        }
        #expect(value.compactJSON == text.replacingOccurrences(of: " ", with: ""))
        guard case .array(let array) = value.kind, case .run(let run) = array.arrayElements,
            let storages = run.reader.storages
        else {
            Issue.record("expected a parsed array")
            return
        }
        var owners = Set<ObjectIdentifier>()
        var depth = 0
        while let column = storages.column(depth) {
            if let owner = column.owner { owners.insert(ObjectIdentifier(owner)) }
            depth += 1
        }
        #expect(depth == 5)
        // 10 records: 91 nodes, under the limit (4,096); 2,000: 18,001, over it.
        #expect(owners.count == (records == 10 || readWhole ? 1 : 5))
        #expect(value[records - 1]?["k"]?[1]?["deep"]?[0]?.boolValue == true)
        #expect(try value[records / 2]?["k"]?[0]?.numberValue?.int() == records / 2)
    }
}
