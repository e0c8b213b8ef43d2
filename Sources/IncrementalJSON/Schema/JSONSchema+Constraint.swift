// Constraints on a value beyond its type: the analogue of a guide on a
// generated property. Which ones the API's grammar can enforce decides how
// each is used:
//
// - sent in the schema: `format`, `pattern`, `enum` (`allowed`), and
//   `minItems` of 0 or 1 — what Claude's structured outputs and strict tools
//   accept (the API's "JSON Schema limitations": no numeric bounds, no
//   string lengths, no other item counts);
// - checked on decode only: `minimum`, `maximum`, `minLength`, `maxLength`,
//   `minItems` above 1, `maxItems`. They are written into the description
//   as well, so the model reads them, and a final value that breaks one is a
//   ``JSONSchemaViolation`` from ``JSONSchema/validate(_:)``.

import Foundation

extension JSONSchema {
    /// A constraint on a value beyond its type.
    ///
    /// Sent to the API: ``format(_:)``, ``pattern(_:)``, ``allowed(_:)``, and
    /// ``count(_:)`` / ``minCount(_:)`` when the lower bound is 0 or 1.
    /// Checked on decode only (and stated in the description for the model):
    /// ``range(_:)``, ``minimum(_:)``, ``maximum(_:)``, ``length(_:)``,
    /// ``minLength(_:)``, ``maxLength(_:)``, item counts above 1 and
    /// ``maxCount(_:)``.
    public enum Constraint: Sendable, Hashable {
        /// A string format: `date-time`, `date`, `time`, `duration`, `email`,
        /// `hostname`, `uri`, `ipv4`, `ipv6`, `uuid`. Sent.
        case format(String)
        /// A regular expression the string must contain a match of. Sent (the
        /// API accepts simple patterns: no backreferences, no lookaround).
        case pattern(String)
        /// The string must be one of these values. Sent as `enum`.
        case allowed([String])
        /// The number lies in this range. Checked on decode.
        case range(ClosedRange<Double>)
        /// The number is at least this. Checked on decode.
        case minimum(Double)
        /// The number is at most this. Checked on decode.
        case maximum(Double)
        /// The string's length in Unicode scalars lies in this range. Checked on decode.
        case length(ClosedRange<Int>)
        /// The string has at least this many Unicode scalars. Checked on decode.
        case minLength(Int)
        /// The string has at most this many Unicode scalars. Checked on decode.
        case maxLength(Int)
        /// The array's element count lies in this range. A lower bound of 0
        /// or 1 is sent as `minItems`; the rest is checked on decode.
        case count(ClosedRange<Int>)
        /// The array has at least this many elements (sent when 0 or 1).
        case minCount(Int)
        /// The array has at most this many elements. Checked on decode.
        case maxCount(Int)

        // MARK: Rendering

        /// Renders `wrapped` with the sent constraints as keywords and the
        /// others appended to the description.
        static func renderConstraints(
            _ constraints: [Constraint], on wrapped: JSONSchema, description: String?,
            render: (JSONSchema, String?) -> JSONValue
        ) -> JSONValue {
            var sent: [(String, JSONValue)] = []
            var stated: [String] = []
            var allowed: [String]?
            for constraint in constraints {
                switch constraint {
                case .format(let format): sent.append(("format", .string(format)))
                case .pattern(let pattern): sent.append(("pattern", .string(pattern)))
                case .allowed(let values): allowed = values
                case .range(let range): stated.append("at least \(jsonNumber(range.lowerBound)) and at most \(jsonNumber(range.upperBound))")
                case .minimum(let bound): stated.append("at least \(jsonNumber(bound))")
                case .maximum(let bound): stated.append("at most \(jsonNumber(bound))")
                case .length(let range): stated.append("\(range.lowerBound) to \(range.upperBound) characters")
                case .minLength(let bound): stated.append("at least \(bound) characters")
                case .maxLength(let bound): stated.append("at most \(bound) characters")
                case .count(let range):
                    if range.lowerBound <= 1 { sent.append(("minItems", .number(JSONNumber(range.lowerBound)))) }
                    stated.append("\(range.lowerBound) to \(range.upperBound) items")
                case .minCount(let bound):
                    if bound <= 1 { sent.append(("minItems", .number(JSONNumber(bound)))) } else { stated.append("at least \(bound) items") }
                case .maxCount(let bound): stated.append("at most \(bound) items")
                }
            }
            var base = wrapped
            if let allowed, case .string(_, let own) = wrapped { base = .string(enum: allowed, description: own) }
            let note = stated.isEmpty ? nil : "(" + stated.joined(separator: "; ") + ")"
            let merged = [description, note].compactMap { $0 }.joined(separator: " ")
            let rendered = render(base, merged.isEmpty ? nil : merged)
            guard let object = rendered.objectValue else { return rendered }
            return .object(object.entries.map { ($0.key, $0.value) } + sent)
        }

