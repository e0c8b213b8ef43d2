// The "a later snapshot only ever extends an earlier one" relation, used by
// the tests and the fuzzer and useful to callers that diff snapshots.

extension JSONValue {
    /// Nil when `later` extends this value (the same value, or a value this
    /// one could grow into by more input); otherwise where and why not.
    ///
    /// Rules: a complete node must be equal in `later`; an incomplete string
    /// must be a byte prefix of `later`'s; an incomplete array or object must
    /// have no more children than `later`, with the same keys in order, each
    /// child extended by `later`'s.
    ///
    /// - Complexity: O(size of this value).
    public func divergence(toward later: JSONValue) -> String? {
        firstDivergence(toward: later, path: "$")
    }

    private func firstDivergence(toward later: JSONValue, path: String) -> String? {
        if isComplete {
            return self == later ? nil : "\(path): complete \(compactJSON) became \(later.compactJSON)"
        }
        switch (kind, later.kind) {
        case (.string(let earlier), .string(let grown)):
            let isPrefix = earlier.utf8.withUnsafeBufferPointer { a in
                grown.utf8.withUnsafeBufferPointer { b in a.count <= b.count && a.elementsEqual(b.prefix(a.count)) }
            }
            return isPrefix ? nil : "\(path): string \(earlier.debugDescription) is not a prefix of \(grown.debugDescription)"
        case (.array(let earlier), .array(let grown)):
            guard earlier.count <= grown.count else { return "\(path): array shrank from \(earlier.count) to \(grown.count)" }
            for (index, element) in earlier.enumerated() {
                if let problem = element.firstDivergence(toward: grown[index], path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case (.object(let earlier), .object(let grown)):
            guard earlier.count <= grown.count else { return "\(path): object shrank from \(earlier.count) to \(grown.count)" }
            for (index, member) in earlier.entries.enumerated() {
                let next = grown.entries[index]
                guard member.key == next.key else { return "\(path): key \(member.key.debugDescription) became \(next.key.debugDescription)" }
                if let problem = member.value.firstDivergence(toward: next.value, path: "\(path).\(member.key)") { return problem }
            }
            return nil
        default:
            return "\(path): incomplete \(compactJSON) became \(later.compactJSON)"
        }
    }
}
