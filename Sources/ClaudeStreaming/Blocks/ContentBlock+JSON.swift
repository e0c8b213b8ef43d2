// A block back to API JSON.
//
// Each kind writes only the fields that deltas build (text, thinking,
// signature, citations, input, compaction fields) over the verbatim start
// object, keeping its key order (`JSONValue.replacingFields`); everything
// else is the start object's own.

public import IncrementalJSON

extension ContentBlock {
    /// The block as the non-streaming API returns it: ready to send back as
    /// part of the assistant turn. Opaque fields are the start object's own.
    ///
    /// - Complexity: O(size of the block).
    public var json: JSONValue { visit(JSON()) }
}

extension JSONValue {
    /// The value re-marked complete all the way down, as its compact JSON
    /// encoding presents it (open nodes closed).
    var closed: JSONValue {
        var bytes: [UInt8] = []
        encodeCompact(into: &bytes)
        return (try? JSONValue.parse(bytes)) ?? self
    }
}
