// JSONObject: members in arrival order (duplicates kept), finished members in
// shared append-only storage plus at most one open member held apart, like
// ``JSONArray``. Lookup is a linear scan: model outputs have few keys per
// object, and an index would cost more to build per snapshot than it saves.

/// One member of a JSON object.
struct _Member: Sendable, Hashable {
    var key: String
    var value: JSONValue
}

/// The members of a JSON object, in arrival order, duplicates included.
///
/// - Complexity: Copying O(1); key lookup O(count).
public struct JSONObject: Sendable, Hashable {
    var _finished: AppendOnlyArray<_Member>
    var _open: _Indirect<_Member>?

    init(_finished: AppendOnlyArray<_Member>, open: _Member?) {
        self._finished = _finished
        self._open = open.map(_Indirect.init)
    }

    /// An object with `members` in the given order (duplicates kept).
    public init(_ members: [(String, JSONValue)] = []) {
        self.init(_finished: AppendOnlyArray(members.map { _Member(key: $0.0, value: $0.1) }), open: nil)
    }

    /// Number of members, duplicates included.
    public var count: Int { _finished.count + (_open == nil ? 0 : 1) }
    public var isEmpty: Bool { count == 0 }

    /// The keys in arrival order, duplicates included.
    public var keys: [String] { entries.map(\.key) }

    /// The value of the last member named `key` (see ``JSONValue/subscript(key:)``).
    ///
    /// - Complexity: O(count).
    public subscript(key: String) -> JSONValue? {
        if let open = _open, open.value.key == key { return open.value.value }
        var i = _finished.count
        while i > 0 {
            i -= 1
            let member = _finished[i]
            if member.key == key { return member.value }
        }
        return nil
    }

    /// The members in arrival order, duplicates included.
    public var entries: Entries { Entries(object: self) }

    /// The members of a ``JSONObject`` as `(key, value)` pairs.
    public struct Entries: RandomAccessCollection, Sendable {
        let object: JSONObject
        public typealias Element = (key: String, value: JSONValue)
        public typealias Index = Int
        public var startIndex: Int { 0 }
        public var endIndex: Int { object.count }

        /// - Precondition: `0 <= index < count`.
        public subscript(index: Int) -> (key: String, value: JSONValue) {
            let member: _Member
            if index == object._finished.count, let open = object._open { member = open.value } else { member = object._finished[index] }
            return (member.key, member.value)
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count
            && lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for (key, value) in entries {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}
