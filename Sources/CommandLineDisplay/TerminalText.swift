// The one sanitizer for text from outside on its way to a terminal.
//
// Everything a server sends (model text, tool names, URLs, titles, stop
// reasons, error types and messages) can hold control characters, and a
// terminal obeys them: ESC starts a sequence that can recolour or clear the
// screen, move the cursor, set the window title, make a hyperlink that
// says one thing and opens another (OSC 8), or write the clipboard
// (OSC 52). U+009B and U+009D are the one-character forms of CSI and OSC,
// which some terminals obey too. So every such character is replaced by a
// visible escape before it is shown:
//
//     ESC (U+001B)  →  \u{1B}        CSI (U+009B)  →  \u{9B}
//     CR  (U+000D)  →  \u{D}         DEL (U+007F)  →  \u{7F}
//
// that is Swift's notation, hex digits upper case: C0 controls
// (U+0000–U+001F), DEL and C1 controls (U+0080–U+009F). Line feed and tab
// stay as they are in `.lines` (model text, multi-line messages) and are
// escaped too in `.singleLine` (a name, a URL, a title: one line of a
// layout that a line break would forge). Bytes that are not UTF-8 become
// U+FFFD. Nothing else changes: a safe text comes back byte for byte, and
// sanitizing twice gives what sanitizing once gave (an escape is printable
// ASCII). The escapes are for reading, not for reversing: a text that
// already holds `\u{1B}` looks the same as one that held ESC.
//
// JSON lines (`events`, `json` on a terminal) are text too, but an escape
// like `\u{1B}` would change their value. JSON already escapes C0 inside
// strings; `sanitized(jsonLines:)` writes the rest (DEL, C1) as JSON
// escapes (`\u009b`), which keeps the value, and bytes that are not UTF-8
// as U+FFFD.
//
// The guarantee, checked by the `terminal-text` fuzz target: whatever the
// input bytes, the output is valid UTF-8 and holds no C0 control (but line
// feed and tab in `.lines`, line feed in JSON lines), no DEL and no C1
// control; and JSON lines parse to the value they held.

/// Makes text from outside safe to show on a terminal: every control
/// character (C0, DEL, C1) becomes a visible escape such as `\u{1B}`.
///
/// Use it on every byte of server text that reaches a terminal (stdout or
/// stderr), and add the display's own styling afterwards.
package enum TerminalText {
    /// What a text is laid out as.
    package enum Layout: Sendable {
        /// One line of a layout (a name, a URL, a title, a stop reason):
        /// line feed and tab are escaped too.
        case singleLine
        /// Running text (model text, a multi-line message): line feed and
        /// tab are kept.
        case lines
    }

    /// `text` with every control character escaped (`ESC` → `\u{1B}`).
    ///
    /// - Complexity: O(length of `text`); a text without controls is returned as it is.
    package static func sanitized(_ text: some StringProtocol, layout: Layout = .singleLine) -> String {
        let utf8 = text.utf8
        if let safe = utf8.withContiguousStorageIfAvailable({ isSafe($0, layout: layout) }), safe {
            return String(text)
        }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, layout: layout, to: &output) }
        return String(output)
    }

    /// The bytes of `utf8` sanitized, or nil when they are already safe (the
    /// common case: printable ASCII costs one pass and no copy, other safe
    /// text a decoding pass).
    ///
    /// - Complexity: O(`utf8.count`).
    package static func sanitized(utf8: UnsafeBufferPointer<UInt8>, layout: Layout = .lines) -> [UInt8]? {
        if isSafe(utf8, layout: layout) { return nil }
        var output = String.UnicodeScalarView()
        // Decoding replaces every byte that is not UTF-8 with U+FFFD.
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            append(scalar, layout: layout, to: &output)
        }
        let sanitized = Array(String(output).utf8)
        // Safe text beyond ASCII (accents, CJK, emoji) comes back as it was.
        return sanitized.elementsEqual(utf8) ? nil : sanitized
    }

    /// Lines of JSON text with every control but the line feed written as a
    /// JSON escape (`\u009b`), tab and carriage return as spaces, or nil
    /// when there is none: the same JSON values, safe to print on a
    /// terminal. (Valid JSON holds tab and carriage return only as
    /// whitespace between tokens, and other controls only inside strings,
    /// where the escape means the same character.)
    ///
    /// - Complexity: O(`utf8.count`).
    package static func sanitized(jsonLines utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if !utf8.contains(where: { ($0 < 0x20 && $0 != 0x0A) || $0 >= 0x7F }) { return nil }
        var output = String.UnicodeScalarView()
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            if scalar == "\t" || scalar == "\r" {
                // JSON whitespace outside strings (inside one they are not
                // valid JSON at all): a space keeps the value.
                output.append(" ")
            } else if isControl(scalar) && scalar != "\n" {
                let hex = String(scalar.value, radix: 16)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        let sanitized = Array(String(output).utf8)
        return sanitized.elementsEqual(utf8) ? nil : sanitized
    }

    /// Whether `utf8` is printable ASCII (with line feed and tab in `.lines`),
    /// which is shown unchanged. Text with other bytes may be safe too; the
    /// slow path then decides scalar by scalar.
    ///
    /// - Complexity: O(`utf8.count`).
    package static func isSafe(_ utf8: UnsafeBufferPointer<UInt8>, layout: Layout) -> Bool {
        switch layout {
        case .singleLine:
            return !utf8.contains { $0 < 0x20 || $0 >= 0x7F }
        case .lines:
            return !utf8.contains { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 >= 0x7F }
        }
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func append(_ scalar: Unicode.Scalar, layout: Layout, to output: inout String.UnicodeScalarView) {
        let kept = layout == .lines && (scalar == "\n" || scalar == "\t")
        guard isControl(scalar), !kept else { return output.append(scalar) }
        output.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
    }
}
