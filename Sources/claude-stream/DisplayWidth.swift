// How many terminal columns text takes, so a line redrawn in place (`\r`,
// erase line, new text) never wraps: a wrapped line leaves its first rows on
// screen and every redraw then adds rows. East Asian wide characters and
// emoji take two columns, combining marks and zero-width characters none.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum DisplayWidth {
    /// Columns of the terminal on standard output; 80 when it cannot be asked.
    static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Columns one grapheme cluster takes: its widest scalar (a base letter
    /// with combining marks is 1, an emoji sequence joined by ZWJ is 2).
    static func columns(of character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars { widest = max(widest, columns(of: scalar)) }
        // Text presentation turned into emoji by VS16 (e.g. ☂️) is drawn wide.
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { widest = 2 }
        return widest
    }

    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(value) ? 2 : 1
    }

    /// `text` cut so that it fits in `columns` columns, with `…` where it was cut.
    ///
    /// - Complexity: O(columns): it stops reading at the cut.
    static func fit(_ text: String, columns limit: Int) -> (text: String, wasCut: Bool) {
        var used = 0
        var end = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let width = Self.columns(of: character)
            if used + width > limit - 1 {
                // Room for the ellipsis: it takes one column.
                return (String(text[..<end]) + "…", true)
            }
            used += width
            index = text.index(after: index)
            end = index
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
