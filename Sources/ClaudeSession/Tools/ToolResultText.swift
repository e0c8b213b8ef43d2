public import ClaudeTransport

// The cap on a tool result's text. A tool may return any amount of text,
// but the API refuses a request over 32 MB, and the whole result travels
// again in every later request of the conversation: so every text result
// of a ClientTool is cut to SessionConfiguration.maxToolResultBytes of
// UTF-8 where the session builds it (runTools), and the cut result says
// so, with how much there was. JSON escaping can make a byte of text up
// to six in the request (a control character becomes \u00XX), so the cap
// is on the text, well below the request limit.

extension SessionConfiguration {
    /// The default ``maxToolResultBytes``: 1 MiB.
    public static let defaultMaxToolResultBytes = 1 << 20
}

/// Tool result text cut to a size, saying that it was cut.
public enum ToolResultText {
    /// `text` itself when it has at most `limit` bytes of UTF-8 and is
    /// whole; else its longest prefix of whole Unicode scalars that,
    /// followed by a line saying how many bytes of how many are shown, has
    /// at most `limit` bytes. (A `limit` under the note's own size, about
    /// 50 bytes, gives the note alone.)
    ///
    /// - Parameters:
    ///   - text: the text, or the first part of it.
    ///   - limit: the most UTF-8 bytes of the result.
    ///   - wholeBytes: how many bytes the whole text had, when `text` is
    ///     already only its beginning; nil: `text` is whole.
    /// - Complexity: O(bytes of `text`).
    public static func fitting(_ text: String, within limit: Int, wholeBytes: Int? = nil) -> String {
        let count = text.utf8.count
        let whole = max(wholeBytes ?? count, count)
        if count <= limit && whole == count { return text }
        func note(_ shown: Int) -> String { "\n[cut: the first \(shown) of \(whole) bytes are shown]" }
        var shown = min(count, max(0, limit - note(limit).utf8.count))
        let bytes = Array(text.utf8)
        // Back to the start of a scalar: never half a character.
        while shown > 0 && shown < bytes.count && bytes[shown] & 0xC0 == 0x80 { shown -= 1 }
        return String(decoding: bytes[0..<shown], as: UTF8.self) + note(shown)
    }

    /// `content` with its text cut to `limit` bytes in all: a text, the
    /// compact text of a JSON value, and the text blocks of a block list in
    /// order (images, documents and verbatim content are left as they are).
    ///
    /// - Complexity: O(bytes of text).
    public static func capped(_ content: ToolResult.Content, within limit: Int) -> ToolResult.Content {
        switch content {
        case .text(let text):
            return .text(fitting(text, within: limit))
        case .json(let value):
            let text = value.compactJSON
            return text.utf8.count <= limit ? content : .text(fitting(text, within: limit))
        case .blocks(let parts):
            var room = limit
            return .blocks(
                parts.map { part in
                    guard case .text(let text) = part else { return part }
                    let fitted = fitting(text, within: room)
                    room = max(0, room - fitted.utf8.count)
                    return .text(fitted)
                })
        case .raw:
            return content
        }
    }
}
