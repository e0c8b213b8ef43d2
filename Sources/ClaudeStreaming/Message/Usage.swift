// Usage: token counts, with the overwrite rule of `message_delta`.
//
// `message_delta.usage` carries cumulative totals, not increments: each field
// it sends replaces the earlier value, and a field it omits keeps its value.
// Unknown fields (`iterations`, `server_tool_use`, new ones) are kept too,
// in first-arrival order, so replay loses nothing. Where each key sits is
// kept beside the fields, so a delta of k keys costs O(k), not O(k × fields)
// (a scan per key made a delta of many keys quadratic; see
// Benchmarks/RESULTS-HISTORY.md, command line).

public import IncrementalJSON

/// Token usage of a message.
public struct Usage: Sendable, Hashable {
    /// Every usage field as last sent, in first-arrival order.
    public private(set) var fields: [(key: String, value: JSONValue)]
    /// The positions of each key in ``fields`` (several for a duplicated key).
    private var positions: [String: [Int]]

    init(_ json: JSONValue) {
        fields = []
        positions = [:]
        for (key, value) in json.objectValue?.entries ?? JSONObject().entries {
            positions[key, default: []].append(fields.count)
            fields.append((key, value))
        }
    }

    /// Writes each field of `delta` over the current one (totals, not increments).
    ///
    /// - Complexity: O(keys in `delta`) amortised.
    mutating func overwrite(with delta: JSONValue) {
        guard let object = delta.objectValue else { return }
        for (key, value) in object.entries {
            if let places = positions[key] {
                for at in places { fields[at].value = value }  // every place of a duplicated key
            } else {
                positions[key] = [fields.count]
                fields.append((key, value))
            }
        }
    }

    /// The value of `key` (the last one, if the key is duplicated).
    ///
    /// - Complexity: O(1) amortised.
    public subscript(key: String) -> JSONValue? { positions[key]?.last.map { fields[$0].value } }

    /// `input_tokens`: prompt tokens not read from or written to the cache.
    public var inputTokens: Int? { count("input_tokens") }
    /// `output_tokens`: tokens generated so far (a running total while streaming).
    public var outputTokens: Int? { count("output_tokens") }
    /// `cache_creation_input_tokens`: prompt tokens written to the cache.
    public var cacheCreationInputTokens: Int? { count("cache_creation_input_tokens") }
    /// `cache_read_input_tokens`: prompt tokens read from the cache.
    public var cacheReadInputTokens: Int? { count("cache_read_input_tokens") }
    /// `service_tier` (`standard`, `priority`, `batch`), as sent.
    public var serviceTier: String? { self["service_tier"]?.stringValue }

    private func count(_ key: String) -> Int? { try? self[key]?.numberValue?.int() }

    /// The usage object as API JSON.
    public var json: JSONValue { .object(fields.map { ($0.key, $0.value) }) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for (key, value) in fields {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}
