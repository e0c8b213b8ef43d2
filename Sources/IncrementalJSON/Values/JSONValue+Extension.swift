// The "a later snapshot only ever extends an earlier one" relation, used by
// the tests and the fuzzer and useful to callers that diff snapshots.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        guard let found = firstDivergence(toward: later) else { return nil }
        return "$\(found.reversedPath.reversed().joined()): \(found.problem)"
    }

    /// Where two values part, and why. The path is built only for a value
    /// that diverges, on the way out of the recursion: naming every child
    /// on the way in cost more than the comparison itself.
    private struct Divergence {
        /// Path components from the diverging node up to the root's child:
        /// `[3]`, `.key`.
        var reversedPath: [String] = []
        let problem: String
    }

    private func firstDivergence(toward later: JSONValue) -> Divergence? {
        if isComplete {
            return self == later ? nil : Divergence(problem: "complete \(compactJSON) became \(later.compactJSON)")
        }
        switch (kind, later.kind) {
        case (.string(let earlier), .string(let grown)):
            // `memcmp`, not `elementsEqual`: unspecialised in a debug build,
            // the generic compare was most of a prefix-consistency test's time.
            let isPrefix = earlier.utf8.withUnsafeBufferPointer { a in
                grown.utf8.withUnsafeBufferPointer { b in
                    guard a.count <= b.count else { return false }
                    guard let first = a.baseAddress, let second = b.baseAddress else { return a.isEmpty }
                    return memcmp(first, second, a.count) == 0
                }
            }
            if isPrefix { return nil }
            return Divergence(problem: "string \(earlier.debugDescription) is not a prefix of \(grown.debugDescription)")
        case (.array(let earlier), .array(let grown)):
            guard earlier.count <= grown.count else {
                return Divergence(problem: "array shrank from \(earlier.count) to \(grown.count)")
            }
            for (index, element) in earlier.enumerated() {
                if var found = element.firstDivergence(toward: grown[index]) {
                    found.reversedPath.append("[\(index)]")
                    return found
                }
            }
            return nil
        case (.object(let earlier), .object(let grown)):
            guard earlier.count <= grown.count else {
                return Divergence(problem: "object shrank from \(earlier.count) to \(grown.count)")
            }
            for (index, member) in earlier.entries.enumerated() {
                let next = grown.entries[index]
                guard member.key == next.key else {
                    return Divergence(problem: "key \(member.key.debugDescription) became \(next.key.debugDescription)")
                }
                if var found = member.value.firstDivergence(toward: next.value) {
                    found.reversedPath.append(".\(member.key)")
                    return found
                }
            }
            return nil
        default:
            return Divergence(problem: "incomplete \(compactJSON) became \(later.compactJSON)")
        }
    }
}
