// Writing fields over an object while keeping its key order: how a content
// block's verbatim start object gets the fields its deltas built, and how a
// request body gets fields set without disturbing the caller's layout.

extension JSONValue {
    /// An object with `fields` written over this one's: a key it has keeps
    /// its place (every place, if the key is duplicated, so that whichever
    /// one a reader takes is the new value), a new key goes at the end, in
    /// the order given. Not an object: returned as is.
    ///
    /// ```swift
    /// let start: JSONValue = ["type": "text", "text": "", "citations": []]
    /// start.replacingFields([("text", "Hello"), ("extra", true)]).compactJSON
    /// // {"type":"text","text":"Hello","citations":[],"extra":true}
    /// ```
    ///
    /// - Complexity: O(members + fields) amortised: keys are found through an
    ///   index of positions, not a scan of the members per field.
    public func replacingFields(_ fields: [(String, JSONValue)]) -> JSONValue {
        guard let object = objectValue else { return self }
        var entries: [(String, JSONValue)] = object.entries.map { ($0.key, $0.value) }
        var positions: [String: [Int]] = [:]
        for (at, entry) in entries.enumerated() { positions[entry.0, default: []].append(at) }
        for (key, value) in fields {
            if let places = positions[key] {
                for at in places { entries[at].1 = value }
            } else {
                positions[key] = [entries.count]
                entries.append((key, value))
            }
        }
        return .object(entries)
    }
}