        // MARK: Checking

        /// What `value` breaks of this constraint, in words; nil when it holds
        /// (or does not apply to a value of that kind).
        func violation(by value: JSONValue) -> String? {
            switch self {
            case .format(let format):
                guard let text = value.stringValue else { return nil }
                return Self.formatHolds(format, text) ? nil : "\(text.debugDescription) is not a valid \(format)"
            case .pattern(let pattern):
                guard let text = value.stringValue else { return nil }
                guard let expression = try? NSRegularExpression(pattern: pattern) else { return "invalid pattern \(pattern.debugDescription)" }
                let range = NSRange(text.startIndex..., in: text)
                return expression.firstMatch(in: text, range: range) == nil ? "\(text.debugDescription) does not match \(pattern.debugDescription)" : nil
            case .allowed(let values):
                guard let text = value.stringValue else { return nil }
                return values.contains(text) ? nil : "\(text.debugDescription) is not one of \(values.map(\.debugDescription).joined(separator: ", "))"
            case .range(let range): return Self.boundViolation(value, min: range.lowerBound, max: range.upperBound)
            case .minimum(let bound): return Self.boundViolation(value, min: bound, max: nil)
            case .maximum(let bound): return Self.boundViolation(value, min: nil, max: bound)
            case .length(let range): return Self.intLength(value, min: range.lowerBound, max: range.upperBound)
            case .minLength(let bound): return Self.intLength(value, min: bound, max: nil)
            case .maxLength(let bound): return Self.intLength(value, min: nil, max: bound)
            case .count(let range): return Self.countViolation(value, min: range.lowerBound, max: range.upperBound)
            case .minCount(let bound): return Self.countViolation(value, min: bound, max: nil)
            case .maxCount(let bound): return Self.countViolation(value, min: nil, max: bound)
            }
        }

        private static func boundViolation(_ value: JSONValue, min: Double?, max: Double?) -> String? {
            guard let number = value.numberValue, let double = try? number.double() else { return nil }
            if let min, double < min { return "\(number.text) is less than \(jsonNumber(min))" }
            if let max, double > max { return "\(number.text) is greater than \(jsonNumber(max))" }
            return nil
        }

        private static func intLength(_ value: JSONValue, min: Int?, max: Int?) -> String? {
            guard let text = value.stringValue else { return nil }
            let length = text.unicodeScalars.count
            if let min, length < min { return "\(length) characters, fewer than \(min)" }
            if let max, length > max { return "\(length) characters, more than \(max)" }
            return nil
        }

        private static func countViolation(_ value: JSONValue, min: Int?, max: Int?) -> String? {
            guard let array = value.arrayValue else { return nil }
            if let min, array.count < min { return "\(array.count) items, fewer than \(min)" }
            if let max, array.count > max { return "\(array.count) items, more than \(max)" }
            return nil
        }

        private static func formatHolds(_ format: String, _ text: String) -> Bool {
            switch format {
            case "date-time": (try? Date(text, strategy: .iso8601)) != nil || fractionalDate(text) != nil
            case "uuid": UUID(uuidString: text) != nil
            case "uri": URL(string: text)?.scheme != nil
            default: true  // formats this package does not check are the API's to enforce
            }
        }
    }
}

/// A bound as the shortest text: `3` rather than `3.0`.
func jsonNumber(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

/// An ISO 8601 date-time with fractional seconds (`2026-01-02T03:04:05.678Z`).
func fractionalDate(_ text: String) -> Date? {
    try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}
