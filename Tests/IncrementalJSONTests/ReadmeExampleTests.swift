// The README's first IncrementalJSON example, run as written: `finish()`
// threw there before, because the example never fed the closing `]}`.

import IncrementalJSON
import Testing

struct ReadmeExampleTests {
    @Test func incrementalParsingExampleRunsAsWritten() throws {
        var parser = IncrementalJSONParser()
        try parser.feed(#"{"city": "Par"#)
        #expect(parser.value?["city"]?.stringValue == "Par")
        try parser.feed(#"is", "days": [1, 2"#)
        #expect(parser.value?.compactJSON == #"{"city":"Paris","days":[1]}"#)
        try parser.feed("]}")
        let final = try parser.finish()
        #expect(final.compactJSON == #"{"city":"Paris","days":[1,2]}"#)
    }
}
