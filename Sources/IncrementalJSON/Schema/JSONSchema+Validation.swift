// Checking a value against a JSONSchema. Reports every violation (not just
// the first) with a JSONPath-like location such as `$.days[2].city`.

/// One way a value breaks a schema.
public struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where, as `$`, `$.key`, `$.list[3]`.
    public var path: String
    /// What is wrong, in words.
    public var message: String

    /// A violation at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

extension JSONSchema {
    /// Every violation of this schema by `value` (empty when it conforms).
    /// An incomplete node is a violation: the schema describes final values.
    ///
    /// - Complexity: O(size of the value × alternatives of `anyOf`).
    public func validate(_ value: JSONValue) -> [JSONSchemaViolation] {
        var violations: [JSONSchemaViolation] = []
        checkRequest(value, path: "$", definitions: [:], into: &violations)
        return violations
    }

    private func checkRequest(
        _ value: JSONValue, path: String, definitions: [String: JSONSchema],
        into violations: inout [JSONSchemaViolation]
    ) {
        func fail(_ message: String) { violations.append(JSONSchemaViolation(path: path, message: message)) }
        if !value.isComplete { fail("value is incomplete") }
        switch self {
        case .object(let properties, _):
            guard let object = value.objectValue else { return fail("expected an object, found \(summary(value))") }
            for property in properties {
                if let member = object[property.name] {
                    property.schema.checkRequest(member, path: path + "." + property.name, definitions: definitions, into: &violations)
                } else if property.isRequired {
                    fail("missing required property \(property.name.debugDescription)")
                }
            }
            let known = Set(properties.map(\.name))
            for key in object.keys where !known.contains(key) {
                fail("unexpected property \(key.debugDescription)")
            }
        case .array(let items, _):
            guard let array = value.arrayValue else { return fail("expected an array, found \(summary(value))") }
            for (index, element) in array.enumerated() {
                items.checkRequest(element, path: path + "[\(index)]", definitions: definitions, into: &violations)
            }
        case .string(let allowed, _):
            guard let text = value.stringValue else { return fail("expected a string, found \(summary(value))") }
            if let allowed, !allowed.contains(text) {
                fail("\(text.debugDescription) is not one of \(allowed.map(\.debugDescription).joined(separator: ", "))")
            }
        case .number:
            if value.numberValue == nil { fail("expected a number, found \(summary(value))") }
        case .integer(let allowed, _):
            guard let number = value.numberValue else { return fail("expected an integer, found \(summary(value))") }
            do {
                _ = try number.int64()
            } catch {
                // A huge integer is still an integer; only a fraction is not.
                if case .notAnInteger = error { fail("expected an integer, found \(number.text)") }
            }
            if let allowed, !allowed.contains(where: { (try? number.int64()) == Int64($0) }) {
                fail("\(number.text) is not one of \(allowed.map(String.init).joined(separator: ", "))")
            }
        case .boolean:
            if value.boolValue == nil { fail("expected a boolean, found \(summary(value))") }
        case .anyOf(let alternatives, _):
            let matches = alternatives.contains { alternative in
                var trial: [JSONSchemaViolation] = []
                alternative.checkRequest(value, path: path, definitions: definitions, into: &trial)
                return trial.isEmpty
            }
            if !matches { fail("matches none of the \(alternatives.count) alternatives") }
        case .nullable(let wrapped):
            if !value.isNull { wrapped.checkRequest(value, path: path, definitions: definitions, into: &violations) }
        case .dictionary(let values, _):
            guard let object = value.objectValue else { return fail("expected an object, found \(summary(value))") }
            for (key, member) in object.entries {
                values.checkRequest(member, path: path + "." + key, definitions: definitions, into: &violations)
            }
        case .constrained(let wrapped, let constraints):
            wrapped.checkRequest(value, path: path, definitions: definitions, into: &violations)
            for constraint in constraints {
                if let message = constraint.violation(by: value) { fail(message) }
            }
        case .reference(let name):
            guard let target = definitions[name] else { return fail("no definition named \(name.debugDescription)") }
            target.checkRequest(value, path: path, definitions: definitions, into: &violations)
        case .defining(let list, let root):
            var known = definitions
            for definition in list { known[definition.name] = definition.schema }
            root.checkRequest(value, path: path, definitions: known, into: &violations)
        }
    }
}
