// How many terminal columns text takes, so a line redrawn in place (`\r`,
// erase line, new text) never wraps: a wrapped line leaves its first rows on
// screen and every redraw then adds rows. East Asian wide characters and
// emoji take two columns, combining marks and zero-width characters none.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TerminalText {
    /// The width of the terminal on `fileDescriptor` in columns; nil when it
    /// is not a terminal or does not say.
    package static func columns(ofTerminal fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Columns `character` takes on a terminal: its widest scalar, so a
    /// letter with combining marks takes 1 and an emoji sequence joined by
    /// ZWJ takes 2; text presentation turned into emoji by VS16 (`☂️`) takes 2.
    package static func columns(of character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars { widest = max(widest, columns(of: scalar)) }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { widest = 2 }
        return widest
    }

    /// Columns `scalar` takes on its own: 0 for controls, combining and
    /// format characters, 2 for emoji presentation and East Asian wide or
    /// fullwidth characters, else 1.
    package static func columns(of scalar: Unicode.Scalar) -> Int {
        if isControl(scalar) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(scalar.value) ? 2 : 1
    }

    /// `text` cut so that it fits in `columns` columns, with `…` (one
    /// column) where it was cut; a text that fits comes back as it is.
    ///
    /// - Complexity: O(`columns`): reading stops once the text is known
    ///   not to fit (zero-width characters aside).
    package static func fitted(_ text: String, columns limit: Int) -> (text: String, wasCut: Bool) {
        var used = 0
        // Where the ellipsis goes if the text turns out not to fit.
        var cut = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let width = columns(of: text[index])
            if used + width <= limit - 1 { cut = text.index(after: index) }
            used += width
            if used > limit { return (String(text[..<cut]) + "…", true) }
            index = text.index(after: index)
        }
        return (text, false)
    }

    /// Wide and fullwidth ranges of Unicode's East Asian Width property.
    private static func isEastAsianWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
