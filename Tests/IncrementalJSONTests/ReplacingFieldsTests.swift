// `JSONValue.replacingFields`: key order kept, every duplicate replaced, new
// keys appended in the order given, anything but an object untouched.

import IncrementalJSON
import Testing

@Suite struct ReplacingFieldsTests {
    @Test func documentationExample() {
        let start: JSONValue = ["type": "text", "text": "", "citations": []]
        #expect(start.replacingFields([("text", "Hello"), ("extra", true)]).compactJSON == #"{"type":"text","text":"Hello","citations":[],"extra":true}"#)
    }

    @Test func everyPlaceOfADuplicatedKeyGetsTheNewValue() throws {
        let object = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(object.replacingFields([("a", 9)]).compactJSON == #"{"a":9,"b":2,"a":9}"#)
    }

    @Test func newKeysGoAtTheEndInTheOrderGiven() throws {
        let object = try JSONValue.parse(#"{"z":0}"#)
        #expect(object.replacingFields([("y", 1), ("x", 2), ("z", 3)]).compactJSON == #"{"z":3,"y":1,"x":2}"#)
    }

    @Test func aValueThatIsNotAnObjectIsReturnedAsIs() {
        let array: JSONValue = [1, 2]
        #expect(array.replacingFields([("a", 1)]) == array)
        #expect(JSONValue.null.replacingFields([("a", 1)]) == .null)
    }
}
