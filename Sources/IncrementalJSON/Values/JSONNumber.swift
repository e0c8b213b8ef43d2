// JSONNumber: a JSON number kept as its exact source text.
//
// A model may emit a 64-bit identifier or a long decimal; converting to
// `Double` on the way in would silently change it. The text is kept as it
// arrived and converted only when the caller asks for a Swift type, and a
// conversion that cannot represent the value exactly (out of range, not an
// integer) throws instead of returning a rounded value. `double()` is the one
// conversion that rounds (that is what a `Double` is), but it still throws
// when the value overflows to infinity.
//
// Representation: number text of up to 16 bytes (nearly every number a
// model writes, 64-bit ids included) sits inline in two words, zero-padded
// (number text never holds a NUL byte, so the padding also gives the
// length). Only longer text is a `String`. Parsing a number thus costs a
// 16-byte copy, no allocation and no UTF-8 decoding; `text` decodes on
// demand.

import Foundation

/// Why a ``JSONNumber`` could not be converted to the requested type.
public enum JSONNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value has a fractional part, so it is not an integer.
    case notAnInteger(String)
    /// The value does not fit in the requested type.
    case outOfRange(String, type: String)

    public var description: String {
        switch self {
        case .notAnInteger(let text): "\(text) is not an integer"
        case .outOfRange(let text, let type): "\(text) does not fit in \(type)"
        }
    }
}

