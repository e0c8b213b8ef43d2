// The worked example of IncrementalJSON.docc/IncrementalJSON.md, run, so the
// catalog cannot drift from the code.

import IncrementalJSON
import Testing

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"city": "Par"#)
        #expect(parser.value?["city"]?.stringValue == "Par")
        #expect(parser.value?["city"]?.isComplete == false)

        try parser.feed(#"is", "days": [1, 2"#)
        #expect(parser.value?.compactJSON == #"{"city":"Paris","days":[1]}"#)
        try parser.feed("]}")
        let input = try parser.finish()
        #expect(input.compactJSON == #"{"city":"Paris","days":[1,2]}"#)
        #expect(try input["days"]?[1]?.numberValue?.int() == 2)
    }
}
