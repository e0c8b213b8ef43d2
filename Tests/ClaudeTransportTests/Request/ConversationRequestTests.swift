import ClaudeStreaming
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeTransport

// The request fields a conversation needs, checked field by field in the
// encoded body: client and raw tools, tool_choice, tool results, documents,
// stop sequences, metadata, manual thinking and its gating, prompt caching,
// Codable round trips, and replayed turns copied as bytes.

private func body(_ request: MessageRequest) throws -> JSONValue {
    try JSONValue.parse(try RequestEncoder.encode(request).body)
}

private func refusal(_ request: MessageRequest) -> RequestError? {
    do {
        _ = try RequestEncoder.encode(request)
        return nil
    } catch {
        return error
    }
}

private let weatherSchema = JSONSchema.object([
    .init("city", .string(), description: "City name"),
    .init("unit", .string(), isRequired: false),
])

/// An assistant turn calling the tools `ids`.
private func calls(_ ids: [String]) -> ConversationTurn {
    ConversationTurn(
        role: .assistant,
        content: ids.map { id in
            .block(.object([("type", .string("tool_use")), ("id", .string(id)), ("name", .string("weather")), ("input", .object([]))]))
        })
}

@Suite struct ConversationRequestTests {
    @Test func clientToolsCarryNameDescriptionSchemaStrictAndCache() throws {
        let tool = ClientToolDefinition(
            name: "weather", description: "Current weather", inputSchema: weatherSchema,
            strict: true, cacheControl: CacheControl(ttl: .oneHour))
        let raw: JSONValue = try JSONValue.parse(
            #"{"type":"computer_20251124","name":"computer","display_width_px":1024,"display_height_px":768,"x_future":1.50}"#)
        let request = MessageRequest(
            model: .opus5, messages: [.user("x")], serverTools: [.webSearch()],
            tools: [.client(tool), .raw(raw)])
        let tools = try #require(try body(request)["tools"]?.arrayValue)
        #expect(tools.count == 3)
        #expect(tools[0]["name"]?.stringValue == "weather")
        #expect(tools[0]["description"]?.stringValue == "Current weather")
        #expect(tools[0]["input_schema"] == weatherSchema.jsonValue)
        #expect(tools[0]["strict"]?.boolValue == true)
        #expect(tools[0]["cache_control"]?["type"]?.stringValue == "ephemeral")
        #expect(tools[0]["cache_control"]?["ttl"]?.stringValue == "1h")
        #expect(tools[0]["type"] == nil)
        // The versioned tool goes out unchanged, number text included.
        let text = String(decoding: try RequestEncoder.encode(request).body, as: UTF8.self)
        #expect(text.contains(#"{"type":"computer_20251124","name":"computer","display_width_px":1024,"display_height_px":768,"x_future":1.50}"#))
        #expect(tools[2]["type"]?.stringValue == "web_search_20250305")
    }

    @Test func strictToolsNeedStructuredOutput() {
        let plain = ClaudeModel(id: "plain", capabilities: .minimal)
        let strict = ClientToolDefinition(name: "s", inputSchemaJSON: .object([("type", .string("object"))]), strict: true)
        #expect(
            refusal(MessageRequest(model: plain, messages: [.user("x")], tools: [.client(strict)]))
                == .unsupportedFeature("strict tool input (structured output)", model: "plain"))
        var loose = strict
        loose.strict = nil
        #expect(refusal(MessageRequest(model: plain, messages: [.user("x")], tools: [.client(loose)])) == nil)
    }

    @Test func duplicateToolNamesAreRefused() {
        let a = ClientToolDefinition(name: "a", inputSchemaJSON: .object([("type", .string("object"))]))
        #expect(refusal(MessageRequest(model: .opus5, messages: [.user("x")], tools: [.client(a), .client(a)])) == .duplicateToolName("a"))
    }