/// A JSON number that keeps its exact text (`-12.50e3` stays `-12.50e3`).
///
/// Equality and hashing compare the text, so `1.0` and `1` are different
/// numbers here (as they are different JSON texts).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    var storage: NumberText

    /// The exact number text, valid RFC 8259 number grammar.
    ///
    /// - Complexity: O(length); decodes (no allocation up to 15 bytes).
    public var text: String {
        switch storage {
        case .inline: withTextUTF8 { String(decoding: $0, as: UTF8.self) }
        case .long(let text): text
        }
    }

    /// A number from its text; nil unless `text` is an RFC 8259 number
    /// (no leading `+`, no leading zeros, no `.5`, no `1.`, no hex, no NaN).
    public init?(text: String) {
        var copy = text
        let valid = copy.withUTF8 { isValidNumberText($0) }
        guard valid else { return nil }
        self.init(_unchecked: text)
    }

    /// A number whose text the caller guarantees to be valid.
    init(_unchecked text: String) {
        var copy = text
        let inline = copy.withUTF8 { NumberText(inlining: $0) }
        storage = inline ?? .long(text)
    }

    /// A number whose UTF-8 text the caller guarantees to be valid.
    @inline(__always)
    init(_unchecked bytes: UnsafeBufferPointer<UInt8>) {
        storage = NumberText(inlining: bytes) ?? .long(String(decoding: bytes, as: UTF8.self))
    }

    /// The number with `value`'s decimal text.
    public init(_ value: Int) { self.init(_unchecked: String(value)) }

    /// The number with `value`'s shortest round-tripping text.
    ///
    /// JSON has no NaN or infinity: NaN becomes `0` and ±infinity the largest
    /// finite `Double` of that sign, so the result is always valid JSON.
    public init(_ value: Double) {
        if value.isNaN {
            self.init(_unchecked: "0")
            return
        }
        let finite = value.isInfinite ? (value < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) : value
        // Swift prints e.g. "1e-07", "1.0", "5e+20": all valid JSON numbers.
        self.init(_unchecked: "\(finite)")
    }

    public var description: String { text }

    /// Calls `body` with the number's UTF-8 text, without allocating.
    func withTextUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .inline(let low, let high):
            return _withInlineBytes(of: (low, high), count: NumberText.inlineCount(low, high), body)
        case .long(var text):
            return text.withUTF8(body)
        }
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.inline(let a0, let a1), .inline(let b0, let b1)): a0 == b0 && a1 == b1
        case (.long(let a), .long(let b)): a == b
        // Text of up to 16 bytes is always inline, so the forms never match.
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        withTextUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    // MARK: Conversions

    /// The value as `Int`, or an error when it is not an integer or out of range.
    public func int() throws(JSONNumberError) -> Int {
        // Int may be 32 bits (watchOS), so narrow with a check.
        guard let value = Int(exactly: try int64()) else { throw .outOfRange(text, type: "Int") }
        return value
    }

    /// The value as `Int64`, or an error when it is not an integer or out of range.
    public func int64() throws(JSONNumberError) -> Int64 {
        let wide = try decodeInteger(typeName: "Int64")
        if wide.negative {
            if wide.magnitude > UInt64(Int64.max) + 1 { throw .outOfRange(text, type: "Int64") }
            // -(2^63) has no positive Int64 counterpart, so negate in two's complement.
            return Int64(bitPattern: 0 &- wide.magnitude)
        }
        if wide.magnitude > UInt64(Int64.max) { throw .outOfRange(text, type: "Int64") }
        return Int64(wide.magnitude)
    }

    /// The value as `UInt64`, or an error when it is negative, not an integer or out of range.
    public func uint64() throws(JSONNumberError) -> UInt64 {
        let wide = try decodeInteger(typeName: "UInt64")
        if wide.negative && wide.magnitude != 0 { throw .outOfRange(text, type: "UInt64") }
        return wide.magnitude
    }

    /// The nearest `Double`. Throws when the magnitude overflows `Double`.
    public func double() throws(JSONNumberError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .outOfRange(text, type: "Double") }
        return value
    }

    /// The value as `Decimal` (38 significant digits, exponent -128...127).
    /// Throws when Foundation cannot represent it.
    public func decimal() throws(JSONNumberError) -> Decimal {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            throw .outOfRange(text, type: "Decimal")
        }
        return value
    }

    /// Sign and magnitude of an integral value, exactly, or an error.
    private func decodeInteger(typeName: String) throws(JSONNumberError) -> (negative: Bool, magnitude: UInt64) {
        let parts = withTextUTF8 { decompose($0) }
        guard let parts else { throw .notAnInteger(text) }
        // Value = digits × 10^exponent with `digits` stripped of trailing zeros.
        var digits = parts.digits[...]
        while let first = digits.first, first == UInt8(ascii: "0") { digits = digits.dropFirst() }
        if digits.isEmpty { return (parts.negative, 0) }
        var exponent = parts.exponent
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits = digits.dropLast()
            exponent += 1
        }
        if exponent < 0 { throw .notAnInteger(text) }
        if digits.count + exponent > 20 { throw .outOfRange(text, type: typeName) }
        var value: UInt64 = 0
        for digit in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit &- UInt8(ascii: "0")))
            if o1 || o2 { throw .outOfRange(text, type: typeName) }
            value = sum
        }
        for _ in 0..<exponent {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { throw .outOfRange(text, type: typeName) }
            value = times10
        }
        return (parts.negative, value)
    }
}

/// Number text stored inline (up to 16 bytes, zero-padded, in memory order)
/// or, when longer, as a `String`.
enum NumberText: Sendable {
    case inline(UInt64, UInt64)
    case long(String)

    /// The inline form of `bytes`, or nil when they do not fit.
    @inline(__always)
    init?(inlining bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16, let base = bytes.baseAddress else {
            if bytes.isEmpty {
                self = .inline(0, 0)
                return
            }
            return nil
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.baseAddress?.copyMemory(from: base, byteCount: bytes.count)
        }
        self = .inline(words.0, words.1)
    }

    /// Length of inline text: the bytes before the zero padding.
    @inline(__always)
    static func inlineCount(_ low: UInt64, _ high: UInt64) -> Int {
        // Little-endian values put memory byte i at bits 8i...8i+7.
        let low = UInt64(littleEndian: low)
        let high = UInt64(littleEndian: high)
        if high != 0 { return 16 - high.leadingZeroBitCount / 8 }
        return 8 - low.leadingZeroBitCount / 8
    }
}

