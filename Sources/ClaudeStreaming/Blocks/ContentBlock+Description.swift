// One-line readable forms of content blocks and citations: the block's type,
// its size or its call, and whether it is still streaming. Long text is
// counted, not printed; a tool input is shown cut to 60 characters.

extension ContentBlock: CustomStringConvertible, CustomDebugStringConvertible {
    /// `text(42 chars, 1 citation)`, `tool_use get_weather(toolu_1) {"city":"Par…" (streaming)`, ….
    public var description: String {
        let detail: String
        switch self {
        case .text(let b):
            detail = "\(b.text.string.count) chars"
                + (b.citations.isEmpty ? "" : ", \(b.citations.count) citation\(b.citations.count == 1 ? "" : "s")")
                + (b.structuredError.map { ", not JSON: \($0)" } ?? "")
        case .thinking(let b):
            detail = "\(b.thinking.string.count) chars" + (b.signature == nil ? "" : ", signed")
        case .toolUse(let b):
            let input = b.input.compactJSON
            let shown = input.count > 60 ? String(input.prefix(60)) + "…" : input
            detail = "\(b.name) \(b.id) \(shown)" + (b.inputError.map { ", input is not JSON: \($0)" } ?? "")
        case .toolResult(let b):
            detail = "for \(b.toolUseID)"
        case .compaction(let b):
            detail = "\(b.content?.count ?? 0) chars" + (b.encryptedContent == nil ? "" : ", encrypted")
        case .fallback(let b):
            detail = "\(b.fromModel ?? "?") → \(b.toModel ?? "?")"
        case .redactedThinking, .containerUpload, .unknown:
            let opaque: OpaqueBlock? = switch self {
            case .redactedThinking(let b), .containerUpload(let b), .unknown(let b): b
            default: nil
            }
            detail = "\(start.compactJSON.utf8.count) bytes kept verbatim"
                + ((opaque?.unknownDeltas.count ?? 0) > 0 ? ", \(opaque?.unknownDeltas.count ?? 0) unknown deltas" : "")
        }
        return "\(type)(\(detail)\(isComplete ? "" : ", streaming"))"
    }

    public var debugDescription: String { description }
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