    @Test func toolChoiceEveryMode() throws {
        let weather = ToolDefinition.client(ClientToolDefinition(name: "weather", inputSchemaJSON: .object([("type", .string("object"))])))
        func choice(_ c: ToolChoice) throws -> JSONValue? {
            try body(MessageRequest(model: .opus5, messages: [.user("x")], tools: [weather], toolChoice: c))["tool_choice"]
        }
        #expect(try choice(ToolChoice(.auto))?.compactJSON == #"{"type":"auto"}"#)
        #expect(try choice(ToolChoice(.any, disableParallelToolUse: true))?.compactJSON == #"{"type":"any","disable_parallel_tool_use":true}"#)
        #expect(try choice(ToolChoice(.none, disableParallelToolUse: true))?.compactJSON == #"{"type":"none"}"#)
        #expect(try choice(ToolChoice(.tool("weather")))?.compactJSON == #"{"type":"tool","name":"weather"}"#)
        #expect(ToolChoice(parsing: "tool:get") == ToolChoice(.tool("get")))
        #expect(ToolChoice(parsing: "tool:") == nil)
        #expect(ToolChoice(parsing: "sometimes") == nil)
        #expect(try body(MessageRequest(model: .opus5, messages: [.user("x")]))["tool_choice"] == nil)
        // Naming a tool the request does not declare is refused before any traffic.
        #expect(
            refusal(MessageRequest(model: .opus5, messages: [.user("x")], tools: [weather], toolChoice: ToolChoice(.tool("nosuch"))))
                == .undeclaredToolChoice("nosuch", declared: ["weather"]))
        #expect(
            refusal(MessageRequest(model: .opus5, messages: [.user("x")], serverTools: [.webSearch()], toolChoice: ToolChoice(.tool("web_search"))))
                == nil)
    }

    @Test func toolResultsInAUserTurn() throws {
        let results: [ToolResult] = [
            ToolResult(toolUseID: "toolu_1", content: .text("22 C")),
            ToolResult(toolUseID: "toolu_2", content: .json(.object([("temp", .number(JSONNumber(22)))]))),
            ToolResult(
                toolUseID: "toolu_3",
                content: .blocks([
                    .text("chart"), .image(bytes: [1, 2, 3], mediaType: "image/png"),
                    .document(Document(.plainText("notes"))),
                ])),
            ToolResult(toolUseID: "toolu_4", content: .text("no such city"), isError: true),
            ToolResult(toolUseID: "toolu_5", content: .raw(.array([.object([("type", .string("text")), ("text", .string("r"))])]))),
        ]
        let request = MessageRequest(model: .opus5, messages: [.user("x"), calls(results.map(\.toolUseID)), .toolResults(results)])
        let content = try #require(try body(request)["messages"]?[2]?["content"]?.arrayValue)
        #expect(try body(request)["messages"]?[2]?["role"]?.stringValue == "user")
        #expect(content.map { $0["tool_use_id"]?.stringValue } == ["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5"])
        #expect(content.allSatisfy { $0["type"]?.stringValue == "tool_result" })
        #expect(content[0]["content"]?.stringValue == "22 C")
        #expect(content[0]["is_error"] == nil)
        #expect(content[1]["content"]?.compactJSON == #"[{"type":"text","text":"{\"temp\":22}"}]"#)
        #expect(content[2]["content"]?[1]?["source"]?["data"]?.stringValue == "AQID")
        #expect(content[2]["content"]?[2]?["type"]?.stringValue == "document")
        #expect(content[3]["is_error"]?.boolValue == true)
        #expect(content[4]["content"]?.compactJSON == #"[{"type":"text","text":"r"}]"#)
    }

    @Test func imagesInsideToolResultsAreGated() {
        let noImages = ClaudeModel(id: "text-only", capabilities: .minimal)
        let result = ToolResult(toolUseID: "t", content: .blocks([.image(bytes: [1], mediaType: "image/png")]))
        #expect(
            refusal(MessageRequest(model: noImages, messages: [.user("x"), calls(["t"]), .toolResults([result])]))
                == .unsupportedFeature("image input", model: "text-only"))
    }

    @Test func documentsPDFAndPlainTextWithCitations() throws {
        let pdf = Document(.pdf(Array("%PDF-1.4".utf8)), title: "Spec", citations: true)
        let text = Document(.plainText("The sky is blue."), context: "a note", citations: true, cacheControl: .ephemeral)
        let request = MessageRequest(model: .opus5, messages: [.user([.document(pdf), .document(text), .text("Summarize")])])
        let content = try #require(try body(request)["messages"]?[0]?["content"]?.arrayValue)
        #expect(content[0]["source"]?.compactJSON == #"{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjQ="}"#)
        #expect(content[0]["title"]?.stringValue == "Spec")
        #expect(content[0]["citations"]?.compactJSON == #"{"enabled":true}"#)
        #expect(content[1]["source"]?.compactJSON == #"{"type":"text","media_type":"text/plain","data":"The sky is blue."}"#)
        #expect(content[1]["context"]?.stringValue == "a note")
        #expect(content[1]["cache_control"]?.compactJSON == #"{"type":"ephemeral"}"#)
        let noPDF = ClaudeModel(id: "no-pdf", capabilities: .minimal)
        #expect(refusal(MessageRequest(model: noPDF, messages: [.user([.document(pdf)])])) == .unsupportedFeature("PDF documents", model: "no-pdf"))
        // A plain-text document needs no capability.
        #expect(refusal(MessageRequest(model: noPDF, messages: [.user([.document(text)])])) == nil)
    }

    @Test func stopSequencesMetadataAndManualThinking() throws {
        let request = MessageRequest(
            model: .haiku4_5, messages: [.user("x")], maxTokens: 4000,
            stopSequences: ["END", "\n\nHuman:"], metadataUserID: "user-42", thinkingBudget: 2048)
        let json = try body(request)
        #expect(json["stop_sequences"]?.compactJSON == #"["END","\n\nHuman:"]"#)
        #expect(json["metadata"]?.compactJSON == #"{"user_id":"user-42"}"#)
        #expect(json["thinking"]?.compactJSON == #"{"type":"enabled","budget_tokens":2048}"#)
        #expect(
            refusal(MessageRequest(model: .sonnet5, messages: [.user("x")], thinkingBudget: 2048))
                == .unsupportedFeature("manual thinking (budget_tokens)", model: "claude-sonnet-5"))
        #expect(
            refusal(MessageRequest(model: .haiku4_5, messages: [.user("x")], maxTokens: 4000, thinkingBudget: 500))
                == .invalidThinkingBudget(500, maxTokens: 4000))
        #expect(
            refusal(MessageRequest(model: .haiku4_5, messages: [.user("x")], maxTokens: 2000, thinkingBudget: 2000))
                == .invalidThinkingBudget(2000, maxTokens: 2000))
        #expect(
            refusal(MessageRequest(model: .opus4_6, messages: [.user("x")], adaptiveThinking: true, thinkingBudget: 2048))
                == .conflictingThinking)
        // A fallback without manual thinking refuses the whole chain.
        #expect(
            refusal(MessageRequest(model: .haiku4_5, messages: [.user("x")], fallbacks: .models([.opus5]), thinkingBudget: 2048))
                == .unsupportedFeature("manual thinking (budget_tokens)", model: "claude-opus-5"))
    }

    @Test func promptCachingAtEveryLevel() throws {
        let request = MessageRequest(
            model: .opus5,
            messages: [ConversationTurn(role: .user, content: [.text("a"), .text("b")], cacheControl: CacheControl(ttl: .fiveMinutes))],
            system: .blocks([SystemBlock("You are terse."), SystemBlock("Long reference text", cacheControl: CacheControl(ttl: .oneHour))]),
            cacheControl: .ephemeral)
        let json = try body(request)
        #expect(json["cache_control"]?.compactJSON == #"{"type":"ephemeral"}"#)
        #expect(
            json["system"]?.compactJSON
                == #"[{"type":"text","text":"You are terse."},{"type":"text","text":"Long reference text","cache_control":{"type":"ephemeral","ttl":"1h"}}]"#)
        #expect(
            json["messages"]?[0]?["content"]?.compactJSON
                == #"[{"type":"text","text":"a"},{"type":"text","text":"b","cache_control":{"type":"ephemeral","ttl":"5m"}}]"#)
    }

    @Test func replayedTurnIsCopiedByteForByte() throws {
        let content = #"[{"type":"thinking","thinking":"t","signature":"Sig+/=="},{"type":"x_new","n":1.0e+02,"z":{"b":1,"a":2}}]"#
        let raw = try RawJSON(validating: Array(content.utf8))
        let request = MessageRequest(model: .opus5, messages: [.user("x"), ConversationTurn(role: .assistant, content: [.raw(raw)]), .user("y")])
        let text = String(decoding: try RequestEncoder.encode(request).body, as: UTF8.self)
        #expect(text.contains(#"{"role":"assistant","content":"# + content + "}"))
    }

    @Test func codableRoundTripKeepsTheBody() throws {
        let tool = ClientToolDefinition(name: "weather", description: "d", inputSchema: weatherSchema, strict: true)
        let raw = try RawJSON(
            validating: Array(#"[{"type":"text","text":"hi","x":12345678901234567890.5},{"type":"tool_use","id":"t1","name":"weather","input":{}}]"#.utf8))
        let original = MessageRequest(
            model: .haiku4_5,
            messages: [
                .user([.text("q"), .image(bytes: [9, 8], mediaType: "image/png"), .document(Document(.pdf([1]), citations: true))]),
                ConversationTurn(role: .assistant, content: [.raw(raw)]),
                .toolResults([ToolResult(toolUseID: "t1", content: .json(.number(JSONNumber(3))), isError: true)]),
            ],
            system: "s", maxTokens: 5000, temperature: 0.5, serverTools: [.webFetch(WebToolSettings(allowedDomains: ["a.example"]))],
            fallbacks: .none, betas: ["b1"], tools: [.client(tool), .raw(.object([("type", .string("bash_20250124")), ("name", .string("bash"))]))],
            toolChoice: ToolChoice(.tool("weather"), disableParallelToolUse: true), stopSequences: ["Z"], metadataUserID: "u",
            thinkingBudget: 1024, cacheControl: CacheControl(ttl: .oneHour))
        // The API JSON, read back: the same body byte for byte (the long number too).
        let decoded = try MessageRequest(apiJSON: JSONValue.parse(try original.apiJSONBytes()))
        #expect(try RequestEncoder.encode(decoded).body == RequestEncoder.encode(original).body)
        #expect(decoded.model == original.model)
        #expect(decoded.additionalFields.isEmpty)
        // Codable is the same API JSON (through Foundation, numbers pass through Double).
        let foundation = try JSONValue.parse(Array(try JSONEncoder().encode(original)))
        #expect(foundation["max_tokens"]?.numberValue == JSONNumber(5000))
        #expect(foundation["maxTokens"] == nil)
        #expect(foundation["model"]?.stringValue == "claude-haiku-4-5")
        #expect(foundation["stream"] == nil)
        let viaFoundation = try JSONDecoder().decode(MessageRequest.self, from: try JSONEncoder().encode(original))
        #expect(viaFoundation.maxTokens == 5000)
        #expect(viaFoundation.toolChoice == original.toolChoice)
    }

    @Test func countingBodyHasNoStreamOrMaxTokens() throws {
        let request = MessageRequest(
            model: .opus5, messages: [.user("x")], maxTokens: 10, temperature: nil,
            toolChoice: ToolChoice(.auto), stopSequences: ["s"])
        let json = try JSONValue.parse(try RequestEncoder.encodeForCounting(request).body)
        #expect(json.objectValue?.keys == ["model", "messages", "tool_choice"])
    }
}

@Suite struct StructuredOutputDecodingTests {
    struct Answer: Decodable, Sendable {
        var city: String
        var temp: Int
    }
    struct PartialAnswer: Decodable, Sendable {
        var city: String?
        var temp: Int?
    }

    private func snapshot(_ texts: [String], stop: String? = "end_turn", structured: Bool = true) throws -> MessageSnapshot {
        var events =
            #"event: message_start\#ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-opus-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\#n\#n"#
        events += #"event: content_block_start\#ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\#n\#n"#
        for text in texts {
            let delta = JSONValue.object([
                ("type", .string("content_block_delta")), ("index", .number(JSONNumber(0))),
                ("delta", .object([("type", .string("text_delta")), ("text", .string(text))])),
            ])
            events += "event: content_block_delta\ndata: \(delta.compactJSON)\n\n"
        }
        if let stop {
            events += #"event: content_block_stop\#ndata: {"type":"content_block_stop","index":0}\#n\#n"#
            events += "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"\(stop)\"},\"usage\":{\"output_tokens\":5}}\n\n"
            events += "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        }
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(structuredOutput: structured ? .allTextBlocks : .none))
        _ = try accumulator.feed(Array(events.utf8))
        return try #require(accumulator.snapshot)
    }

    @Test func completeAndPartialValues() throws {
        let done = try snapshot([#"{"city":"Par"#, #"is","temp":21}"#])
        #expect(try done.decodeStructured(Answer.self, complete: true).temp == 21)
        let partial = try snapshot([#"{"city":"Par"#], stop: nil)
        let value = try partial.decodeStructured(PartialAnswer.self, complete: false)
        #expect(value.city == "Par" && value.temp == nil)
        #expect(StructuredSnapshot<PartialAnswer>(partial).partial?.city == "Par")
    }

    @Test func everyFailureSaysWhy() throws {
        #expect(throws: StructuredOutputError.notRequested) { try snapshot(["{}"], structured: false).decodeStructured(Answer.self, complete: true) }
        #expect(throws: StructuredOutputError.incomplete(stopReason: nil)) {
            try snapshot([#"{"city":"P"#], stop: nil).decodeStructured(Answer.self, complete: true)
        }
        #expect(throws: StructuredOutputError.self) { try snapshot(["{\"city\": 3, \"temp\": 1}"]).decodeStructured(Answer.self, complete: true) }
        let mismatched = try snapshot(["{\"city\": 3, \"temp\": 1}"])
        do throws(StructuredOutputError) {
            _ = try mismatched.decodeStructured(Answer.self, complete: true)
        } catch {
            #expect(error.description.contains("city"), "\(error)")
        }
        let invalid = try snapshot(["not json"])
        do throws(StructuredOutputError) {
            _ = try invalid.decodeStructured(Answer.self, complete: true)
            Issue.record("invalid JSON decoded")
        } catch {
            guard case .invalidJSON(let index, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(index == 0)
        }
        let early = StructuredSnapshot<PartialAnswer>(try snapshot([], stop: nil))
        #expect(early.partial == nil && early.issue == .noOutputYet)
    }
}
