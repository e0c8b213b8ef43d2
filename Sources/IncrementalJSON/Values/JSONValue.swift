// JSONValue: a JSON value, possibly still growing, as a caller sees it.
//
// Design
// ------
// A value is a `Kind` and an `isComplete` flag. A node the parser is still
// inside is incomplete, and so is every container on the path to it.
//
// Values are views, made when read. A parsed document is not a tree of
// JSONValues: the parser writes each finished value as an 8-byte `Node`
// into one append-only column per depth, and all string, long key and long
// number text into one byte array (Node.swift). A `JSONArray` or
// `JSONObject` says where its children are (`Children`): built in code
// (`.values`, an ``AppendOnlyArray``), a closed run of a column (`.run`), or
// a container the parser is still inside (`.open`, one level of the
// snapshot's `OpenPath`). A string is an ``AppendOnlyText``: short text
// inline, parsed text a slice of the document's bytes. Reading a child makes
// its JSONValue from its node in O(1), without allocating (except a number
// text over 16 bytes), and nothing is copied to take a snapshot.
//
// Worked example. After the chunk `{"id":7,"tags":["rain","heavy showers by noo`
// the parser holds
//
//   bytes     r a i n h e a v y ␠ s h o w e r s ␠ b y ␠ n o o
//             0       4                                     24
//   column 0  [ K"id"  N7 ]            short key and number, inside their nodes
//   column 1  [ S(0,4) ]               "rain": 4 bytes at offset 0
//
// and a snapshot is one `OpenPath`: level 0, the object (its children are
// column 0 from index 0, two nodes, and the open member's key K"tags");
// level 1, the array (column 1 from 0, one node); and the leaf, bytes
// 4..<24, a string without its closing quote. So `snapshot["tags"]` finds
// the open key and answers level 1 as an incomplete JSONArray;
// `[0]` reads S(0,4) into "rain"; `[1]` is the leaf, an incomplete string
// sharing bytes 4..<24. Feeding `n"]}` appends S(4,21) to column 1, closes
// the array as A(0,2) (children: column 1 from 0, two) appended with its
// key to column 0, now [K"id" N7 K"tags" A(0,2)], and closes the object
// into the root node O(0,2). No node moved; every earlier snapshot still
// reads its own prefix of the same columns and bytes.

/// A JSON value, possibly partial (see ``isComplete``).
public struct JSONValue: Sendable, Hashable {
    /// What kind of value this is, with its payload.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, kept as its source text.
        case number(JSONNumber)
        /// A string, as UTF-8 that may still grow.
        case string(AppendOnlyText)
        /// An array.
        case array(JSONArray)
        /// An object, members in document order.
        case object(JSONObject)
    }

    /// The value's kind and payload.
    public var kind: Kind
    /// False while the parser is still inside this node (a string without its
    /// closing quote, a container without its closing bracket).
    public var isComplete: Bool

    /// A value of `kind`, complete unless said otherwise.
    public init(_ kind: Kind, isComplete: Bool = true) {
        self.kind = kind
        self.isComplete = isComplete
    }

    // MARK: Complete values

    /// The complete value `null`.
    public static let null = JSONValue(.null)

    /// A complete boolean.
    public static func bool(_ value: Bool) -> JSONValue { JSONValue(.bool(value)) }

    /// A complete number.
    public static func number(_ value: JSONNumber) -> JSONValue { JSONValue(.number(value)) }

    /// A complete string.
    public static func string(_ value: String) -> JSONValue { JSONValue(.string(AppendOnlyText(value))) }

    /// A complete array of `elements`.
    ///
    /// - Complexity: O(`elements.count`).
    public static func array(_ elements: [JSONValue]) -> JSONValue {
        JSONValue(.array(JSONArray(elements)))
    }

    /// An object with `members` in the given order (duplicates kept).
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        JSONValue(.object(JSONObject(members)))
    }

    // MARK: Accessors (nil when the kind differs)

    /// The string's text (so far, if incomplete); nil for other kinds.
    ///
    /// - Complexity: O(length): it decodes. Use ``text`` to share the bytes.
    public var stringValue: String? {
        if case .string(let text) = kind { return text.string }
        return nil
    }

    /// The string's shared UTF-8 storage; nil for other kinds.
    public var text: AppendOnlyText? {
        if case .string(let text) = kind { return text }
        return nil
    }

    /// The boolean; nil for other kinds.
    public var boolValue: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    /// The number; nil for other kinds.
    public var numberValue: JSONNumber? {
        if case .number(let value) = kind { return value }
        return nil
    }

    /// The array; nil for other kinds.
    public var arrayValue: JSONArray? {
        if case .array(let value) = kind { return value }
        return nil
    }

    /// The object; nil for other kinds.
    public var objectValue: JSONObject? {
        if case .object(let value) = kind { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The object member named `key`; nil when absent or not an object.
    /// With duplicate keys the **last** one wins (what most JSON parsers and
    /// the API itself do), while ``JSONObject/entries`` keeps them all.
    ///
    /// - Complexity: O(members).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The array element at `index`; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        arrayValue?.element(at: index)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON (incomplete nodes closed).
    public var description: String { compactJSON }
}
