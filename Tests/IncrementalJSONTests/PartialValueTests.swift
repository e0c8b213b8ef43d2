// The partial value policy and the cost of snapshots.

import Foundation
import Testing

@testable import IncrementalJSON

@Suite struct PartialValueTests {
    /// Snapshot after feeding `text`, as compact JSON ("" when nothing shows).
    func shown(_ text: String, _ policy: PartialStringPolicy = .visible) throws -> String {
        var parser = IncrementalJSONParser(options: .init(partialStrings: policy))
        try parser.feed(text)
        return parser.value?.compactJSON ?? ""
    }

    @Test func policy() throws {
        #expect(try shown("") == "")
        #expect(try shown("  ") == "")
        #expect(try shown("12") == "")  // may still become 123
        #expect(try shown("[12") == "[]")
        #expect(try shown("[12,") == "[12]")
        #expect(try shown("[tru") == "[]")
        #expect(try shown("[true") == "[true]")  // a literal ends with its last letter
        #expect(try shown(#"{"a": 1"#) == "{}")
        #expect(try shown(#"{"a": 1 "#) == #"{"a":1}"#)
        #expect(try shown(#"{"ke"#) == "{}")
        #expect(try shown(#"{"key":"#) == "{}")
        #expect(try shown(#"{"key": "va"#) == #"{"key":"va"}"#)
        #expect(try shown(#"{"key": "va"#, .hidden) == "{}")
        #expect(try shown(#"{"key": ["#) == #"{"key":[]}"#)
        #expect(try shown(#"{"a": {"b": [1, {"c": "x\"#) == #"{"a":{"b":[1,{"c":"x"}]}}"#)
        #expect(try shown(#""\u00"#) == #""""#)
        #expect(try shown(#""x\uD83D"#) == #""x""#)
        #expect(try shown(#""x\uD83D\uDE00"#) == "\"x\u{1F600}\"")
        var parser = IncrementalJSONParser()
        try parser.feed([0x22, 0x63, 0x61, 0x66, 0xC3])  // "caf + half of é
        #expect(parser.value?.compactJSON == #""caf""#)  // a cut character is not shown yet
        try parser.feed([0xA9])
        #expect(parser.value?.compactJSON == #""café""#)
    }

    @Test func completenessFlags() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"done": "yes", "list": [1, "op"#)
        let value = try #require(parser.value)
        #expect(!value.isComplete)
        #expect(value["done"]?.isComplete == true)
        #expect(value["list"]?.isComplete == false)
        #expect(value["list"]?[0]?.isComplete == true)
        #expect(value["list"]?[1]?.isComplete == false)
        #expect(value["list"]?[1]?.stringValue == "op")
        #expect(value["list"]?[2] == nil)
        #expect(value["missing"] == nil)
        #expect(!parser.isComplete)
        try parser.feed(#"en"]}"#)
        #expect(parser.isComplete)
        #expect(parser.value?.isComplete == true)
        #expect(parser.bytesConsumed == 36)
    }

    @Test func topLevelNumberAppearsAtFinish() throws {
        var parser = IncrementalJSONParser()
        try parser.feed("-12")
        #expect(parser.value == nil)
        try parser.feed(".5")
        #expect(try parser.finish().numberValue?.text == "-12.5")
    }

    @Test func duplicateKeysKeepOrderAndLastWins() throws {
        let value = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value["a"] == 3)
        #expect(value.objectValue?.keys == ["a", "b", "a"])
        #expect(value.compactJSON == #"{"a":1,"b":2,"a":3}"#)
    }

