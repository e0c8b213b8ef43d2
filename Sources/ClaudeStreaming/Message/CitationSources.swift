// Numbering the sources that citations point to, so cited text reads as one
// paragraph with `[1]`, `[2]` at the end of the text each source supports
// and the sources listed once at the end. Markers are plain ASCII so tools
// reading the output can find them.

/// Numbers the sources citations point to, in the order they are first
/// cited: text ends each cited passage with markers such as `[1][3]`, and
/// the sources are listed once, by number.
///
/// ```swift
/// var sources = CitationSources()
/// for case .text(let block) in snapshot.content {
///     print(block.text.string + sources.markers(for: block.citations), terminator: "")
/// }
/// for (number, line) in zip(1..., sources.lines) { print("[\(number)] \(line)") }
/// ```
///
/// Two citations of one source (one URL, one document's page range) share
/// a number. Lines hold server text as sent: escape their control
/// characters before a terminal shows them.
public struct CitationSources: Sendable {
    /// One line per source, in the order they were first cited: a title and
    /// `<url>`, or a document and its pages.
    public private(set) var lines: [String] = []
    private var numbers: [String: Int] = [:]

    /// No source numbered yet.
    public init() {}

    /// The number (from 1) of the source `citation` points to; a source not
    /// seen before gets the next one.
    ///
    /// - Complexity: O(1) amortised, plus the size of the citation.
    public mutating func number(for citation: Citation) -> Int {
        let (key, line) = Self.describe(citation)
        if let known = numbers[key] { return known }
        lines.append(line)
        numbers[key] = lines.count
        return lines.count
    }

    /// `[1][3]`: the numbers of the distinct sources of `citations`, in order.
    public mutating func markers(for citations: some Sequence<Citation>) -> String {
        var seen: Set<Int> = []
        var text = ""
        for citation in citations {
            let number = number(for: citation)
            if seen.insert(number).inserted { text += "[\(number)]" }
        }
        return text
    }

    /// What identifies the source of `citation` (two citations of one page
    /// share it) and the line that names it: `Title <url>`, or
    /// `document 0 "Report", pages 3–4` (the API's end page is exclusive).
    public static func describe(_ citation: Citation) -> (key: String, line: String) {
        let json = citation.json
        func int(_ key: String) -> Int? { try? json[key]?.numberValue?.int() }
        func string(_ key: String) -> String? { json[key]?.stringValue }
        let document =
            "document \(citation.documentIndex.map(String.init) ?? "?")"
            + (string("document_title").map { " \"\($0)\"" } ?? "")
        switch citation.kind {
        case "web_search_result_location":
            let url = citation.url ?? "?"
            return ("url:" + url, (citation.title.map { $0 + " " } ?? "") + "<\(url)>")
        case "search_result_location":
            let source = string("source") ?? "?"
            return ("search:\(source)|\(citation.title ?? "")", (citation.title.map { $0 + " " } ?? "") + "<\(source)>")
        case "page_location":
            let pages = range(int("start_page_number"), int("end_page_number"), unit: "page")
            return ("doc:\(document)|\(pages)", "\(document), \(pages)")
        case "char_location":
            return ("doc:\(document)", document)
        case "content_block_location":
            let blocks = range(int("start_block_index"), int("end_block_index"), unit: "block")
            return ("doc:\(document)|\(blocks)", "\(document), \(blocks)")
        default:
            let kind = citation.kind ?? "citation"
            let line = [citation.title, citation.url].compactMap { $0 }.joined(separator: " ")
            return ("other:\(kind)|\(line)", line.isEmpty ? kind : line)
        }
    }

    /// `page 3` or `pages 3–5`; the API's end is exclusive.
    private static func range(_ start: Int?, _ end: Int?, unit: String) -> String {
        guard let start else { return "\(unit) ?" }
        guard let end, end > start + 1, end < Int.max else { return "\(unit) \(start)" }
        return "\(unit)s \(start)–\(end - 1)"
    }
}
