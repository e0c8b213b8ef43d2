import IncrementalJSON

// Codable means API JSON: a request codes as its body (without `stream`),
// the same JSON `apiJSONBytes()` writes and `init(apiJSON:)` reads. Through
// Foundation's coders numbers pass through Double and Int, and key order is
// the coder's; the byte-exact way is `apiJSONBytes()`. The pieces of a
// request have no coded form of their own: a piece is stored as part of a
// request, or as the API JSON its `apiJSON` initializers read.

extension MessageRequest: Codable {
    /// Decodes the API JSON of a request body (see ``init(apiJSON:resolveModel:)``).
    /// Through Foundation's decoders numbers pass through `Double`/`Int`;
    /// for exact bytes use ``init(apiJSON:resolveModel:)`` on a parsed value.
    public init(from decoder: any Decoder) throws {
        self = try MessageRequest(apiJSON: try JSONValue(from: decoder))
    }

    /// Encodes the request as the API JSON of its body, without `stream`
    /// (see ``apiJSON()``).
    public func encode(to encoder: any Encoder) throws {
        try apiJSON().encode(to: encoder)
    }
}
