// Terminal columns of text, and text cut to a width: wide East Asian
// characters and emoji take two columns, combining and zero-width
// characters none, and a cut text never takes more than it was given.

import CommandLineDisplay
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct TerminalWidthTests {
    @Test func columnsOfCharacters() {
        #expect(TerminalText.columns(of: Character("a")) == 1)
        #expect(TerminalText.columns(of: Character("語")) == 2)
        #expect(TerminalText.columns(of: Character("Ａ")) == 2)
        #expect(TerminalText.columns(of: Character("🌍")) == 2)
        #expect(TerminalText.columns(of: Character("e\u{301}")) == 1)
        #expect(TerminalText.columns(of: Character("👩\u{200D}💻")) == 2)
        #expect(TerminalText.columns(of: Character("☂\u{FE0F}")) == 2)
        #expect(TerminalText.columns(of: Character("\u{1B}")) == 0)
        #expect(TerminalText.columns(of: Unicode.Scalar(0x9B)!) == 0)
        #expect(TerminalText.columns(of: Unicode.Scalar(0x200B)!) == 0)
    }

    @Test func fittedCutsWithAnEllipsisWithinTheColumns() {
        #expect(TerminalText.fitted("short", columns: 10) == ("short", false))
        #expect(TerminalText.fitted("exactly10!", columns: 10) == ("exactly10!", false))
        #expect(TerminalText.fitted("exactly10!+", columns: 10) == ("exactly10…", true))
        #expect(TerminalText.fitted("abcdef", columns: 4) == ("abc…", true))
        // A wide character that would straddle the edge is left out whole.
        #expect(TerminalText.fitted("ab語語", columns: 4) == ("ab…", true))
        #expect(TerminalText.fitted("語語語", columns: 5) == ("語語…", true))
        for text in ["héllo wörld", "語語語語語", "👩\u{200D}💻👩\u{200D}💻👩\u{200D}💻", "e\u{301}e\u{301}e\u{301}e\u{301}"] {
            for limit in 1...12 {
                let (cut, wasCut) = TerminalText.fitted(text, columns: limit)
                let width = cut.reduce(0) { $0 + TerminalText.columns(of: $1) }
                #expect(wasCut ? width <= limit : cut == text, "\(text) in \(limit)")
            }
        }
    }

    @Test func aPipeIsNotATerminal() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        #expect(TerminalText.columns(ofTerminal: fds[1]) == nil)
        #expect(TerminalText.columns(ofTerminal: -1) == nil)
    }
}
