public import IncrementalJSON
import Synchronization

// JSON kept as its compact bytes: what a request sends byte for byte (a
// replayed response's content, a block or a message's content given as
// JSON), made once and shared by every request that carries it.

/// A JSON text kept as its compact bytes, so sending it again is a copy
/// (a long history is mostly replayed assistant turns: they are never
/// re-encoded, and every opaque field stays byte for byte).
///
/// The bytes can be made on first use: a response's content is encoded when
/// it is first sent back (or saved), not while the response is received.
public struct RawJSON: Sendable, Hashable {
    let storage: RawJSONStorage

    /// The compact encoding of `value`, made on first use.
    ///
    /// - Complexity: O(size of the value), once.
    public init(_ value: JSONValue) {
        storage = RawJSONStorage(.pending { value })
    }

    /// The compact encoding of the value `make` gives, both run on first use (once).
    public init(deferred make: @escaping @Sendable () -> JSONValue) {
        storage = RawJSONStorage(.pending(make))
    }

    /// Bytes that parse as one JSON text, nested at most `maxDepth` deep;
    /// they are re-encoded compactly so what is kept is always valid and compact.
    public init(validating bytes: [UInt8], maxDepth: Int = JSONParserOptions().maxDepth) throws(JSONParseError) {
        var compact: [UInt8] = []
        try JSONValue.parse(bytes, options: JSONParserOptions(maxDepth: maxDepth)).encodeCompact(into: &compact)
        storage = RawJSONStorage(.bytes(compact))
    }

    /// Compact JSON, valid as a whole.
    ///
    /// - Complexity: O(1) after the first use.
    public var bytes: [UInt8] { storage.bytes }

    /// The parsed value.
    ///
    /// - Complexity: O(size), a parse.
    public var value: JSONValue {
        // The bytes came from `encodeCompact`, so they always parse, at any
        // depth they were made with; null is unreachable.
        var options = JSONParserOptions()
        options.maxDepth = Int.max
        return (try? JSONValue.parse(bytes, options: options)) ?? .null
    }

    /// The JSON as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// What the JSON is, read from its first byte (compact text has no
    /// leading space): how a request writes it as content.
    package enum Shape {
        /// An array of blocks: its elements are blocks of the turn.
        case array
        /// One block.
        case object
        /// A message's content given as a string: one text block.
        case string
        /// Anything else (not content the API takes; sent as one element).
        case other
    }

    package var shape: Shape {
        switch bytes.first {
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "\""): .string
        default: .other
        }
    }

    public static func == (lhs: RawJSON, rhs: RawJSON) -> Bool { lhs.storage === rhs.storage || lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Where the bytes of one valid JSON text first nest deeper than `limit`:
    /// that depth and the byte offset of the bracket, or nil. A writer checks
    /// its output with this so it never writes what its reader refuses.
    ///
    /// - Complexity: O(size), one pass.
    public static func nestingExcess(in bytes: [UInt8], limit: Int) -> (depth: Int, offset: Int)? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return (depth, offset) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// The tool calls and results among the blocks (an array, or one block),
    /// found once per value: a long history checks each replayed response
    /// once, not at every request.
    var toolRuleBlocks: [ToolRuleBlock] {
        storage.toolBlocks { ToolRuleBlock.scan(RequestEncoder.arrayElements(of: value)) }
    }
}

/// A block the API's tool rules are about, or any other.
enum ToolRuleBlock: Sendable, Hashable {
    /// A client `tool_use` with its id.
    case call(String)
    /// A `tool_result` answering the id.
    case result(String)
    /// Any other block.
    case other

    init(_ block: JSONValue) {
        switch block["type"]?.stringValue {
        case "tool_use": self = block["id"]?.stringValue.map(ToolRuleBlock.call) ?? .other
        case "tool_result": self = block["tool_use_id"]?.stringValue.map(ToolRuleBlock.result) ?? .other
        default: self = .other
        }
    }

    static func scan(_ blocks: [JSONValue]) -> [ToolRuleBlock] { blocks.map(ToolRuleBlock.init) }
}

/// The bytes of a ``RawJSON``, made once from a pending value.
final class RawJSONStorage: Sendable {
    enum State {
        case pending(@Sendable () -> JSONValue)
        case bytes([UInt8])
    }

    private let state: Mutex<State>
    /// The tool blocks of the content, found on first use (see ``RawJSON/toolRuleBlocks``).
    private let toolBlocks = Mutex<[ToolRuleBlock]?>(nil)

    init(_ state: State) { self.state = Mutex(state) }

    /// `find` run once; every later call gives its answer.
    func toolBlocks(_ find: () -> [ToolRuleBlock]) -> [ToolRuleBlock] {
        if let known = toolBlocks.withLock({ $0 }) { return known }
        let found = find()
        toolBlocks.withLock { $0 = found }
        return found
    }

    var bytes: [UInt8] {
        state.withLock { state in
            switch state {
            case .bytes(let bytes):
                return bytes
            case .pending(let make):
                var bytes: [UInt8] = []
                make().encodeCompact(into: &bytes)
                state = .bytes(bytes)
                return bytes
            }
        }
    }
}

// Codable as its text: a JSON value through Foundation's coders would lose
// number text and key order, which thinking signatures and encrypted
// content need byte for byte.
extension RawJSON: Codable {
    /// The deepest nesting a coded ``RawJSON`` may have, encoded or decoded:
    /// the parser's 512 for a block's input plus the levels of a content
    /// array around it and a margin, so whatever a response holds comes back.
    public static let maxCodedDepth = 512 + 8

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try RawJSON(validating: Array(text.utf8), maxDepth: Self.maxCodedDepth) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not JSON: \(error)"))
        }
    }

    /// Encodes the compact text; refuses what the decoder would refuse
    /// (nesting deeper than ``maxCodedDepth``), so what is written reads back.
    public func encode(to encoder: any Encoder) throws {
        if let (depth, offset) = RawJSON.nestingExcess(in: bytes, limit: Self.maxCodedDepth) {
            throw EncodingError.invalidValue(
                text,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "JSON nested \(depth) deep at byte \(offset), deeper than the \(Self.maxCodedDepth) a decoder takes"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