    /// 10,000 snapshots of a string growing to 1 MB share its storage: only
    /// the doubling steps allocate (so a handful of buffers, not 10,000), and
    /// the snapshots' byte counts only grow.
    @Test func snapshotsShareGrowingStringStorage() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"log": ["#)
        try parser.feed(#"""#)
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        var snapshots: [JSONValue] = []
        for _ in 0..<10_000 {
            try parser.feed(piece)
            snapshots.append(try #require(parser.value))
        }
        var buffers = Set<ObjectIdentifier>()
        var lastCount = 0
        for snapshot in snapshots {
            let text = try #require(snapshot["log"]?[0]?.text)
            #expect(text.utf8Count == lastCount + 100)
            lastCount = text.utf8Count
            if let storage = text.storageIdentity { buffers.insert(storage) }
        }
        #expect(buffers.count <= 20)  // log2(1 MB / 16) doublings
        // The earliest snapshot still sees exactly its own prefix.
        #expect(snapshots[0]["log"]?[0]?.stringValue == String(repeating: "x", count: 100))
    }

    /// Snapshots of a growing array share its finished elements.
    @Test func snapshotsShareFinishedElements() throws {
        var parser = IncrementalJSONParser()
        try parser.feed("[")
        var snapshots: [JSONValue] = []
        for index in 0..<5_000 {
            try parser.feed("\(index),")
            snapshots.append(try #require(parser.value))
        }
        var buffers = Set<ObjectIdentifier>()
        for (index, snapshot) in snapshots.enumerated() {
            let array = try #require(snapshot.arrayValue)
            #expect(array.count == index + 1)
            if case .open(let open) = array.arrayElements, let storage = open.reader.storages?.column(0)?.owner {
                buffers.insert(ObjectIdentifier(storage))
            }
        }
        #expect(buffers.count <= 16)
        #expect(try snapshots[4_999].arrayValue?.last?.numberValue?.int() == 4_999)
    }

    @Test func limits() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError(offset: 512, reason: .depthLimitExceeded(512))) { try JSONValue.parse(deep) }
        #expect(throws: JSONParseError(offset: 3, reason: .depthLimitExceeded(3))) {
            try JSONValue.parse("[[[[]]]]", options: .init(maxDepth: 3))
        }
        #expect(try JSONValue.parse("[[[]]]", options: .init(maxDepth: 3)) == [[[]]])
        #expect(throws: JSONParseError(offset: 4, reason: .sizeLimitExceeded(4))) {
            try JSONValue.parse("[1, 2]", options: .init(maxBytes: 4))
        }
        #expect(throws: JSONParseError(offset: 5, reason: .stringLimitExceeded(3))) {
            try JSONValue.parse(#"["abcd"]"#, options: .init(maxStringBytes: 3))
        }
        #expect(throws: JSONParseError(offset: 5, reason: .stringLimitExceeded(3))) {
            try JSONValue.parse(#"{"abcd": 1}"#, options: .init(maxStringBytes: 3))
        }
        #expect(try JSONValue.parse(#"["abc"]"#, options: .init(maxStringBytes: 3)) == ["abc"])
        // The same limits hit the same way when fed byte by byte.
        let bytes = Array(#"{"abcd": 1}"#.utf8)
        #expect(
            "\(parseChunked(bytes, sizes: chunkSizes(count: bytes.count, fixed: 1), options: .init(maxStringBytes: 3)))"
                == "\(parseWhole(bytes, options: .init(maxStringBytes: 3)))")
    }

    @Test func errorsSayWhereAndWhat() {
        let cases: [(String, JSONParseError)] = [
            ("[1,]", .init(offset: 3, reason: .unexpectedByte(UInt8(ascii: "]")))),
            ("", .init(offset: 0, reason: .unexpectedEnd)),
            ("[1", .init(offset: 2, reason: .unexpectedEnd)),
            ("1 2", .init(offset: 2, reason: .trailingContent)),
            (#""\x""#, .init(offset: 2, reason: .invalidEscape)),
            (#""\uDC00""#, .init(offset: 6, reason: .loneSurrogate)),
            ("\"a\u{1}\"", .init(offset: 2, reason: .controlCharacter(1))),
            ("-x", .init(offset: 1, reason: .invalidNumber)),
            ("[1.]", .init(offset: 3, reason: .invalidNumber)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text.debugDescription)") { try JSONValue.parse(text) }
        }
        #expect(throws: JSONParseError(offset: 2, reason: .invalidUTF8)) { try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONParseError(offset: 1, reason: .invalidUTF8)) { try JSONValue.parse([0x22, 0xC0, 0x80, 0x22]) }
        #expect(throws: JSONParseError(offset: 2, reason: .invalidUTF8)) { try JSONValue.parse([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]) }
        #expect(JSONParseError(offset: 3, reason: .unexpectedByte(UInt8(ascii: "]"))).description == "offset 3: unexpected byte ']' (0x5D)")
    }

    @Test func errorIsStickyAndSnapshotStays() throws {
        var parser = IncrementalJSONParser()
        #expect(throws: JSONParseError.self) { try parser.feed(#"{"a": [1, 2], "b": x"#) }
        #expect(throws: JSONParseError.self) { try parser.feed("more") }
        #expect(parser.value?.compactJSON == #"{"a":[1,2]}"#)
        #expect(throws: JSONParseError(offset: 19, reason: .unexpectedByte(UInt8(ascii: "x")))) { try parser.finish() }
    }

    @Test func everySplitOfTrickyDocumentsGivesTheSameValue() throws {
        let documents = [
            #"{"emoji": "\uD83D\uDE00 ok \u00e9", "n": -12.50e+3, "t": true, "f": false, "z": null, "u": "日本語 🎉"}"#,
            #"[0, -0, 1e5, "a\"b\\c\/d\b\f\n\r\t", [], {}, [[]], {"": ""}]"#,
        ]
        for document in documents {
            let bytes = Array(document.utf8)
            let whole = try JSONValue.parse(bytes)
            for cut in 0...bytes.count {
                for second in cut...bytes.count {
                    #expect(try parseChunked(bytes, sizes: [cut, second - cut, bytes.count - second].filter { $0 > 0 }).get() == whole)
                }
            }
        }
    }

    @Test func literalsAndAccessors() {
        let value: JSONValue = ["name": "Ada", "age": 36, "ok": true, "tags": ["x", nil, 1.5]]
        #expect(value.compactJSON == #"{"name":"Ada","age":36,"ok":true,"tags":["x",null,1.5]}"#)
        #expect(value["name"]?.stringValue == "Ada")
        #expect(value["ok"]?.boolValue == true)
        #expect(value["tags"]?[1]?.isNull == true)
        #expect(value["tags"]?[-1] == nil)
        #expect(value["tags"]?[99] == nil)
        #expect(value[0] == nil)
        #expect(value["name"]?["x"] == nil)
    }
}
