// JSONArray: finished elements in shared append-only storage, plus at most
// one open (incomplete) last element held apart, so that a snapshot shares
// the finished part with the parser instead of copying it.

/// The elements of a JSON array, in order. The last element may be
/// incomplete while the array is still being parsed.
///
/// - Complexity: Copying O(1); subscript O(1).
public struct JSONArray: Sendable, Hashable, RandomAccessCollection {
    var _finished: AppendOnlyArray<JSONValue>
    /// The incomplete last element, if any (parser-owned position).
    var _open: _Indirect<JSONValue>?

    init(_finished: AppendOnlyArray<JSONValue>, open: JSONValue?) {
        self._finished = _finished
        self._open = open.map(_Indirect.init)
    }

    /// An array holding `elements`.
    public init(_ elements: [JSONValue] = []) {
        self.init(_finished: AppendOnlyArray(elements), open: nil)
    }

    public typealias Index = Int
    public typealias Element = JSONValue
    public var startIndex: Int { 0 }
    public var endIndex: Int { _finished.count + (_open == nil ? 0 : 1) }

    /// - Precondition: `0 <= index < count` (traps like `Array`). Use
    ///   ``element(at:)`` for an index that came from outside.
    public subscript(index: Int) -> JSONValue {
        if index == _finished.count, let open = _open { return open.value }
        return _finished[index]
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

/// A heap box so that a value can hold an optional of its own type.
final class _Indirect<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
