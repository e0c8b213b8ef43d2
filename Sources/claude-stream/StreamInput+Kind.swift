// Saying what an input is when no event came out of it. A server that
// answers 200 with an HTML page or a JSON error body, or a file saved from a
// browser, is a different mistake from a stream cut short, and the person
// needs the server's words, not "stream ended before message_stop".

import IncrementalJSON

extension StreamInput {
    /// The problem with an input that dispatched no event: empty, an HTML
    /// page, a JSON document (an API error body named by type and message).
    /// Nil when it may still be an event stream that happened to hold no
    /// event (only comments, say).
    func problemWithoutEvents() -> InputError? {
        guard byteCount > 0 else { return InputError(kind: .empty, message: "\(name): empty input") }
        var start = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        guard start < head.count else { return nil }
        let what: String
        switch head[start] {
        case UInt8(ascii: "<"):
            what = "an HTML or XML page (starts with \(Self.quotedLine(head[start...])))"
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            what = Self.describeJSON(head, whole: byteCount == head.count)
        default:
            return nil
        }
        return InputError(kind: .notEventStream, message: "\(name): not an event stream: \(what)")
    }

    /// The first line, cut to 40 characters, control characters dropped.
    private static func quotedLine(_ bytes: ArraySlice<UInt8>) -> String {
        let line = oneLine(String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }.prefix(160), as: UTF8.self))
        let shown = String(line.prefix(40))
        return "'\(shown)\(shown.count < line.count ? "…" : "")'"
    }

    /// `text` with control characters (line breaks, escapes) made spaces, so a
    /// message stays one line and cannot move the terminal's cursor.
    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    private static func describeJSON(_ bytes: [UInt8], whole: Bool) -> String {
        guard whole, let value = try? JSONValue.parse(bytes) else { return "a JSON document" }
        if value["type"]?.stringValue == "error", let error = value["error"] {
            let type = error["type"]?.stringValue ?? "unknown error"
            let message = error["message"]?.stringValue.map { ": " + oneLine($0) } ?? ""
            return "an API error body: \(oneLine(type))\(message)"
        }
        return "a JSON document"
    }
}
