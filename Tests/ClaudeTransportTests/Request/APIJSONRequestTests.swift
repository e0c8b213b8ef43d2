import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// A request read from the API's own JSON: fields this package types are
// typed (and so checked before traffic), everything else passes through to
// the wire unchanged; and the tool rules every request is checked against.

private func request(_ text: String) throws -> MessageRequest {
    try MessageRequest(apiJSON: JSONValue.parse(text))
}

private func refusal(_ request: MessageRequest) -> RequestError? {
    do throws(RequestError) {
        try RequestEncoder.validate(request)
        return nil
    } catch { return error }
}

private func wire(_ request: MessageRequest) throws -> String {
    String(decoding: try RequestEncoder.encode(request).body, as: UTF8.self)
}

private let call = #"{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"add","input":{}}]}"#
private let result = #"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"2"}]}"#

@Suite struct APIJSONRequestTests {
    @Test func knownFieldsAreTypedAndCheckedBeforeTraffic() throws {
        let typed = try request(
            #"""
            {"model":"claude-opus-5","max_tokens":300,"system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral","ttl":"1h"}}],
             "messages":[{"role":"user","content":"hi"}],"thinking":{"type":"adaptive"},
             "output_config":{"effort":"high"},"tool_choice":{"type":"any"},"stop_sequences":["X"],
             "metadata":{"user_id":"u"},"cache_control":{"type":"ephemeral"},"stream":false}
            """#)
        #expect(typed.maxTokens == 300)
        #expect(typed.system == .blocks([SystemBlock("S", cacheControl: CacheControl(ttl: .oneHour))]))
        #expect(typed.adaptiveThinking)
        #expect(typed.effort == .high)
        #expect(typed.toolChoice == ToolChoice(.any))
        #expect(typed.stopSequences == ["X"])
        #expect(typed.metadataUserID == "u")
        #expect(typed.cacheControl == .ephemeral)
        #expect(typed.additionalFields.isEmpty)
        // A message goes out as the body gave it: a string stays a string.
        #expect(typed.messages == [ConversationTurn(role: .user, content: [.raw(RawJSON(.string("hi")))])])
        #expect(try wire(typed).contains(#""messages":[{"role":"user","content":"hi"}]"#))
        #expect(try wire(typed).hasSuffix(#""stream":true}"#))

        // What the command line's flags become is refused as the typed API refuses it.
        #expect(
            refusal(try request(#"{"model":"claude-opus-5","messages":[{"role":"user","content":"x"}],"output_config":{"effort":"ultra"}}"#))
                == .unsupportedEffort(EffortLevel("ultra"), model: "claude-opus-5"))
        #expect(
            refusal(try request(#"{"model":"claude-haiku-4-5","messages":[{"role":"user","content":"x"}],"output_config":{"effort":"high"}}"#))
                == .unsupportedEffort(.high, model: "claude-haiku-4-5"))
        #expect(
            refusal(try request(#"{"model":"claude-opus-5","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"tool","name":"nosuch"}}"#))
                == .undeclaredToolChoice("nosuch", declared: []))
        // A model this package does not know may have any feature and public level, not a level no model has.
        #expect(
            refusal(try request(#"{"model":"relay-model-x","messages":[{"role":"user","content":"x"}],"output_config":{"effort":"xhigh"},"temperature":1}"#))
                == nil)
        #expect(
            refusal(try request(#"{"model":"relay-model-x","messages":[{"role":"user","content":"x"}],"output_config":{"effort":"ultra"}}"#))
                == .unsupportedEffort(EffortLevel("ultra"), model: "relay-model-x"))
    }

    @Test func everythingElsePassesThroughUnchanged() throws {
        let given = try request(
            #"""
            {"model":"claude-opus-5","messages":[{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"image","source":{"type":"url","url":"https://x.example/i.png"}}]}],
             "thinking":{"type":"adaptive","display":"summarized"},"container":"ctr_1","mcp_servers":[{"type":"url","url":"https://m.example","name":"m"}],
             "tools":[{"type":"bash_20250124","name":"bash"},{"name":"add","input_schema":{"type":"object"},"x_flag":1}],
             "output_config":{"effort":"low","task_budget":7}}
            """#)
        #expect(given.adaptiveThinking == false)
        #expect(given.additionalFields.keys == ["thinking", "container", "mcp_servers", "output_config"])
        #expect(given.tools.allSatisfy { if case .raw = $0 { true } else { false } })
        let text = try wire(given)
        for piece in [
            #""thinking":{"type":"adaptive","display":"summarized"}"#, #""container":"ctr_1""#,
            #""output_config":{"effort":"low","task_budget":7}"#, #"{"name":"add","input_schema":{"type":"object"},"x_flag":1}"#,
            #"{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}"#, #""url":"https://x.example/i.png""#,
        ] {
            #expect(text.contains(piece), "\(piece)")
        }
        // A typed field wins over an additional one of the same name, sent once.
        var both = given
        both.additionalFields = JSONObject([("max_tokens", .number(JSONNumber(1))), ("service_tier", .string("auto"))])
        let body = try JSONValue.parse(try RequestEncoder.encode(both).body)
        #expect(body.objectValue?.keys.filter { $0 == "max_tokens" }.count == 1)
        #expect(body["max_tokens"]?.numberValue == JSONNumber(RequestSetup.defaultMaxTokens))
        #expect(body["service_tier"]?.stringValue == "auto")
    }

    @Test func aBodyThatIsNotARequestSaysWhere() {
        func failure(_ text: String) -> RequestBodyError? {
            do {
                _ = try request(text)
                return nil
            } catch let error as RequestBodyError { return error } catch { return nil }
        }
        #expect(failure(#"{"model":"m","messages":[],"max_tokens":"many"}"#)?.path == "max_tokens")
        #expect(failure(#"{"model":"m","messages":[{"role":"user"}]}"#)?.path == "messages[0].content")
        #expect(failure(#"{"model":"m","messages":[{"role":"user","content":7}]}"#)?.path == "messages[0].content")
        #expect(failure(#"{"model":"m","messages":[{"role":"user","content":"a","name":"x"}]}"#)?.path == "messages[0].name")
        #expect(failure(#"{"model":3,"messages":[]}"#)?.path == "model")
    }

    @Test func toolRulesNameTheTurn() throws {
        func rule(_ messages: String) throws -> RequestError? {
            refusal(try request(#"{"model":"claude-opus-5","messages":["# + messages + "]}"))
        }
        #expect(try rule(#"{"role":"user","content":"a"},"# + call + "," + result) == nil)
        // A hand-trimmed history that opens with an orphan tool_result.
        #expect(try rule(result) == .orphanToolResult(toolUseID: "t1", turn: 0))
        // The result of a call that is not in the turn just before.
        #expect(
            try rule(#"{"role":"user","content":"a"},"# + call + "," + result + #",{"role":"assistant","content":"ok"},"# + result)
                == .orphanToolResult(toolUseID: "t1", turn: 4))
        // A call left unanswered before more user text.
        #expect(
            try rule(#"{"role":"user","content":"a"},"# + call + #",{"role":"user","content":"more"}"#)
                == .unansweredToolUse(toolUseID: "t1", turn: 1))
        // Two assistant turns in a row leave the first one's call unanswered.
        #expect(
            try rule(#"{"role":"user","content":"a"},"# + call + #",{"role":"assistant","content":"x"}"#)
                == .unansweredToolUse(toolUseID: "t1", turn: 1))
        // Text before the result in its turn.
        #expect(
            try rule(
                #"{"role":"user","content":"a"},"# + call
                    + #",{"role":"user","content":[{"type":"text","text":"b"},{"type":"tool_result","tool_use_id":"t1","content":"2"}]}"#)
                == .toolResultAfterContent(turn: 2))
        // One result twice.
        #expect(
            try rule(
                #"{"role":"user","content":"a"},"# + call
                    + #",{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"2"},{"type":"tool_result","tool_use_id":"t1","content":"2"}]}"#
            )
                == .orphanToolResult(toolUseID: "t1", turn: 2))
        // A conversation that stops at the call (to be answered next) is a valid request.
        #expect(try rule(#"{"role":"user","content":"a"},"# + call) == nil)
        // The encoder refuses the same before traffic.
        #expect(throws: RequestError.orphanToolResult(toolUseID: "t1", turn: 0)) {
            try RequestEncoder.encode(try request(#"{"model":"claude-opus-5","messages":["# + result + "]}"))
        }
    }

    @Test func replayedResponsesAreCheckedFromTheirBytes() throws {
        let replay = try RawJSON(validating: Array(#"[{"type":"text","text":"x"},{"type":"tool_use","id":"t9","name":"add","input":{}}]"#.utf8))
        let answered = MessageRequest(
            model: .opus5,
            messages: [
                .user("a"), ConversationTurn(role: .assistant, content: [.raw(replay)]),
                .toolResults([ToolResult(toolUseID: "t9", content: .text("1"))]),
            ])
        #expect(refusal(answered) == nil)
        var unanswered = answered
        unanswered.messages[2] = .user("skip it")
        #expect(refusal(unanswered) == .unansweredToolUse(toolUseID: "t9", turn: 1))
    }

    @Test func rawJSONCodesAsDeepAsAResponseHoldsAndRefusesDeeperOnWriting() throws {
        func nested(_ depth: Int) -> [UInt8] { Array((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8) }
        // A content array holding a block whose input nests 512 deep: 514 levels.
        for depth in [511, 512, 514, RawJSON.maxCodedDepth] {
            let raw = try RawJSON(validating: nested(depth), maxDepth: depth)
            let back = try JSONDecoder().decode([RawJSON].self, from: try JSONEncoder().encode([raw]))
            #expect(back == [raw], "depth \(depth)")
        }
        let deeper = try RawJSON(validating: nested(RawJSON.maxCodedDepth + 1), maxDepth: .max)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([deeper]) }
        #expect(RawJSON.nestingExcess(in: nested(3), limit: 3) == nil)
        // The fourth bracket outside the string.
        #expect(RawJSON.nestingExcess(in: Array(#"["[[[",[[[1]]]]"#.utf8), limit: 3).map { [$0.depth, $0.offset] } == [4, 9])
    }
}
