// The live renderer, run as `replay FILE --speed 0` with plain output:
// every recorded stream's text comes out whole and in order with each cited
// source listed, every block type is drawn, and the cost stays linear in the
// number of blocks and of server-tool calls.

import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import Testing

/// `../shared/corpus/anthropic-sse`, or nil when absent.
enum RecordedStreams {
    static let directory = corpusFolder("anthropic-sse")

    /// `../shared/corpus/RELATIVE` (from the package root), or nil when absent.
    static func corpusFolder(_ relative: String) -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("shared/corpus/" + relative)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static var files: [URL] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".sse") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

@Suite(.enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct RendererTests {
    /// Messages as the library builds them (the completed ones, then the one
    /// an error or the end cut short).
    private func messages(of bytes: [UInt8]) -> [MessageSnapshot] {
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(allowsSequentialMessages: true))
        do {
            _ = try accumulator.feed(bytes)
            _ = try accumulator.finish()
            return accumulator.completedMessages
        } catch {
            return error.completedMessages + (error.snapshot.map { [$0] } ?? [])
        }
    }

    /// `text` without `[1]`-style markers (removed from both sides, so a
    /// text that itself holds `[3]` compares the same).
    private func withoutMarkers(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after[digits.endIndex...].first == "]" {
                rest = after[after.index(after: digits.endIndex)...]
            } else {
                result += "["
                rest = after
            }
        }
        return result + rest
    }

    /// The text of each run of consecutive text blocks (one paragraph on screen).
    private func textRuns(_ message: MessageSnapshot) -> [String] {
        var runs: [String] = []
        var current: String?
        for block in message.content {
            if case .text(let text) = block {
                current = (current ?? "") + text.text.string
            } else if let run = current {
                runs.append(run)
                current = nil
            }
        }
        if let current { runs.append(current) }
        return runs.filter { !$0.isEmpty }
    }

    @Test(.enabled(if: RecordedStreams.directory != nil, "../shared/corpus/anthropic-sse is absent"))
    func everyRecordingRendersItsTextInOrderAndItsSources() throws {
        let files = RecordedStreams.files
        #expect(files.count > 100)
        var citations = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let result = try CLI.run(["replay", file.path, "--speed", "0"])
            #expect([0, 1, 3].contains(result.status), "\(file.lastPathComponent): \(result.stderr)")
            let output = withoutMarkers(result.stdout)
            var position = output.startIndex
            var expectedLength = 0
            for message in messages(of: bytes) {
                for run in textRuns(message) {
                    let text = withoutMarkers(run)
                    expectedLength += text.count
                    guard let found = output.range(of: text, range: position..<output.endIndex) else {
                        Issue.record("\(file.lastPathComponent): text run missing or out of order: \(text.prefix(80))")
                        break
                    }
                    position = found.upperBound
                }
                for block in message.content {
                    guard case .text(let text) = block else { continue }
                    for citation in text.citations {
                        citations += 1
                        let source =
                            citation.url ?? citation.json["document_title"]?.stringValue ?? citation.title
                            ?? citation.json["source"]?.stringValue
                        if let source { #expect(result.stdout.contains(source), "\(file.lastPathComponent): source \(source)") }
                        #expect(result.stdout.contains("Sources:\n[1] "), "\(file.lastPathComponent)")
                    }
                }
            }
            #expect(output.count >= expectedLength)
            #expect(!result.stdout.contains("\u{1B}["), "no escape codes in plain output")
        }
        #expect(citations > 0, "the corpus has cited text")
    }

    @Test func citedTextFlowsAsOneParagraphWithNumberedSources() throws {
        let web = #"{"type":"web_search_result_location","cited_text":"c","url":"https://a.example/x","title":"Page A","encrypted_index":"e"}"#
        let page = #"{"type":"page_location","cited_text":"d","document_index":0,"document_title":"Report","start_page_number":3,"end_page_number":5}"#
        let stream =
            Fixtures.messageStart()
            + Fixtures.start(0, #"{"type":"text","text":""}"#) + Fixtures.text(0, "The sky is ") + Fixtures.stop(0)
            + Fixtures.start(1, #"{"type":"text","text":"","citations":[]}"#)
            + Fixtures.delta(1, #"{"type":"citations_delta","citation":\#(web)}"#) + Fixtures.text(1, "blue") + Fixtures.stop(1)
            + Fixtures.start(2, #"{"type":"text","text":""}"#) + Fixtures.text(2, " and the sea ") + Fixtures.stop(2)
            + Fixtures.start(3, #"{"type":"text","text":"","citations":[]}"#)
            + Fixtures.delta(3, #"{"type":"citations_delta","citation":\#(page)}"#)
            + Fixtures.delta(3, #"{"type":"citations_delta","citation":\#(web)}"#) + Fixtures.text(3, "green") + Fixtures.stop(3)
            + Fixtures.start(4, #"{"type":"text","text":""}"#) + Fixtures.text(4, ".") + Fixtures.stop(4)
            + Fixtures.end()
        let result = try CLI.run(["replay", try CLI.temporaryFile(Array(stream.utf8)), "--speed", "0"])
        #expect(result.status == 0)
        #expect(
            result.lines == [
                "[msg_fixture · claude-test]",
                "The sky is blue[1] and the sea green[2][1].",
                "",
                "Sources:",
                "[1] Page A <https://a.example/x>",
                "[2] document 0 \"Report\", pages 3–4",
                "",
                "── stop: end_turn · in 10 · out 20 tokens",
            ])
    }

    @Test func theBundledRecordingShowsACitation() throws {
        let result = try CLI.run(["replay", "--speed", "0"])
        #expect(result.stdout.contains("jacket ☔ and layers.[1]"))
        #expect(result.stdout.contains("Sources:\n[1] Lisbon, Portugal 10-day forecast <https://weather.example.com/lisbon>\n"))
    }

    @Test func everyBlockTypeIsDrawn() throws {
        let stream =
            Fixtures.messageStart("msg_blocks")
            + Fixtures.start(0, #"{"type":"redacted_thinking","data":"EmwKAhgB"}"#) + Fixtures.stop(0)
            + Fixtures.start(1, #"{"type":"server_tool_use","id":"srv_code","name":"code_execution","input":{}}"#)
            + Fixtures.input(1, #"{\"code\": \"print(6*7)\\nprint('done')\"}"#) + Fixtures.stop(1)
            + Fixtures.start(
                2,
                #"{"type":"code_execution_tool_result","tool_use_id":"srv_code","content":{"type":"code_execution_result","stdout":"42\ndone\n","stderr":"warning: slow","return_code":0,"content":[]}}"#
            ) + Fixtures.stop(2)
            + Fixtures.start(3, #"{"type":"server_tool_use","id":"srv_fetch","name":"web_fetch","input":{}}"#)
            + Fixtures.input(3, #"{\"url\": \"https://example.com/a\"}"#) + Fixtures.stop(3)
            + Fixtures.start(
                4,
                #"{"type":"web_fetch_tool_result","tool_use_id":"srv_fetch","content":{"type":"web_fetch_result","url":"https://example.com/a","retrieved_at":"2026-11-30T10:00:00Z","content":{"type":"document","title":"Example A","source":{"type":"text","media_type":"text/plain","data":"hi"}}}}"#
            ) + Fixtures.stop(4)
            + Fixtures.start(5, #"{"type":"mcp_tool_use","id":"mcp_1","name":"lookup","server_name":"wiki","input":{}}"#)
            + Fixtures.input(5, #"{\"q\": \"swift\"}"#) + Fixtures.stop(5)
            + Fixtures.start(
                6, #"{"type":"mcp_tool_result","tool_use_id":"mcp_1","is_error":false,"content":[{"type":"text","text":"Swift is a language\nmore"}]}"#)
            + Fixtures.stop(6)
            + Fixtures.start(7, #"{"type":"compaction","content":"Earlier: the user asked about Lisbon.","encrypted_content":"abc"}"#) + Fixtures.stop(7)
            + Fixtures.start(8, #"{"type":"fallback","from":{"model":"claude-a"},"to":{"model":"claude-b"},"trigger":{"type":"refusal"}}"#) + Fixtures.stop(8)
            + Fixtures.start(9, #"{"type":"container_upload","file_id":"file_1"}"#) + Fixtures.stop(9)
            + Fixtures.start(10, #"{"type":"hologram","shape":"cube"}"#) + Fixtures.stop(10)
            + Fixtures.end("refusal", details: #"{"type":"refusal","category":"cyber","explanation":"Not this one."}"#)
        let result = try CLI.run(["replay", try CLI.temporaryFile(Array(stream.utf8)), "--speed", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "[msg_blocks · claude-test]",
                "[redacted thinking]",
                "⚙ code: print(6*7)",
                "  → exit 0: 42 ⏎ done (stderr: warning: slow)",
                "⚙ web fetch: https://example.com/a",
                "  → fetched https://example.com/a \"Example A\" at 2026-11-30T10:00:00Z",
                #"→ MCP wiki.lookup({"q":"swift"})"#,
                "  → MCP result: Swift is a language",
                "[compaction: Earlier: the user asked about Lisbon.]",
                "↪ claude-a declined; claude-b continued ({\"type\":\"refusal\"})",
                "[container upload file_1]",
                "[hologram block]",
                "",
                "── stop: refusal · refused (cyber): Not this one. · in 10 · out 20 tokens · served by claude-b",
            ])
    }

    /// A stream cut inside a tool call's input still shows the call.
    @Test func aCallCutOffMidInputIsStillShown() throws {
        let stream =
            Fixtures.messageStart("msg_cut")
            + Fixtures.start(0, #"{"type":"server_tool_use","id":"srv_cut","name":"web_search","input":{}}"#)
            + Fixtures.input(0, #"{\"query\": \"half a qu"#)
        let result = try CLI.run(["replay", try CLI.temporaryFile(Array(stream.utf8)), "--speed", "0"])
        #expect(result.status == 3)
        #expect(
            result.lines == [
                "[msg_cut · claude-test]",
                "⚙ web search: half a qu (input incomplete)",
                "",
                "── in 10 · out 1 tokens · stream ended before message_stop",
            ])
    }

    // MARK: Linear time

    /// `count` text blocks, each started, filled and stopped.
    static func manyBlocks(_ count: Int) -> [UInt8] {
        var stream = Fixtures.messageStart()
        for index in 0..<count {
            stream += Fixtures.start(index, #"{"type":"text","text":""}"#) + Fixtures.text(index, "word \(index) ") + Fixtures.stop(index)
        }
        return Array((stream + Fixtures.end()).utf8)
    }

    /// `count` text blocks all open at once: every start, then a delta for
    /// each, then every stop.
    static func manyOpenBlocks(_ count: Int) -> [UInt8] {
        var stream = Fixtures.messageStart()
        for index in 0..<count { stream += Fixtures.start(index, #"{"type":"text","text":""}"#) }
        for index in 0..<count { stream += Fixtures.text(index, "w\(index) ") }
        for index in 0..<count { stream += Fixtures.stop(index) }
        return Array((stream + Fixtures.end()).utf8)
    }

    /// `count` web searches whose results all arrive after the last call,
    /// so every call waits for its outcome while the others stream.
    static func manyServerCalls(_ count: Int) -> [UInt8] {
        var stream = Fixtures.messageStart()
        for index in 0..<count {
            stream +=
                Fixtures.start(index, #"{"type":"server_tool_use","id":"srv_\#(index)","name":"web_search","input":{}}"#)
                + Fixtures.input(index, #"{\"query\": \"q"#) + Fixtures.input(index, #"uery \#(index)\"}"#) + Fixtures.stop(index)
        }
        for index in 0..<count {
            stream +=
                Fixtures.start(count + index, #"{"type":"web_search_tool_result","tool_use_id":"srv_\#(index)","content":[]}"#)
                + Fixtures.stop(count + index)
        }
        return Array((stream + Fixtures.end("end_turn")).utf8)
    }

    /// CPU seconds of the child rendering `bytes`, the least of two runs.
    private func renderCPU(_ bytes: [UInt8]) throws -> Double {
        var best = Double.infinity
        for _ in 0..<2 {
            let result = try ProgramUnderTest.run(["replay", "-", "--speed", "0"], stdout: .null) { $0.send(bytes) }
            #expect(result.status == 0, "\(result.stderr)")
            best = min(best, result.cpuSeconds)
        }
        return best
    }

    /// 10,000 blocks took 13.5 s and 30,000 did not finish in 180 s before.
    @Test(.disabled(if: ProgramUnderTest.underAddressSanitizer, "AddressSanitizer stretches large runs more than small ones; checked in the plain run"))
    func manyBlocksRenderInLinearTime() throws {
        let small = try renderCPU(Self.manyBlocks(5_000))
        let large = try renderCPU(Self.manyBlocks(20_000))
        #expect(large / small <= 6, "5,000 blocks \(small) s, 20,000 blocks \(large) s")
    }

    /// 2,500 blocks open at once took 8.8 s of CPU before (debug build), and
    /// 10,000 over 100 s: each snapshot visited every open block, and the
    /// snapshot the live view kept made the accumulator copy them all.
    @Test(.disabled(if: ProgramUnderTest.underAddressSanitizer, "AddressSanitizer stretches large runs more than small ones; checked in the plain run"))
    func manyOpenBlocksRenderInLinearTime() throws {
        let small = try renderCPU(Self.manyOpenBlocks(2_500))
        let large = try renderCPU(Self.manyOpenBlocks(10_000))
        #expect(large / small <= 6, "2,500 open blocks \(small) s, 10,000 \(large) s")
        let output = try CLI.run(["replay", try CLI.temporaryFile(Self.manyOpenBlocks(300)), "--speed", "0"])
        #expect(output.lines.dropFirst().first == (0..<300).map { "w\($0) " }.joined(), "one paragraph, in block order")
    }

    /// 500 server-tool calls took 37.7 s before.
    @Test(.disabled(if: ProgramUnderTest.underAddressSanitizer, "AddressSanitizer stretches large runs more than small ones; checked in the plain run"))
    func manyServerToolCallsRenderInLinearTime() throws {
        let small = try renderCPU(Self.manyServerCalls(1_000))
        let large = try renderCPU(Self.manyServerCalls(4_000))
        #expect(large / small <= 6, "1,000 calls \(small) s, 4,000 calls \(large) s")
    }
}
