// Schema rendering (what the API expects for structured output) and validation.

import IncrementalJSON
import Testing

@Suite struct SchemaTests {
    @Test func rendersTheAPIsSchema() {
        let expected =
            #"{"type":"object","description":"A trip plan","properties":{"destination":{"type":"string","description":"City and country"},"nights":{"type":"integer"},"travelers":{"type":"array","items":{"type":"string"}},"days":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"activities":{"type":"array","items":{"type":"string"}},"budget":{"type":"number","description":"In euros"}},"required":["title","activities","budget"],"additionalProperties":false}},"rating":{"anyOf":[{"type":"string","enum":["relaxed","busy"]},{"type":"null"}]}},"required":["destination","nights","travelers","days"],"additionalProperties":false}"#
        #expect(Trip.schema.jsonValue.compactJSON == expected)
        #expect(
            JSONSchema.anyOf([.boolean(), .number()], description: "either").jsonValue.compactJSON
                == #"{"description":"either","anyOf":[{"type":"boolean"},{"type":"number"}]}"#)
    }

    @Test func validatesAndReportsPaths() throws {
        let value = try JSONValue.parse(
            #"{"destination": 5, "nights": 1.5, "travelers": ["a", null], "days": [{"title": "t", "activities": [], "budget": "x", "extra": 1}], "rating": "wild"}"#
        )
        let violations = Trip.schema.validate(value).map(\.description)
        #expect(
            violations == [
                "$.destination: expected a string, found number 5",
                "$.nights: expected an integer, found 1.5",
                "$.travelers[1]: expected a string, found null",
                "$.days[0].budget: expected a number, found a string",
                "$.days[0]: unexpected property \"extra\"",
                #"$.rating: "wild" is not one of "relaxed", "busy""#,
            ])
        #expect(
            Trip.schema.validate(["destination": "x"]).map(\.message) == [
                "missing required property \"nights\"", "missing required property \"travelers\"", "missing required property \"days\"",
            ])
        #expect(try JSONSchema.integer().validate(JSONValue.parse("1e2")).isEmpty)
        #expect(try JSONSchema.integer().validate(JSONValue.parse("123456789012345678901234567890")).isEmpty)
        #expect(JSONSchema.nullable(.integer()).validate(nil).isEmpty)
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"destination": "Ky"#)
        #expect(Trip.schema.validate(try #require(parser.value)).contains { $0.message == "value is incomplete" })
    }
}
