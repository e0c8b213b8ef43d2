// The parser's document layout (Values/_Node.swift): values made from nodes
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
        #expect(first._storageIdentity == second._storageIdentity)
        first.append("!")
        #expect(first.string == "first string, long enough!")
        #expect(parsed[0]?.stringValue == "first string, long enough")
        #expect(parsed[1]?.stringValue == "second string, long enough")
        #expect(first._storageIdentity != second._storageIdentity)
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
            #expect(parser._bytes.count < 18_000 + 4_000)
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
        #expect(parser._bytes.count == 24)
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

    /// Child lists of closed containers are reused only when no snapshot
    /// holds them: every held snapshot keeps reading what it saw.
    @Test func reusedChildListsNeverChangeHeldSnapshots() throws {
        var parser = IncrementalJSONParser()
        var snapshots: [(JSONValue, String)] = []
        var fed = ""
        let text = #"[{"a":[1,2,3],"b":{"c":"dee"}},{"a":[4],"b":{"c":"long enough to be a slice"}},[[[]]],{"z":{}}]"#
        for (index, byte) in text.utf8.enumerated() {
            try parser.feed([byte])
            fed.append(Character(UnicodeScalar(byte)))
            // Hold only some snapshots, so that some lists are free for reuse.
            if index % 3 == 0, let value = parser.value { snapshots.append((value, value.compactJSON)) }
        }
        let final = try parser.finish()
        #expect(final.compactJSON == text)
        for (snapshot, seen) in snapshots {
            #expect(snapshot.compactJSON == seen)
            #expect(snapshot.divergence(toward: final) == nil)
        }
    }
}
