import Foundation

// An HTTP date as `retry-after` may carry it: the IMF-fixdate form of
// RFC 9110 §5.6.7, the only one a sender may generate:
//
//     Sun, 06 Nov 1994 08:49:37 GMT
//     ^^^  ^^ ^^^ ^^^^ ^^ ^^ ^^ ^^^
//     day  dd mon yyyy hh mm ss zone
//
// Read by hand, byte by byte, rather than by DateFormatter: the formatter is
// costly to build per answer, and on Linux it traps on some non-ASCII text
// (a combining mark, found by fuzz-transport-frames). The obsolete RFC 850
// and asctime forms are not read: a server that sends one gets its wait
// computed by the retry policy instead, which is what a missing header gives.

enum HTTPDate {
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or nil when it is not an IMF-fixdate with
    /// fields in range (a leap second, 60, is read as the next second).
    ///
    /// - Complexity: O(1): the form has 29 bytes.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29 else { return nil }
        func literal(_ at: Int, _ expected: String) -> Bool { bytes[at..<(at + expected.utf8.count)].elementsEqual(expected.utf8) }
        func name(_ at: Int, in names: [String]) -> Int? { names.firstIndex { literal(at, $0) } }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[at..<(at + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard name(0, in: days) != nil, literal(3, ", "), let day = digits(5, 2), literal(7, " "),
            let month = name(8, in: months), literal(11, " "), let year = digits(12, 4), literal(16, " "),
            let hour = digits(17, 2), literal(19, ":"), let minute = digits(20, 2), literal(22, ":"),
            let second = digits(23, 2), literal(25, " GMT")
        else { return nil }
        guard (1...daysIn(month: month + 1, year: year)).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar
    /// (counting from March, so the leap day is the last day of a year).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
