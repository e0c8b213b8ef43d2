// JSONValue: one node of a (possibly still growing) JSON value tree.
//
// Design
// ------
// The tree is built for snapshots taken while a document streams in. Every
// node says whether it is complete (`isComplete`); a node the parser is still
// inside is incomplete, and so is every container on the path to it.
//
// Nothing in a node is ever copied to take a snapshot:
// - a string is an ``AppendOnlyText`` whose copies share one growing buffer;
// - an array keeps its finished elements in an ``AppendOnlyArray`` (shared with
//   the parser, which keeps appending past the snapshot's count) plus at most
//   one open, incomplete last element held separately;
// - an object does the same with its finished members.
// So a snapshot is the parser's open path (O(depth) small nodes) pointing at
// shared storage, and holding every snapshot of a stream holds one copy of
// the data, not one per snapshot.
//
// The open child of a container sits in a small heap box (`_Indirect`), so
// a node stays a few words wide without `indirect` cases.

/// A JSON value, possibly partial (see ``isComplete``).
public struct JSONValue: Sendable, Hashable {
    /// What kind of value this is, with its payload.
    public enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(AppendOnlyText)
        case array(JSONArray)
        case object(JSONObject)
    }

    /// The value's kind and payload.
    public var kind: Kind
    /// False while the parser is still inside this node (a string without its
    /// closing quote, a container without its closing bracket).
    public var isComplete: Bool

    public init(_ kind: Kind, isComplete: Bool = true) {
        self.kind = kind
        self.isComplete = isComplete
    }

    // MARK: Complete values

    public static let null = JSONValue(.null)

    public static func bool(_ value: Bool) -> JSONValue { JSONValue(.bool(value)) }

    public static func number(_ value: JSONNumber) -> JSONValue { JSONValue(.number(value)) }

    public static func string(_ value: String) -> JSONValue { JSONValue(.string(AppendOnlyText(value))) }

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

    public var boolValue: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = kind { return value }
        return nil
    }

    public var arrayValue: JSONArray? {
        if case .array(let value) = kind { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = kind { return value }
        return nil
    }

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
