// A small JSON Schema checker for the subset the derived schemas use, written
// here from the JSON Schema rules and independent of `JSONSchema.validate`,
// so a round trip does not check the library with itself. It reads the
// rendered schema document (type, properties, required,
// additionalProperties, items, enum, anyOf, $ref/$defs, format, pattern,
// minItems) and returns every violation as "path: what".

import Foundation
import IncrementalJSON

struct SchemaCheck {
    let document: JSONValue

    func violations(of value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: document, path: "$", into: &found)
        return found
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        guard let ref = schema["$ref"]?.stringValue else { return schema }
        let name = String(ref.dropFirst("#/$defs/".count))
        return document["$defs"]?[name] ?? [:]
    }

    private func check(_ value: JSONValue, against raw: JSONValue, path: String, into found: inout [String]) {
        let schema = resolve(raw)
        if let alternatives = schema["anyOf"]?.arrayValue {
            let matching = alternatives.contains { alternative in
                var trial: [String] = []
                check(value, against: alternative, path: path, into: &trial)
                return trial.isEmpty
            }
            if !matching { found.append("\(path): no alternative matches") }
            return
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(where: { $0.compactJSON == value.compactJSON }) {
            found.append("\(path): \(value.compactJSON) not in enum")
        }
        switch schema["type"]?.stringValue {
        case "object":
            guard let object = value.objectValue else { return found.append("\(path): not an object") }
            let properties = schema["properties"]?.objectValue
            for required in Array(schema["required"]?.arrayValue ?? JSONArray()) {
                if let key = required.stringValue, object[key] == nil { found.append("\(path): missing \(key)") }
            }
            for (key, member) in object.entries {
                if let property = properties?[key] {
                    check(member, against: property, path: path + "." + key, into: &found)
                } else if let extra = schema["additionalProperties"], extra.boolValue == nil {
                    check(member, against: extra, path: path + "." + key, into: &found)
                } else {
                    found.append("\(path): unexpected \(key)")
                }
            }
        case "array":
            guard let array = value.arrayValue else { return found.append("\(path): not an array") }
            if let minimum = try? schema["minItems"]?.numberValue?.int(), array.count < minimum {
                found.append("\(path): fewer than \(minimum) items")
            }
            for (index, element) in array.enumerated() {
                check(element, against: schema["items"] ?? [:], path: "\(path)[\(index)]", into: &found)
            }
        case "string":
            guard let text = value.stringValue else { return found.append("\(path): not a string") }
            if let format = schema["format"]?.stringValue, !holds(format, text) { found.append("\(path): not a \(format)") }
            if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): does not match \(pattern)")
            }
        case "integer":
            guard let number = value.numberValue, !number.text.contains(".") || number.text.hasSuffix(".0") else {
                return found.append("\(path): not an integer")
            }
        case "number":
            if value.numberValue == nil { found.append("\(path): not a number") }
        case "boolean":
            if value.boolValue == nil { found.append("\(path): not a boolean") }
        case "null":
            if !value.isNull { found.append("\(path): not null") }
        default:
            found.append("\(path): schema without a type: \(schema.compactJSON)")
        }
    }

    private func holds(_ format: String, _ text: String) -> Bool {
        switch format {
        case "date-time": ISO8601DateFormatter().date(from: text) != nil
        case "uuid": UUID(uuidString: text) != nil
        case "uri": URL(string: text)?.scheme != nil
        case "email": text.contains("@")
        default: false
        }
    }
}
