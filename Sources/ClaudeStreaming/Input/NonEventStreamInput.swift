// A saved HTTP answer or a piped body can be an HTML error page or a JSON
// error instead of an event stream. SSE ignores lines it cannot read, so
// such input would only show up as "stream ended before message_stop" with
// the server's words dropped. The first non-blank byte tells them apart: an
// event stream's lines start with a field name, a colon (comment) or are
// empty; never with `<`, `{` or `[`.

/// Input that is plainly not an event stream, recognised from its first bytes.
public enum NonEventStreamInput: Sendable, Hashable, CustomStringConvertible {
    /// Starts with `<`: an HTML (or XML) page, such as a proxy's error page.
    case html
    /// Starts with `{` or `[`: a JSON body, such as an API error
    /// `{"type":"error","error":{…}}` (parse it to show its message).
    case json

    /// Looks at the first byte after a UTF-8 BOM and whitespace; nil when
    /// the input may be an event stream (or holds no such byte yet).
    ///
    /// - Complexity: O(leading whitespace).
    public init?<Bytes: Collection<UInt8>>(firstBytes bytes: Bytes) {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard let first = rest.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        switch first {
        case UInt8(ascii: "<"): self = .html
        case UInt8(ascii: "{"), UInt8(ascii: "["): self = .json
        default: return nil
        }
    }

    /// `input looks like HTML, not an event stream` (or JSON).
    public var description: String {
        switch self {
        case .html: "input looks like HTML, not an event stream"
        case .json: "input looks like JSON, not an event stream"
        }
    }
}
