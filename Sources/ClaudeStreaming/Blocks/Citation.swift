// One citation of a text block, kept whole so replay is exact.

public import IncrementalJSON

/// One citation of a text block. `kind` names its `type`
/// (`char_location`, `page_location`, `content_block_location`,
/// `web_search_result_location`, `search_result_location`, or a new one);
/// the JSON is kept whole so replay is exact.
public struct Citation: Sendable, Hashable {
    /// The citation object, verbatim.
    public var json: JSONValue

    /// The citation's `type`, e.g. `char_location`.
    public var kind: String? { json["type"]?.stringValue }
    /// The quoted passage (`cited_text`).
    public var citedText: String? { json["cited_text"]?.stringValue }
    /// The cited page's `url` (web search citations).
    public var url: String? { json["url"]?.stringValue }
    /// The cited source's `title`.
    public var title: String? { json["title"]?.stringValue }
    /// The cited document's index among the request's documents (`document_index`); nil when absent or not an integer.
    public var documentIndex: Int? { try? json["document_index"]?.numberValue?.int() }
}

extension Citation: CustomStringConvertible, CustomDebugStringConvertible {
    /// `web_search_result_location "Title" <https://…>`, `page_location document 0`, ….
    public var description: String {
        var parts = [kind ?? "citation"]
        if let title { parts.append("\"\(title)\"") }
        if let url { parts.append("<\(url)>") }
        if let documentIndex { parts.append("document \(documentIndex)") }
        if let citedText { parts.append("cites \(citedText.count) chars") }
        return parts.joined(separator: " ")
    }

    public var debugDescription: String { description }
}