/// Sign, all mantissa digits (integer then fraction), and the power of ten
/// that applies to them. Nil for text that is not a valid number.
private func decompose(_ bytes: UnsafeBufferPointer<UInt8>) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
    guard isValidNumberText(bytes) else { return nil }
    var i = 0
    let negative = bytes[0] == UInt8(ascii: "-")
    if negative { i = 1 }
    var digits: [UInt8] = []
    var fractionDigits = 0
    var inFraction = false
    while i < bytes.count {
        let b = bytes[i]
        if b == UInt8(ascii: ".") {
            inFraction = true
            i += 1
            continue
        }
        if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { break }
        digits.append(b)
        if inFraction { fractionDigits += 1 }
        i += 1
    }
    var exponent = 0
    if i < bytes.count {
        i += 1
        var expNegative = false
        if bytes[i] == UInt8(ascii: "-") {
            expNegative = true
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") {
            i += 1
        }
        while i < bytes.count {
            // Clamp: any exponent this large already decides the outcome.
            if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
            i += 1
        }
        if expNegative { exponent = -exponent }
    }
    return (negative, digits, exponent - fractionDigits)
}

/// True when `bytes` is exactly one RFC 8259 number.
///
/// - Complexity: O(`bytes.count`).
func isValidNumberText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var state = NumberState.start
    for b in bytes {
        guard let next = state.next(b) else { return false }
        state = next
    }
    return state.isTerminal
}

/// The number grammar as a resumable state machine (shared with the parser).
enum NumberState: UInt8, Sendable {
    case start, minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent

    /// The state after `b`, or nil when `b` cannot continue the number.
    @inline(__always)
    func next(_ b: UInt8) -> NumberState? {
        let isDigit = b &- UInt8(ascii: "0") < 10
        switch self {
        case .start:
            if b == UInt8(ascii: "-") { return .minus }
            return isDigit ? (b == UInt8(ascii: "0") ? .zero : .integer) : nil
        case .minus:
            return isDigit ? (b == UInt8(ascii: "0") ? .zero : .integer) : nil
        case .zero:
            if b == UInt8(ascii: ".") { return .dot }
            if b | 0x20 == UInt8(ascii: "e") { return .exponentMark }
            return nil
        case .integer:
            if isDigit { return .integer }
            if b == UInt8(ascii: ".") { return .dot }
            if b | 0x20 == UInt8(ascii: "e") { return .exponentMark }
            return nil
        case .dot:
            return isDigit ? .fraction : nil
        case .fraction:
            if isDigit { return .fraction }
            if b | 0x20 == UInt8(ascii: "e") { return .exponentMark }
            return nil
        case .exponentMark:
            if b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { return .exponentSign }
            return isDigit ? .exponent : nil
        case .exponentSign, .exponent:
            return isDigit ? .exponent : nil
        }
    }

    /// Reads number bytes from `p[i]` on, starting in this state: where
    /// the number stops (the first byte that cannot continue it, or `n`)
    /// and the state there. Both parsers read numbers with this.
    ///
    /// - Complexity: O(bytes read).
    @inline(__always)
    func scan(_ p: UnsafePointer<UInt8>, from i: Int, to n: Int) -> (end: Int, state: NumberState) {
        var state = self
        var j = i
        while j < n {
            let b = p[j]
            if b &- UInt8(ascii: "0") < 10, state == .integer || state == .fraction || state == .exponent {
                j &+= 1
                continue
            }
            guard let next = state.next(b) else { break }
            state = next
            j &+= 1
        }
        return (j, state)
    }

    /// True when the text so far is a complete number.
    var isTerminal: Bool {
        switch self {
        case .zero, .integer, .fraction, .exponent: true
        default: false
        }
    }
}
