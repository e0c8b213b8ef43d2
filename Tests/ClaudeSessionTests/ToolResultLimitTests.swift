import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import IncrementalJSON
import Testing

// The cap on a tool result's text, for any ClientTool (not only shell
// tools): the session cuts a longer text where it builds the result, whole
// characters only, and says how much there was; the request that carries
// it stays near the cap, far below the API's 32 MB.

/// A tool that returns `text` (or the JSON of an array of `count` numbers).
private struct LoudTool: ClientTool {
    struct Arguments: Decodable, Sendable {}
    var output: ToolOutput
    var name: String { "loud" }
    var description: String { "Prints a lot" }
    var inputSchema: JSONValue { JSONSchema.object([]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput { output }
}

/// The text of the one tool result sent after `output`, and the size of the request that carried it.
private func sentResult(_ output: ToolOutput, limit: Int? = nil) async throws -> (text: String, requestBytes: Int) {
    let call = StreamScript().toolUse("toolu_1", "loud", "{}").end("tool_use")
    let done = StreamScript().text("done").end("end_turn")
    let transport = FakeTransport([.stream(call), .stream(done)])
    var configuration = SessionConfiguration()
    if let limit { configuration.maxToolResultBytes = limit }
    let session = ClaudeSession(model: .opus5, tools: [LoudTool(output: output)], configuration: configuration, transport: transport)
    _ = try await session.respond(to: "go")
    let result = try #require(lastTurnBlocks(transport.bodies[1]).first)
    var encoded: [UInt8] = []
    transport.bodies[1].encodeCompact(into: &encoded)
    let content = result["content"]
    let text = content?.stringValue ?? content?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined() ?? ""
    return (text, encoded.count)
}

@Suite struct ToolResultLimitTests {
    @Test func aLongTextIsCutToTheDefaultMebibyteAndSaysSo() async throws {
        // Three-byte characters, so a cut in the middle of one would show.
        let text = String(repeating: "€", count: 3 << 20)
        let (sent, requestBytes) = try await sentResult(.text(text))
        let (size, start, end) = (sent.utf8.count, String(sent.prefix(3)), String(sent.suffix(80)))
        #expect(size <= SessionConfiguration.defaultMaxToolResultBytes && size > SessionConfiguration.defaultMaxToolResultBytes - 100, "\(size)")
        #expect(end.hasSuffix(" of \(text.utf8.count) bytes are shown]"), "\(end)")
        #expect(start == "€€€")
        let halfCharacters = sent.contains("\u{FFFD}")
        #expect(!halfCharacters)
        #expect(requestBytes < 2 << 20, "\(requestBytes) bytes")
    }

    @Test func theLimitIsAnOptionAndAShortTextIsSentAsItIs() async throws {
        let (cut, _) = try await sentResult(.text(String(repeating: "a", count: 5000)), limit: 1000)
        #expect(cut.utf8.count <= 1000)
        #expect(cut.hasPrefix("aaaa") && cut.hasSuffix("of 5000 bytes are shown]"), "\(cut)")
        let (whole, _) = try await sentResult(.text("short"), limit: 1000)
        #expect(whole == "short")
    }

    @Test func jsonAndTextBlocksAreCutToo() async throws {
        let big = JSONValue.array((0..<400_000).map { .number(JSONNumber($0)) })
        let (json, _) = try await sentResult(.json(big), limit: 10_000)
        let (size, start, end) = (json.utf8.count, String(json.prefix(8)), String(json.suffix(60)))
        #expect(size <= 10_000)
        #expect(start == "[0,1,2,3" && end.contains("bytes are shown]"), "\(end)")
        let (blocks, _) = try await sentResult(
            .blocks([.text(String(repeating: "b", count: 8000)), .text(String(repeating: "c", count: 8000))]), limit: 10_000)
        let (blockBytes, allBs, hasC) = (blocks.utf8.count, blocks.hasPrefix(String(repeating: "b", count: 8000)), blocks.contains("c"))
        #expect(blockBytes <= 10_000, "\(blockBytes)")
        #expect(allBs && hasC)
    }

    @Test func fittingKeepsWholeScalarsAndTheNote() {
        let text = "ab€" + String(repeating: "x", count: 100)
        for limit in 0..<140 {
            let fitted = ToolResultText.fitting(text, within: limit)
            #expect(!fitted.contains("\u{FFFD}"))
            // Under the note's own size only the note is left.
            if limit >= 60 { #expect(fitted.utf8.count <= limit, "\(limit): \(fitted)") }
        }
        #expect(ToolResultText.fitting("abc", within: 100, wholeBytes: 10_000).hasSuffix("[cut: the first 3 of 10000 bytes are shown]"))
    }
}
