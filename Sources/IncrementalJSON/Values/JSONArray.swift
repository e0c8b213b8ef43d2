// JSONArray: the elements of an array in one of three forms, chosen by who
// made it (see Node.swift for the parser's document layout):
// - `.run`: a closed array from the parser, a run of nodes in its document;
// - `.open`: an array the parser is still inside, as a snapshot saw it: the
//   finished elements (shared with the parser, which appends past them) and
//   at most one open, incomplete last element;
// - `.values`: an array built in code from `JSONValue`s.
// Every form is read the same way; elements are made on access in O(1).

/// The elements of a JSON array, in order. The last element may be
/// incomplete while the array is still being parsed.
///
/// - Complexity: Copying O(1); subscript O(1).
public struct JSONArray: Sendable, Hashable, RandomAccessCollection {
    var arrayElements: Children<JSONValue>

    init(arrayElements: Children<JSONValue>) {
        self.arrayElements = arrayElements
    }

    /// An array holding `elements`.
    public init(_ elements: [JSONValue] = []) {
        self.init(arrayElements: .values(AppendOnlyArray(elements)))
    }

    public typealias Index = Int
    public typealias Element = JSONValue
    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch arrayElements {
        case .values(let values): values.count
        case .run(let run): run.count
        case .open(let open): open.childNodeCount + (open.hasOpen ? 1 : 0)
        }
    }

    /// - Precondition: `0 <= index < count` (traps like `Array`). Use
    ///   ``element(at:)`` for an index that came from outside.
    public subscript(index: Int) -> JSONValue {
        switch arrayElements {
        case .values(let values):
            return values[index]
        case .run(let run):
            precondition(index >= 0 && index < run.count, "JSONArray index out of range")
            return run.value(index)
        case .open(let open):
            if index == open.childNodeCount, let last = open.open { return last }
            precondition(index >= 0 && index < open.childNodeCount, "JSONArray index out of range")
            return open.childValue(index)
        }
    }

    /// The element at `index`, or nil when out of range (never traps).
    public func element(at index: Int) -> JSONValue? {
        guard index >= 0 && index < endIndex else { return nil }
        return self[index]
    }

    public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}
