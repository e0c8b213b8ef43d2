// JSONObject: members in arrival order (duplicates kept), in the same three
// forms as ``JSONArray`` (a closed run of key and value nodes from the
// parser, an open object as a snapshot saw it, or members built in code).
// Lookup is a linear scan comparing key bytes (UTF-8, exactly as sent; no
// Unicode normalisation): model outputs have few keys
// per object, and an index would cost more to build per snapshot than it
// saves.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One member of an object built in code.
struct Member: Sendable, Hashable {
    var key: String
    var value: JSONValue
}

/// The members of a JSON object, in arrival order, duplicates included.
///
/// - Complexity: Copying O(1); key lookup O(count).
public struct JSONObject: Sendable, Hashable {
    var memberStorage: Children<Member>

    init(memberStorage: Children<Member>) {
        self.memberStorage = memberStorage
    }

    /// An object with `members` in the given order (duplicates kept).
    public init(_ members: [(String, JSONValue)] = []) {
        // Stored one by one into one exact buffer: a mapped array first
        // was an allocation, a copy and a free more, on every object
        // built in code (a tool call's start, one per call).
        var stored = AppendOnlyArray<Member>()
        if !members.isEmpty {
            stored.reserveCapacity(members.count)
            for (key, value) in members { stored.append(Member(key: key, value: value)) }
        }
        self.init(memberStorage: .values(stored))
    }

    /// Number of members, duplicates included.
    public var count: Int {
        switch memberStorage {
        case .values(let members): members.count
        case .run(let run): run.count
        case .open(let open): open.childNodeCount / 2 + (open.hasOpen ? 1 : 0)
        }
    }

    /// True when the object has no members (so far).
    public var isEmpty: Bool { count == 0 }

    /// The keys in arrival order, duplicates included.
    public var keys: [String] { entries.map(\.key) }

    /// The value of the last member named `key` (see ``JSONValue/subscript(_:)-(String)``).
    ///
    /// - Complexity: O(count).
    public subscript(key: String) -> JSONValue? {
        switch memberStorage {
        case .values(let members):
            var i = members.count
            while i > 0 {
                i -= 1
                let member = members[i]
                if member.key.utf8.elementsEqual(key.utf8) { return member.value }
            }
            return nil
        case .run(let run):
            return lastMatch(key, reader: run.reader, members: run.count, node: run.node, value: run.value)
        case .open(let open):
            if let last = open.open, open.reader.withText(of: open.openKey, { equals(key, $0) }) { return last }
            return lastMatch(
                key, reader: open.reader, members: open.childNodeCount / 2,
                node: open.childNode, value: open.childValue)
        }
    }

    /// The member at `index` in arrival order.
    ///
    /// - Precondition: `0 <= index < count`.
    func memberValue(at index: Int) -> (key: String, value: JSONValue) {
        switch memberStorage {
        case .values(let members):
            let member = members[index]
            return (member.key, member.value)
        case .run(let run):
            precondition(index >= 0 && index < run.count, "JSONObject index out of range")
            return (run.reader.key(of: run.node(2 &* index)), run.value(2 &* index &+ 1))
        case .open(let open):
            let reader = open.reader
            if index == open.childNodeCount / 2, let last = open.open { return (reader.key(of: open.openKey), last) }
            precondition(index >= 0 && index < open.childNodeCount / 2, "JSONObject index out of range")
            return (reader.key(of: open.childNode(2 &* index)), open.childValue(2 &* index &+ 1))
        }
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
            object.memberValue(at: index)
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

/// The value of the last of `members` key/value node pairs whose key is `key`.
@inline(__always)
private func lastMatch(
    _ key: String, reader: NodeReader, members: Int, node: (Int) -> Node, value: (Int) -> JSONValue
) -> JSONValue? {
    var i = members
    while i > 0 {
        i -= 1
        if reader.withText(of: node(2 &* i), { equals(key, $0) }) { return value(2 &* i &+ 1) }
    }
    return nil
}

/// Whether `key`'s UTF-8 equals `bytes`. One `memcmp`: the generic
/// `elementsEqual` walked an iterator, far more work even for a short key
/// (a lookup on every event that is parsed into a tree).
@inline(__always)
private func equals(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var key = key
    return key.withUTF8 { utf8 in
        guard utf8.count == bytes.count else { return false }
        guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }  // both empty
        return memcmp(a, b, utf8.count) == 0
    }
}
