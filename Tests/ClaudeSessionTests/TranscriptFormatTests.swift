import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// The transcript is the API's JSON: a request body plus `session_metadata`.
// It is read back equal and rewritten byte for byte; a body written by hand
// the way curl or the Python SDK sends one continues as a conversation with
// its opaque blocks untouched; the reader and the writer share their limits
// (nesting around 512, where a tool input can reach); and every file that
// cannot be read says where.

private let calling = StreamScript(id: "msg_1", model: "claude-opus-5", inputTokens: 12)
    .block(#"{"type":"thinking","thinking":"Sum it","signature":"EqQBsig+/=="}"#)
    .toolUse("toolu_1", "add", #"{"a":1,"b":2}"#)
    .end("tool_use", outputTokens: 9)
private let answer = StreamScript(id: "msg_2", model: "claude-opus-5", inputTokens: 30).text("3").end("end_turn", outputTokens: 2)

/// A conversation of one tool round, run on the in-process transport.
private func toolRoundTranscript() async throws -> SessionTranscript {
    let transport = FakeTransport([.stream(calling), .stream(answer)])
    let session = ClaudeSession(setup: testSetup(system: "Be exact."), tools: [CountingTool(counter: CallCounter())], transport: transport)
    _ = try await session.respond(to: "Add 1 and 2")
    return session.transcript
}

/// Nesting `depth` levels deep: `[[…[1]…]]`.
private func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }

@Suite struct TranscriptFormatTests {
    @Test func theFileIsARequestBodyPlusOneKey() async throws {
        let transcript = try await toolRoundTranscript()
        let bytes = try transcript.jsonBytes()
        #expect(bytes.last == UInt8(ascii: "\n"))
        let json = try JSONValue.parse(bytes)
        #expect(json.objectValue?.keys == ["model", "max_tokens", "system", "messages", "tools", SessionTranscript.metadataKey])
        #expect(json["model"]?.stringValue == "claude-opus-5")
        #expect(json["max_tokens"]?.numberValue == JSONNumber(RequestSetup.defaultMaxTokens))
        #expect(json["tools"]?[0]?["name"]?.stringValue == "add")
        let messages = Array(json["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "user", "assistant"])
        #expect(messages[1]["content"]?[0]?["signature"]?.stringValue == "EqQBsig+/==")
        #expect(messages[2]["content"]?[0]?["type"]?.stringValue == "tool_result")
        let metadata = try #require(json[SessionTranscript.metadataKey])
        #expect(metadata["format"]?.numberValue == JSONNumber(1))
        #expect(metadata["responses"]?.arrayValue?.map { $0["message"]?.numberValue } == [JSONNumber(1), JSONNumber(3)])
        #expect(metadata["responses"]?[0]?["id"]?.stringValue == "msg_1")
        #expect(metadata["responses"]?[0]?["stop_reason"]?.stringValue == "tool_use")
        #expect(metadata["usage_by_model"]?["claude-opus-5"]?["input_tokens"]?.numberValue == JSONNumber(42))
        // Without the extra key the file is exactly what the next request sends (without `stream`).
        let request = try RequestEncoder.encode(transcript.request)
        var sent = try JSONValue.parse(request.body).objectValue?.entries.filter { $0.key != "stream" }.map { ($0.key, $0.value) } ?? []
        sent.sort { $0.0 < $1.0 }
        var written = json.objectValue?.entries.filter { $0.key != SessionTranscript.metadataKey }.map { ($0.key, $0.value) } ?? []
        written.sort { $0.0 < $1.0 }
        #expect(sent.map(\.0) == written.map(\.0))
        #expect(sent.map(\.1) == written.map(\.1))
        // Tool calls are stored once, inside their response.
        #expect(transcript.entries.count == 4)
        #expect(transcript.toolCalls.map(\.id) == ["toolu_1"])
    }

    @Test func readBackItIsEqualAndRewritesByteForByte() async throws {
        let transcript = try await toolRoundTranscript()
        let bytes = try transcript.jsonBytes()
        let restored = try SessionTranscript(jsonBytes: bytes)
        #expect(restored == transcript)
        #expect(try restored.jsonBytes() == bytes)
        #expect(restored.responses.map(\.id) == ["msg_1", "msg_2"])
        #expect(restored.responses.first?.stopReason == "tool_use")
        #expect(restored.usageByModel == transcript.usageByModel)
        #expect(restored.toolCalls == transcript.toolCalls)
        #expect(restored.setup.system == "Be exact.")
        // Codable carries the same bytes, as one string (through Foundation's coders).
        let encoded = try JSONEncoder().encode(transcript)
        let viaFoundation = try JSONDecoder().decode(SessionTranscript.self, from: encoded)
        #expect(viaFoundation == transcript)
        #expect(try viaFoundation.jsonBytes() == bytes)
        #expect(try JSONDecoder().decode(String.self, from: encoded) + "\n" == String(decoding: bytes, as: UTF8.self))
        // An API JSON object given inline decodes too.
        let inline = try JSONDecoder().decode(SessionTranscript.self, from: Data(#"{"model":"claude-opus-5","max_tokens":9,"messages":[]}"#.utf8))
        #expect(inline.setup.maxTokens == 9)
    }

    @Test func aBodyMayLeaveOutItsModelAndMessages() throws {
        let setupOnly = Array(#"{"max_tokens":64,"system":"Be brief."}"#.utf8)
        #expect(throws: TranscriptError.self) { try SessionTranscript(jsonBytes: setupOnly) }
        let read = try SessionTranscript(jsonBytes: setupOnly, defaultModel: .haiku4_5)
        #expect(read.setup.model == .haiku4_5)
        #expect(read.setup.system == "Be brief.")
        #expect(read.entries.isEmpty)
        // A body's own model wins over the default.
        let named = try SessionTranscript(jsonBytes: Array(#"{"model":"claude-opus-5"}"#.utf8), defaultModel: .haiku4_5)
        #expect(named.setup.model.id == "claude-opus-5")
    }

    @Test func aBodysMessagesGoOutAsWrittenUntilTheSessionAddsToThem() async throws {
        let body =
            #"{"model":"claude-opus-5","max_tokens":64,"messages":[{"role":"user","content":"Two names for a pelican"},{"role":"assistant","content":"1. Pelly"},{"role":"user","content":[{"text":"in french","type":"text","x":1.50}]}]}"#
        // Sent without a new prompt, every message is as written.
        let asGiven = FakeTransport([.stream(answer)])
        _ = try await ClaudeSession(transcript: try SessionTranscript(jsonBytes: Array(body.utf8)), transport: asGiven).resume()
        let sent = try #require(asGiven.bodies.first)
        #expect(sent["messages"]?.compactJSON == (try JSONValue.parse(body))["messages"]?.compactJSON)
        // A new prompt is a turn of the session's own, as blocks; the turns before it stay as written.
        let joined = FakeTransport([.stream(answer)])
        let earlier = #"{"model":"claude-opus-5","messages":[{"role":"user","content":"Two names for a pelican"},{"role":"assistant","content":"1. Pelly"}]}"#
        let transcript = try SessionTranscript(jsonBytes: Array(earlier.utf8))
        _ = try await ClaudeSession(transcript: transcript, transport: joined).respond(to: "and in Dutch")
        let messages = Array(try #require(joined.bodies.first)["messages"]?.arrayValue ?? JSONArray())
        #expect(messages.count == 3)
        #expect(messages[0]["content"]?.compactJSON == #""Two names for a pelican""#)
        #expect(messages[1]["content"]?.compactJSON == #""1. Pelly""#)
        #expect(messages[2]["content"]?.compactJSON == #"[{"type":"text","text":"and in Dutch"}]"#)
        // Content the session adds to a given turn joins it: that turn is written as blocks.
        let appended = FakeTransport([.stream(answer)])
        var withPrompt = try SessionTranscript(jsonBytes: Array(body.utf8))
        withPrompt.appendPrompt([.text("and in Dutch")])
        _ = try await ClaudeSession(transcript: withPrompt, transport: appended).resume()
        let appendedBody = try #require(appended.bodies.first)
        let last = try #require(appendedBody["messages"]?.arrayValue?.last)
        #expect(last["content"]?.compactJSON == #"[{"text":"in french","type":"text","x":1.50},{"type":"text","text":"and in Dutch"}]"#)
        // The assistant turn given as a string reads as its text, and goes back as given.
        #expect(try SessionTranscript(jsonBytes: Array(body.utf8)).responses.first?.text == "1. Pelly")
    }

    @Test(arguments: [1, 100, 511, 512])
    func aToolInputAsDeepAsTheStreamAllowsSurvivesCodable(depth: Int) async throws {
        // The accumulator's parser takes `depth` levels of tool input (512 at most).
        let input = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let call = StreamScript().toolUse("toolu_deep", "probe", input).end("tool_use")
        let transport = FakeTransport([.stream(call)])
        let session = ClaudeSession(model: .opus5, configuration: SessionConfiguration(onToolCalls: { _ in .stop }), transport: transport)
        let response = try await session.respond(to: "Go deep")
        #expect(response.pendingToolCalls.first?.inputError == nil)
        let transcript = session.transcript
        let decoded = try JSONDecoder().decode(SessionTranscript.self, from: try JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
        #expect(try decoded.jsonBytes() == (try transcript.jsonBytes()))
        #expect(decoded.pendingToolCalls.map(\.id) == ["toolu_deep"])
    }

    @Test func aPythonSDKStyleBodyContinuesAsAConversation() async throws {
        // What `client.messages.create(**body)` takes: string content, block content,
        // thinking with a signature, a tool call and its result, a block type from the
        // future, number text a double would change, and a field this package does not model.
        let body = """
            {"model": "claude-opus-5", "max_tokens": 1024, "system": "You add numbers.",
             "tools": [{"name": "add", "description": "Adds", "input_schema": {"type": "object"}}],
             "service_tier": "auto", "x_future_option": {"weight": 1.50},
             "messages": [
               {"role": "user", "content": "What is 1 + 2?"},
               {"role": "assistant", "content": [
                  {"type": "thinking", "thinking": "Use the tool.", "signature": "Sig/+=="},
                  {"type": "x_new_block", "payload": {"b": 1, "a": 12345678901234567890123}},
                  {"type": "tool_use", "id": "toolu_py", "name": "add", "input": {"a": 1, "b": 2}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_py", "content": "3"}]},
               {"role": "assistant", "content": "It is 3."}
             ]}
            """
        let transcript = try SessionTranscript(jsonBytes: Array(body.utf8))
        #expect(transcript.responses.count == 2)
        #expect(transcript.pendingToolCalls.isEmpty)
        #expect(transcript.setup.additionalFields.keys == ["service_tier", "x_future_option"])
        let transport = FakeTransport([.stream(answer)])
        let session = ClaudeSession(transcript: transcript, tools: [CountingTool(counter: CallCounter())], transport: transport)
        _ = try await session.respond(to: "And 3 + 4?")
        let wire = String(decoding: try RequestEncoder.encode(try #require(transport.requests.first)).body, as: UTF8.self)
        #expect(wire.contains(#"{"type":"thinking","thinking":"Use the tool.","signature":"Sig/+=="}"#))
        #expect(wire.contains(#"{"type":"x_new_block","payload":{"b":1,"a":12345678901234567890123}}"#))
        #expect(wire.contains(#""service_tier":"auto""#))
        #expect(wire.contains(#""x_future_option":{"weight":1.50}"#))
        let sent = try JSONValue.parse(Array(wire.utf8))
        let roles = sent["messages"]?.arrayValue?.map { $0["role"]?.stringValue }
        #expect(roles == ["user", "assistant", "user", "assistant", "user"])
        #expect(sent["messages"]?[4]?["content"]?[0]?["text"]?.stringValue == "And 3 + 4?")
        #expect(sent["tools"]?.arrayValue?.count == 1)  // the body's definition of add, not a second one
    }

    @Test func aBodyEndingInAToolCallResumesByRunningIt() async throws {
        let body =
            #"{"model":"claude-opus-5","messages":[{"role":"user","content":"1+2?"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_p","name":"add","input":{"a":1,"b":2}}]}]}"#
        let transcript = try SessionTranscript(jsonBytes: Array(body.utf8))
        #expect(transcript.pendingToolCalls.map(\.id) == ["toolu_p"])
        let counter = CallCounter()
        let transport = FakeTransport([.stream(answer)])
        let session = ClaudeSession(transcript: transcript, tools: [CountingTool(counter: counter)], transport: transport)
        _ = try await session.resume()
        #expect(counter.value == 1)
        #expect(lastTurnBlocks(transport.bodies[0]).first?["content"]?.stringValue == "3")
    }

    @Test(arguments: [505, 508, 510, 511, 512, 513])
    func whatTheWriterWritesTheReaderReads(inputDepth: Int) throws {
        // A tool input `{"x": [[…]]}` nested `inputDepth` levels, as a stream carries it.
        let input = #"{"x":"# + nested(inputDepth - 1) + "}"
        let stream = StreamScript().toolUse("toolu_deep", "add", input).end("tool_use")
        var accumulator = MessageAccumulator()
        _ = try accumulator.feed(Array(stream.utf8))
        let message = try accumulator.finish()
        var transcript = SessionTranscript(setup: testSetup())
        transcript.appendPrompt([.text("deep")])
        transcript.appendResponse(ResponseEntry(message))
        do throws(TranscriptError) {
            let bytes = try transcript.jsonBytes()
            // Written: so it reads back, equal.
            let restored = try SessionTranscript(jsonBytes: bytes)
            #expect(try restored.jsonBytes() == bytes)
            #expect(restored.pendingToolCalls.map(\.id) == ["toolu_deep"])
        } catch {
            // Refused: only for nesting the reader would refuse too, and never for what the parser accepted.
            guard case .tooDeep(let depth, _) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(depth > SessionTranscript.maxDepth)
            #expect(message.content.first.map { if case .toolUse(let call) = $0 { call.inputError != nil } else { false } } == true)
        }
        if inputDepth <= 512 {
            #expect(throws: Never.self) { try SessionTranscript(jsonBytes: try transcript.jsonBytes()) }
        }
    }

    @Test func nestingBeyondTheLimitIsRefusedOnBothSidesWithAPosition() throws {
        var transcript = SessionTranscript(setup: testSetup())
        let deep = try JSONValue.parse(nested(SessionTranscript.maxDepth), options: JSONParserOptions(maxDepth: Int.max))
        transcript.appendPrompt([.block(.object([("type", .string("x_deep")), ("v", deep)]))])
        do throws(TranscriptError) {
            _ = try transcript.jsonBytes()
            Issue.record("wrote what the reader refuses")
        } catch {
            guard case .tooDeep(let depth, let offset) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(depth == SessionTranscript.maxDepth + 1)
            #expect(offset > 0 && error.offset == offset)
        }
        let file = #"{"model":"m","messages":[{"role":"user","content":[{"type":"x","v":"# + nested(SessionTranscript.maxDepth) + "}]}]}"
        do throws(TranscriptError) {
            _ = try SessionTranscript(jsonBytes: Array(file.utf8))
            Issue.record("read nesting beyond the limit")
        } catch {
            guard case .notJSON(let parse) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(parse.offset > 40)
        }
    }

    @Test func aFileThatIsNotATranscriptSaysWhere() {
        func failure(_ text: String) -> TranscriptError? {
            do throws(TranscriptError) {
                _ = try SessionTranscript(jsonBytes: Array(text.utf8))
                return nil
            } catch { return error }
        }
        // A conversation under the wrong shape is refused, never read as empty.
        let wrongShape = failure(#"{"model":"m","messages":{"role":"user","content":"precious"}}"#)
        #expect(wrongShape?.kind == .notARequestBody(RequestBodyError(path: "messages", reason: "an array of messages, got an object")))
        #expect(wrongShape.map { "\($0)" }?.contains("messages") == true)
        let cut = #"{"model":"m","messages":[{"role":"user","content":"a"}"#
        #expect(failure(cut)?.offset == cut.utf8.count)  // where the input ended, unfinished
        #expect(failure("[1]")?.kind == .notARequestBody(RequestBodyError(path: "", reason: "a request body is a JSON object")))
        #expect(failure(#"{"messages":[]}"#)?.kind == .notARequestBody(RequestBodyError(path: "model", reason: "missing")))
        #expect(
            failure(#"{"model":"m","messages":[{"role":"robot","content":"a"}]}"#)?.kind
                == .notARequestBody(RequestBodyError(path: "messages[0].role", reason: "\"user\" or \"assistant\" expected")))
        #expect(
            failure(#"{"model":"m","messages":[{"role":"user","content":[{"text":"no type"}]}]}"#)?.kind
                == .notARequestBody(RequestBodyError(path: "messages[0].content[0]", reason: "a block is an object with a string type")))
        #expect(
            failure(#"{"model":"m","messages":[],"session_metadata":{"responses":[{"message":7}]}}"#)?.kind
                == .invalidMetadata(path: ".responses[0].message", reason: "not the index of an assistant turn in messages"))
        // A call answered by more user text instead of its result.
        let unanswered =
            #"{"model":"m","messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_u","name":"add","input":{}}]},{"role":"user","content":"next"}]}"#
        #expect(failure(unanswered)?.kind == .breaksToolRules(.unansweredToolUse(toolUseID: "toolu_u", turn: 1)))
    }
}
