// Numbers keep their exact text; conversions are exact or throw.

import Foundation
import IncrementalJSON
import Testing

@Suite struct JSONNumberTests {
    @Test func keepsExactText() throws {
        let value = try JSONValue.parse(#"[-12.50e3, 12345678901234567890123, 0.1000000000000000000001, -0, 1E+2]"#)
        #expect(value.compactJSON == "[-12.50e3,12345678901234567890123,0.1000000000000000000001,-0,1E+2]")
        #expect(value[0]?.numberValue?.text == "-12.50e3")
    }

    @Test func validatesText() {
        for good in ["0", "-0", "1.5", "1e5", "1E-5", "-12.50e+3", "123456789012345678901234567890"] {
            #expect(JSONNumber(text: good) != nil, "\(good)")
        }
        for bad in ["", "-", "+1", "01", "1.", ".5", "1e", "1e+", "0x10", "NaN", "Infinity", " 1", "1 ", "--1"] {
            #expect(JSONNumber(text: bad) == nil, "\(bad)")
        }
    }

    @Test func sixtyFourBitIntegers() throws {
        #expect(try JSONNumber(text: "9223372036854775807")?.int64() == Int64.max)
        #expect(try JSONNumber(text: "-9223372036854775808")?.int64() == Int64.min)
        #expect(try JSONNumber(text: "18446744073709551615")?.uint64() == UInt64.max)
        #expect(try JSONNumber(text: "-0")?.uint64() == 0)
        #expect(throws: JSONNumberError.outOfRange("9223372036854775808", type: "Int64")) {
            try JSONNumber(text: "9223372036854775808")?.int64()
        }
        #expect(throws: JSONNumberError.outOfRange("18446744073709551616", type: "UInt64")) {
            try JSONNumber(text: "18446744073709551616")?.uint64()
        }
        #expect(throws: JSONNumberError.outOfRange("-1", type: "UInt64")) { try JSONNumber(text: "-1")?.uint64() }
    }

    @Test func integralValuesInOtherNotations() throws {
        #expect(try JSONNumber(text: "1.0")?.int() == 1)
        #expect(try JSONNumber(text: "1e2")?.int() == 100)
        #expect(try JSONNumber(text: "12.5e1")?.int() == 125)
        #expect(try JSONNumber(text: "0e999999999")?.int() == 0)
        #expect(throws: JSONNumberError.notAnInteger("1.5")) { try JSONNumber(text: "1.5")?.int() }
        #expect(throws: JSONNumberError.notAnInteger("1e-1")) { try JSONNumber(text: "1e-1")?.int() }
        #expect(throws: JSONNumberError.outOfRange("1e30", type: "Int64")) { try JSONNumber(text: "1e30")?.int() }
        #expect(throws: JSONNumberError.outOfRange("1e999999999999", type: "Int64")) { try JSONNumber(text: "1e999999999999")?.int() }
    }

    @Test func doublesAndDecimals() throws {
        #expect(try JSONNumber(text: "-12.50e3")?.double() == -12500)
        #expect(throws: JSONNumberError.outOfRange("1e400", type: "Double")) { try JSONNumber(text: "1e400")?.double() }
        #expect(try JSONNumber(text: "1e-400")?.double() == 0)
        let decimal = try #require(try JSONNumber(text: "0.1000000000000000000001")?.decimal())
        #expect(decimal == Decimal(string: "0.1000000000000000000001"))
        #expect(try JSONNumber(text: "123.456")?.decimal() == Decimal(string: "123.456"))
    }

    @Test func fromSwiftValues() {
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(-7).text == "-7")
        #expect(JSONNumber(1.5).text == "1.5")
        #expect(JSONNumber(Double.nan).text == "0")
        #expect(JSONNumber(Double.infinity).text == "1.7976931348623157e+308")
        #expect(JSONNumber(text: JSONNumber(1e-7).text) != nil)
    }

    @Test func codableUsesExactTextThroughOwnDecoder() throws {
        let value = try JSONValue.parse(#"{"id": 12345678901234567890123}"#)
        struct Holder: Decodable { var id: JSONNumber }
        #expect(try JSONValueDecoder().decode(Holder.self, from: value).id.text == "12345678901234567890123")
        let encoded = try JSONEncoder().encode(JSONValue.parse("[1, -2, 2.5, true, null, \"x\"]"))
        #expect(String(decoding: encoded, as: UTF8.self) == #"[1,-2,2.5,true,null,"x"]"#)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a": [1, 2.5, "s", false, null]}"#.utf8))
        #expect(decoded == ["a": [1, 2.5, "s", false, nil]])
    }
}
