import ClaudeStreaming
import IncrementalJSON
import Testing

@testable import ClaudeTransport

private func body(_ request: MessageRequest) throws -> JSONValue {
    try JSONValue.parse(try RequestEncoder.encode(request).body)
}

private func bodyText(_ request: MessageRequest) throws -> String {
    String(decoding: try RequestEncoder.encode(request).body, as: UTF8.self)
}

private func header(_ name: String, _ request: MessageRequest) throws -> String? {
    try RequestEncoder.encode(request).headers.first { $0.name == name }?.value
}

private func encodingError(_ request: MessageRequest) -> RequestError? {
    do {
        _ = try RequestEncoder.encode(request)
        return nil
    } catch {
        return error
    }
}

@Suite struct RequestEncoderTests {
    @Test func plainRequestHasFixedKeyOrderAndStreamTrue() throws {
        let request = MessageRequest(model: .opus5, messages: [.user("Hi")], system: "Be brief", maxTokens: 100)
        #expect(
            try bodyText(request)
                == #"{"model":"claude-opus-5","max_tokens":100,"system":"Be brief","messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}],"stream":true}"#
        )
        #expect(try header("anthropic-version", request) == "2023-06-01")
        #expect(try header("content-type", request) == "application/json")
        #expect(try header("accept", request) == "text/event-stream")
        #expect(try header("anthropic-beta", request) == nil)
        #expect(try header("anthropic-user-profile-id", request) == nil)
    }

    @Test func fixedEffortGoesToOutputConfig() throws {
        let request = MessageRequest(model: .opus5, messages: [.user("x")], effort: .xhigh)
        #expect(try body(request)["output_config"]?["effort"]?.stringValue == "xhigh")
    }

    @Test func fixedEffortTheModelLacksIsRefusedUpFront() {
        #expect(
            encodingError(MessageRequest(model: .sonnet4_6, messages: [.user("x")], effort: .xhigh))
                == .unsupportedEffort(.xhigh, model: "claude-sonnet-4-6"))
        #expect(
            encodingError(MessageRequest(model: .haiku4_5, messages: [.user("x")], effort: .low))
                == .unsupportedEffort(.low, model: "claude-haiku-4-5"))
    }

    @Test func hintsMapToLevelsAndAreDroppedWhenUnsupported() throws {
        #expect(try body(MessageRequest(model: .opus5, messages: [.user("x")], reasoningHint: .light))["output_config"]?["effort"]?.stringValue == "low")
        #expect(try body(MessageRequest(model: .opus5, messages: [.user("x")], reasoningHint: .moderate))["output_config"]?["effort"]?.stringValue == "medium")
        #expect(try body(MessageRequest(model: .opus5, messages: [.user("x")], reasoningHint: .deep))["output_config"]?["effort"]?.stringValue == "high")
        // Haiku takes no effort at all: the hint disappears, nothing else changes.
        #expect(try body(MessageRequest(model: .haiku4_5, messages: [.user("x")], reasoningHint: .deep))["output_config"] == nil)
        // A custom name the model does not declare is dropped too.
        #expect(try body(MessageRequest(model: .opus5, messages: [.user("x")], reasoningHint: .custom("turbo")))["output_config"] == nil)
    }

    @Test func customHintPassesThroughToAModelThatDeclaresIt() throws {
        let custom = ClaudeModel(id: "relay-model", capabilities: .init(effortLevels: [.low, EffortLevel("turbo")]))
        let request = MessageRequest(model: custom, messages: [.user("x")], reasoningHint: .custom("turbo"))
        #expect(try body(request)["output_config"]?["effort"]?.stringValue == "turbo")
    }

    @Test func fixedEffortWinsOverHint() throws {
        let request = MessageRequest(model: .opus5, messages: [.user("x")], effort: .max, reasoningHint: .light)
        #expect(try body(request)["output_config"]?["effort"]?.stringValue == "max")
    }

    @Test func closestEffortPrefersExactThenNearestThenLower() {
        #expect(EffortLevel.xhigh.closest(in: [.low, .medium, .high, .max]) == .high)
        #expect(EffortLevel.max.closest(in: [.low, .medium]) == .medium)
        #expect(EffortLevel.low.closest(in: [.high, .max]) == .high)
        #expect(EffortLevel.medium.closest(in: EffortLevel.ordered) == .medium)
        #expect(EffortLevel.high.closest(in: []) == nil)
        #expect(EffortLevel("turbo").closest(in: EffortLevel.ordered) == nil)
    }

    @Test func samplingOnlyForModelsThatAcceptIt() throws {
        let accepted = try body(MessageRequest(model: .sonnet4_6, messages: [.user("x")], temperature: 0.5, topP: 0.9, topK: 40))
        #expect(accepted["temperature"]?.numberValue?.text == "0.5")
        #expect(accepted["top_p"]?.numberValue?.text == "0.9")
        #expect(accepted["top_k"]?.numberValue?.text == "40")
        #expect(
            encodingError(MessageRequest(model: .opus5, messages: [.user("x")], temperature: 0.5))
                == .unsupportedFeature("sampling parameter temperature", model: "claude-opus-5"))
        // Every model in the chain must accept it.
        #expect(
            encodingError(MessageRequest(model: .sonnet4_6, messages: [.user("x")], topK: 5, fallbacks: .models([.opus4_7])))
                == .unsupportedFeature("sampling parameter top_k", model: "claude-opus-4-7"))
    }

    @Test func structuredOutputFormat() throws {
        let schema = try JSONValue.parse(#"{"type":"object","properties":{"name":{"type":"string"}}}"#)
        let encoded = try body(MessageRequest(model: .sonnet5, messages: [.user("x")], effort: .low, outputSchema: schema))
        #expect(
            encoded["output_config"]?.compactJSON
                == #"{"effort":"low","format":{"type":"json_schema","schema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#)
        let plain = ClaudeModel(id: "plain", capabilities: .minimal)
        #expect(
            encodingError(MessageRequest(model: plain, messages: [.user("x")], outputSchema: schema))
                == .unsupportedFeature("structured output (output_config.format)", model: "plain"))
        #expect(
            encodingError(MessageRequest(model: .opus5, messages: [.user("x")], outputSchema: schema, fallbacks: .models([plain])))
                == .unsupportedFeature("structured output (output_config.format)", model: "plain"))
    }

    @Test func imagesAreBase64AndGated() throws {
        let turn = ConversationTurn.user([.image(bytes: [0x89, 0x50, 0x4E, 0x47], mediaType: "image/png"), .text("what?")])
        let encoded = try body(MessageRequest(model: .haiku4_5, messages: [turn]))
        #expect(
            encoded["messages"]?[0]?["content"]?[0]?.compactJSON
                == #"{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw=="}}"#)
        let textOnly = ClaudeModel(id: "text-only", capabilities: .init(imageInput: false))
        #expect(
            encodingError(MessageRequest(model: .opus5, messages: [turn], fallbacks: .models([textOnly])))
                == .unsupportedFeature("image input", model: "text-only"))
    }

    @Test func fallbacksGetClosestEffortAndTheBeta() throws {
        let request = MessageRequest(
            model: .opus5, messages: [.user("x")], effort: .xhigh,
            fallbacks: .models([.sonnet4_6, .haiku4_5, .opus4_7]), betas: ["custom-beta"])
        #expect(
            try body(request)["fallbacks"]?.compactJSON
                == #"[{"model":"claude-sonnet-4-6","output_config":{"effort":"high"}},{"model":"claude-haiku-4-5"},{"model":"claude-opus-4-7","output_config":{"effort":"xhigh"}}]"#
        )
        #expect(try header("anthropic-beta", request) == "custom-beta,server-side-fallback-2026-07-01")
        #expect(
            try body(MessageRequest(model: .opus5, messages: [.user("x")], fallbacks: .serverDefault))["fallbacks"]?.compactJSON
                == #"[{"model":"default"}]"#)
        #expect(
            encodingError(MessageRequest(model: .opus5, messages: [.user("x")], fallbacks: .models([.opus5, .opus5, .opus5, .opus5])))
                == .tooManyFallbacks(4))
    }

    @Test func serverToolsWithDomainsAndLimits() throws {
        let request = MessageRequest(
            model: .opus5, messages: [.user("x")],
            serverTools: [
                .webSearch(.init(allowedDomains: ["swift.org"], maxUses: 3)),
                .webFetch(.init(blockedDomains: ["example.com"])),
                .codeExecution,
            ])
        #expect(
            try body(request)["tools"]?.compactJSON == "["
                + [
                    #"{"type":"web_search_20250305","name":"web_search","allowed_domains":["swift.org"],"max_uses":3}"#,
                    #"{"type":"web_fetch_20250910","name":"web_fetch","blocked_domains":["example.com"]}"#,
                    #"{"type":"code_execution_20250825","name":"code_execution"}"#,
                ].joined(separator: ",") + "]")
        #expect(
            encodingError(
                MessageRequest(
                    model: .opus5, messages: [.user("x")],
                    serverTools: [.webFetch(.init(allowedDomains: ["a"], blockedDomains: ["b"]))]))
                == .conflictingDomainFilters(.webFetch))
        // validate makes the same check, so a request it passes encodes.
        let conflicting = MessageRequest(
            model: .opus5, messages: [.user("x")], serverTools: [.webSearch(.init(allowedDomains: ["a"], blockedDomains: ["b"]))])
        #expect(throws: RequestError.conflictingDomainFilters(.webSearch)) { try RequestEncoder.validate(conflicting) }
        let noTools = ClaudeModel(id: "bare", capabilities: .minimal)
        #expect(
            encodingError(MessageRequest(model: noTools, messages: [.user("x")], serverTools: [.webSearch()]))
                == .unsupportedFeature("server tool web_search", model: "bare"))
    }

    @Test func userProfileHeaderAndBetaWithoutDuplicates() throws {
        let request = MessageRequest(
            model: .opus5, messages: [.user("x")],
            betas: ["user-profiles-2026-08-18", " other "], userProfileID: "prof_123")
        #expect(try header("anthropic-user-profile-id", request) == "prof_123")
        #expect(try header("anthropic-beta", request) == "user-profiles-2026-08-18,other")
    }

    @Test func adaptiveThinkingIsGated() throws {
        #expect(
            try body(MessageRequest(model: .opus5, messages: [.user("x")], adaptiveThinking: true))["thinking"]?.compactJSON
                == #"{"type":"adaptive"}"#)
        #expect(
            encodingError(MessageRequest(model: .haiku4_5, messages: [.user("x")], adaptiveThinking: true))
                == .unsupportedFeature("adaptive thinking", model: "claude-haiku-4-5"))
    }

    @Test func malformedRequestsAreRefused() {
        #expect(encodingError(MessageRequest(model: .opus5, messages: [])) == .noMessages)
        #expect(encodingError(MessageRequest(model: .opus5, messages: [.user("x")], maxTokens: 0)) == .invalidMaxTokens(0))
    }

    @Test func knownModelsResolveDatedSnapshots() {
        #expect(ClaudeModel.known(id: "claude-haiku-4-5-20251001")?.capabilities == ClaudeModel.haiku4_5.capabilities)
        #expect(ClaudeModel.known(id: "claude-opus-5")?.id == "claude-opus-5")
        #expect(ClaudeModel.known(id: "claude-unknown-9") == nil)
    }
}
