// Numbering cited sources: one number per source in the order first cited,
// shared by citations of the same page or document range, with a line
// naming each.

import IncrementalJSON
import Testing

@testable import ClaudeStreaming

private func citation(_ json: String) throws -> Citation { Citation(json: try JSONValue.parse(Array(json.utf8))) }

@Suite struct CitationSourcesTests {
    @Test func oneNumberPerSourceInTheOrderFirstCited() throws {
        let web = try citation(#"{"type":"web_search_result_location","cited_text":"c","url":"https://a.example/x","title":"Page A"}"#)
        let sameURL = try citation(#"{"type":"web_search_result_location","cited_text":"other","url":"https://a.example/x","title":"Page A"}"#)
        let pages = try citation(
            #"{"type":"page_location","cited_text":"d","document_index":0,"document_title":"Report","start_page_number":3,"end_page_number":5}"#)
        let characters = try citation(#"{"type":"char_location","cited_text":"e","document_index":2,"start_char_index":0,"end_char_index":4}"#)
        var sources = CitationSources()
        #expect(sources.markers(for: [web]) == "[1]")
        #expect(sources.markers(for: [pages, sameURL, web]) == "[2][1]")
        #expect(sources.number(for: characters) == 3)
        #expect(sources.markers(for: [Citation]()) == "")
        #expect(sources.lines == ["Page A <https://a.example/x>", #"document 0 "Report", pages 3–4"#, "document 2"])
    }

    @Test func eachKindNamesItsSource() throws {
        let cases: [(String, String)] = [
            (#"{"type":"page_location","document_index":1,"start_page_number":7,"end_page_number":8}"#, "document 1, page 7"),
            (#"{"type":"content_block_location","document_index":0,"start_block_index":1,"end_block_index":4}"#, "document 0, blocks 1–3"),
            (#"{"type":"search_result_location","source":"https://kb.example/1","title":"KB"}"#, "KB <https://kb.example/1>"),
            (#"{"type":"future_location","title":"T","url":"https://u.example"}"#, "T https://u.example"),
            (#"{"type":"future_location"}"#, "future_location"),
            (#"{"type":"page_location"}"#, "document ?, page ?"),
        ]
        for (json, line) in cases {
            #expect(CitationSources.describe(try citation(json)).line == line, "\(json)")
        }
    }
}
