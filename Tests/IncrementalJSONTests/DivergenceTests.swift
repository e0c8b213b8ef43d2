// `JSONValue.divergence(toward:)` on values that do not extend each other:
// each rule's message, at the path where the two values part.

import IncrementalJSON
import Testing

@Suite struct DivergenceTests {
    /// The value after feeding `text`, which may stop mid-document.
    static func snapshot(_ text: String) throws -> JSONValue {
        var parser = IncrementalJSONParser()
        try parser.feed(Array(text.utf8))
        return try #require(parser.value)
    }

    @Test(arguments: [
        (#"{"a":[1,{"b":"xy"#, #"{"a":[1,{"b":"xz"}]}"#, #"$.a[1].b: string "xy" is not a prefix of "xz""#),
        (#"{"a":[1,2,"#, #"{"a":[1]}"#, #"$.a: array shrank from 2 to 1"#),
        (#"{"a":[1,2"#, #"{"a":[7,2]}"#, #"$.a[0]: complete 1 became 7"#),
        (#"[{"k":1,"m":5,"#, #"[{"k":1}]"#, #"$[0]: object shrank from 2 to 1"#),
        (#"[{"k":1,"m":5,"#, #"[{"k":1,"n":5}]"#, #"$[0]: key "m" became "n""#),
        (#"{"a":{"b":[tr"#, #"{"a":{"b":"no"}}"#, #"$.a.b: incomplete [] became "no""#),
    ])
    func namesThePathAndTheRule(earlier: String, later: String, message: String) throws {
        let before = try Self.snapshot(earlier)
        let after = try JSONValue.parse(Array(later.utf8))
        #expect(before.divergence(toward: after) == message)
    }

    @Test func aValueExtendsItsOwnGrowth() throws {
        let text = #"{"a":[1,{"b":"xy\u00e9z","c":null}],"d":true}"#
        let final = try JSONValue.parse(Array(text.utf8))
        for end in 1...text.utf8.count {
            let prefix = String(decoding: text.utf8.prefix(end), as: UTF8.self)
            guard let value = try? Self.snapshot(prefix) else { continue }
            #expect(value.divergence(toward: final) == nil, "\(prefix)")
        }
    }
}
