// Snapshots: what they show of each block kind, that they share storage,
// that they replay to exact API JSON and survive a Codable round trip.

import ClaudeStreaming
import ClaudeTestSupport
import CommandLineDisplay
import Foundation
import Testing

@testable import IncrementalJSON

@Suite struct SnapshotTests {
    typealias F = StreamFixture

    @Test func demoRecordingShowsEveryBlockKind() throws {
        let outcome = runStream(DemoRecording.bytes)
        #expect(outcome.error == nil)
        let message = try #require(outcome.last)
        #expect(
            message.content.map(\.type) == [
                "thinking", "text", "server_tool_use", "web_search_tool_result", "text", "tool_use",
            ])
        guard case .thinking(let thinking) = message.content[0] else { throw Failure("thinking first") }
        #expect(thinking.thinking.string.hasPrefix("The user wants to know"))
        #expect(thinking.signature?.hasPrefix("EqQB") == true)
        guard case .text(let cited) = message.content[4] else { throw Failure("cited text") }
        #expect(cited.citations.count == 1)
        #expect(cited.citations.first?.kind == "web_search_result_location")
        #expect(cited.text.string.contains("☔"))
        let activity = try #require(message.serverToolActivities.first)
        #expect(activity.request == .webSearch(query: "Lisbon weather forecast this weekend"))
        #expect(activity.contentIndex == 2)
        guard case .webSearchResults(let results) = activity.outcome else { throw Failure("search results") }
        #expect(results.map(\.title) == ["Lisbon, Portugal 10-day forecast", "Portugal weekend outlook: showers on the coast"])
        #expect(results.first?.pageAge == "2 hours ago")
        #expect(message.usage.outputTokens == 312)
        #expect(message.stopReason == "tool_use")
    }

    @Test func activityHoldsItsPlaceAndFillsIn() {
        var queries: [String?] = []
        var outcomes: [Bool] = []
        _ = runStream(DemoRecording.bytes) { snapshot in
            guard let activity = snapshot.serverToolActivities.first else { return }
            if case .webSearch(let query) = activity.request { queries.append(query) }
            outcomes.append(activity.outcome != nil)
        }
        #expect(queries.first == .some(nil), "present from the call's start, before any input")
        #expect(queries.contains("Lisbon weather "), "the query grows")
        #expect(outcomes.first == false && outcomes.last == true)
    }

    @Test func resultInALaterResponsePairsThroughTheLedger() throws {
        let call = F.sse([
            F.messageStart, F.toolStart(0, id: "srvtoolu_9", name: "web_fetch", type: "server_tool_use"),
            F.json(0, #"{\"url\": \"https://example.com\"}"#), F.stop(0), F.toolStart(1), F.json(1, "{}"), F.stop(1),
            F.messageDelta(stop: "tool_use"), F.messageStop,
        ])
        let result = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_9","content":{"type":"web_fetch_result","url":"https://example.com","retrieved_at":"2026-11-30T10:00:00Z","content":{"type":"document"}}}}"#,
            F.stop(0), F.messageDelta(), F.messageStop,
        ])
        var ledger = ServerToolLedger()
        ledger.record(try #require(runStream(call).last))
        #expect(ledger.pending.count == 1)
        ledger.record(try #require(runStream(result).last))
        #expect(ledger.pending.isEmpty)
        guard case .webFetch(let url, let retrievedAt, _) = ledger.activities.first?.outcome else {
            throw Failure("fetch outcome")
        }
        #expect(url == "https://example.com")
        #expect(retrievedAt == "2026-11-30T10:00:00Z")
    }

    @Test func fallbackHandoversNameTheServingModel() throws {
        let bytes = F.sse([
            F.messageStart,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"fallback","from":{"model":"claude-test"},"to":{"model":"claude-next"},"trigger":{"type":"refusal"}}}"#,
            F.stop(0), F.textStart(1), F.text(1, "served"), F.stop(1), F.messageDelta(), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        #expect(message.model == "claude-next")
        #expect(message.requestedModel == "claude-test")
        #expect(
            message.handovers == [
                FallbackHandover(
                    contentIndex: 0, fromModel: "claude-test", toModel: "claude-next", trigger: ["type": "refusal"])
            ])
        #expect(message.messageJSON()["model"]?.stringValue == "claude-next")
    }

    @Test func replayKeepsOpaqueFieldsAndNumberText() throws {
        let bytes = F.sse([
            #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj+ZBP5dAvNP1XKEJCaWJo7GGZGJOWMK5vZgqiY1Q=="}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1.0e0,"output_tokens":1}}}"#,
            #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}}"#,
            F.json(1, #"{\"big\": 18446744073709551615, \"pi\": 3.14159265358979323846264338327950288}"#), F.stop(1),
            F.messageDelta(), F.messageStop,
        ])
        let message = try #require(runStream(bytes).last)
        let content = message.contentJSON().compactJSON
        #expect(
            content.contains(
                #""data":"EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj+ZBP5dAvNP1XKEJCaWJo7GGZGJOWMK5vZgqiY1Q==""#
            ))
        #expect(content.contains(#""input":{"big":18446744073709551615,"pi":3.14159265358979323846264338327950288}"#))
        #expect(content.contains(#""caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}"#))
        #expect(message.messageJSON().compactJSON.contains(#""input_tokens":1.0e0"#))
    }

    @Test func snapshotsRoundTripThroughCodable() throws {
        let sources: [[UInt8]] =
            [DemoRecording.bytes, F.simple("round trip")]
            + Corpus.recordingNames().prefix(40).compactMap { try? Corpus.bytes(of: $0) }
        for bytes in sources {
            let outcome = runStream(bytes, checkChunkings: false)
            for message in outcome.completed {
                let data = try JSONEncoder().encode(message)
                let decoded = try JSONDecoder().decode(MessageSnapshot.self, from: data)
                #expect(decoded.messageJSON() == message.messageJSON())
                #expect(decoded.isComplete == message.isComplete)
                #expect(decoded.content.map(\.type) == message.content.map(\.type))
                #expect(decoded.model == message.model)
            }
        }
    }

    /// A start object that names `signature` or `citations` twice, with
    /// different values, encodes the same after a round trip through its
    /// own JSON (found by the replay fuzzer: the rebuilt block wrote the
    /// last value over both), and a streamed signature still replaces both.
    @Test func duplicateStreamedFieldsInTheStartSurviveARoundTrip() throws {
        let thinking = #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":"old","signature":""}}"#
        let cited =
            #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":[{"type":"char_location","cited_text":"x"}],"citations":[]}}"#
        let signed = #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"new"}}"#
        for events in [
            [F.messageStart, thinking, F.stop(0), cited, F.stop(1), F.messageDelta(), F.messageStop],
            [F.messageStart, thinking, signed, F.stop(0), cited, F.text(1, "t"), F.stop(1), F.messageDelta(), F.messageStop],
        ] {
            let message = try #require(runStream(F.sse(events), checkChunkings: false).completed.first)
            let json = message.messageJSON()
            #expect(MessageSnapshot(messageJSON: json).messageJSON() == json)
            let decoded = try JSONDecoder().decode(MessageSnapshot.self, from: JSONEncoder().encode(message))
            #expect(decoded.messageJSON() == json)
        }
        let streamed = try #require(
            runStream(
                F.sse([F.messageStart, thinking, signed, F.stop(0), F.messageDelta(), F.messageStop]),
                checkChunkings: false
            ).completed.first)
        #expect(streamed.messageJSON()["content"]?[0]?.compactJSON == #"{"type":"thinking","thinking":"","signature":"new","signature":"new"}"#)
    }

    @Test func messageBuiltFromFinalJSONEncodesBackTheSame() throws {
        for name in Corpus.recordingNames() {
            let outcome = runStream(try Corpus.bytes(of: name), checkChunkings: false)
            for message in outcome.completed {
                let json = message.messageJSON()
                #expect(MessageSnapshot(messageJSON: json).messageJSON() == json, "\(name)")
            }
        }
    }

    @Test func heldSnapshotsShareTheTextStorage() throws {
        // 20,000 deltas of 50 bytes with every snapshot held: if each
        // snapshot held its own copy of the text this would be 10 GB.
        var events = [F.messageStart, F.textStart(0)]
        let piece = String(repeating: "x", count: 50)
        for _ in 0..<20_000 { events.append(F.text(0, piece)) }
        events += [F.stop(0), F.messageDelta(), F.messageStop]
        var held: [MessageSnapshot] = []
        let outcome = runStream(F.sse(events), checkChunkings: false) { held.append($0) }
        #expect(outcome.error == nil)
        #expect(held.count == 20_005, "one snapshot per event but none for nothing")
        guard case .text(let first) = held[2].content[0], case .text(let last) = held.last?.content[0] else {
            throw Failure("text blocks")
        }
        #expect(first.text.utf8Count == 50)
        #expect(last.text.utf8Count == 1_000_000)
        // Copies would be 20,000 buffers of ~0.5 MB on average, ~10 GB.
        // Shared, the snapshots see prefixes of a handful: the buffer doubles
        // while small (each older one kept by the snapshots taken before it
        // grew) and then lives in one region. Counted by identity, not by
        // resident memory, which other tests running beside this one move.
        var storages: [ObjectIdentifier: Int] = [:]
        for snapshot in held {
            guard case .text(let block)? = snapshot.content.first, let storage = block.text.utf8._storage else { continue }
            storages[ObjectIdentifier(storage), default: 0] += 1
        }
        #expect(storages.count <= 20, "\(storages.count) text buffers behind 20,005 snapshots")
        #expect(storages.values.max() ?? 0 >= 19_000, "most snapshots share one buffer")
    }

    @Test func heldSnapshotsKeepWhatTheyShowedWhileTheStreamGoesOn() throws {
        // Each snapshot is read only after the whole stream: the live block's
        // bytes and partial value were appended past it since, and switching
        // the live block between interleaved text, thinking, tool input
        // (one of them invalid) and structured text wrote them back. Every
        // held snapshot must still equal one built from its prefix alone.
        func thinking(_ index: Int, _ text: String) -> String {
            #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"thinking_delta","thinking":"\#(text)"}}"#
        }
        let events = [
            F.messageStart, F.textStart(0),
            #"{"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
            F.toolStart(2), F.toolStart(3, id: "srvtoolu_1", name: "web_search", type: "server_tool_use"),
            F.toolStart(4, id: "toolu_2"), F.textStart(5), F.toolStart(6, id: "toolu_3"),
            F.text(0, "Hel"), F.json(2, #"{\"ci"#), thinking(1, "hm"), F.json(2, #"ty\": [1, {\"a\""#),
            F.json(3, #"{\"query\": \"lis"#), F.text(5, #"{\"ok\": tr"#), F.json(2, #": \"x\"}, 2"#),
            F.json(4, #"{\"a\": tru"#), F.json(4, "x}"), F.json(4, #", \"b\": 1}"#), F.text(0, "lo"),
            F.json(3, #"bon\"}"#), F.text(5, "ue}"), thinking(1, ", yes"), F.json(2, "]}"),
            // A top-level string is not an open container: written into the block each time.
            F.json(6, #"\"ab"#), F.text(0, "!"), F.json(6, #"c\""#),
            F.stop(3), F.stop(2), F.stop(1), F.stop(4), F.stop(0), F.stop(5), F.stop(6), F.messageDelta(), F.messageStop,
        ]
        let options = MessageAccumulatorOptions(allowsSequentialMessages: true, structuredOutput: .blocks([5]))
        var held: [MessageSnapshot] = []
        let outcome = runStream(F.sse(events), options: options) { held.append($0) }
        #expect(outcome.error == nil)
        try #require(held.count == events.count, "one snapshot per event")
        // The text and thinking each snapshot must show, read from the events
        // with Foundation's parser rather than this package's code.
        var streamed: [Int: String] = [:]
        var expectedText: [[Int: String]] = []
        for event in events {
            let object = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
            if let delta = object?["delta"] as? [String: Any], let index = object?["index"] as? Int,
                let piece = (delta["text"] ?? delta["thinking"]) as? String
            {
                streamed[index, default: ""] += piece
            }
            expectedText.append(streamed)
        }
        for (position, snapshot) in held.enumerated() {
            for (index, block) in snapshot.content.enumerated() {
                let shown: String? =
                    switch block {
                    case .text(let text): text.text.string
                    case .thinking(let thinking): thinking.thinking.string
                    default: nil
                    }
                if let shown { #expect(shown == expectedText[position][index, default: ""], "snapshot \(position), block \(index)") }
            }
            var fresh = MessageAccumulator(options: options)
            let reference = try #require(try fresh.feed(F.sse(Array(events[...position]))))
            #expect(snapshot == reference, "snapshot \(position)")
            #expect(snapshot.messageJSON().compactJSON == reference.messageJSON().compactJSON, "snapshot \(position)")
            for (block, expected) in zip(snapshot.content, reference.content) {
                guard case .toolUse(let call) = block, case .toolUse(let want) = expected else { continue }
                #expect(call.inputJSON.string == want.inputJSON.string, "snapshot \(position)")
                #expect(call.input.compactJSON == want.input.compactJSON, "snapshot \(position)")
                #expect((call.inputError == nil) == (want.inputError == nil), "snapshot \(position)")
                // And against a parse of the snapshot's own input text, which
                // does not share the accumulator's code.
                guard call.inputError == nil, !call.inputJSON.isEmpty else { continue }
                var parser = IncrementalJSONParser()
                try parser.feed(call.inputJSON.string)
                let parsed = call.isComplete ? try parser.finish() : parser.value
                #expect(call.input.compactJSON == parsed?.compactJSON, "snapshot \(position)")
            }
        }
        guard case .toolUse(let invalid) = held.last?.content[4], case .toolUse(let valid) = held.last?.content[2] else {
            throw Failure("tool blocks")
        }
        #expect(invalid.inputError != nil && invalid.inputJSON.string == #"{"a": trux}, "b": 1}"#)
        #expect(valid.input.compactJSON == #"{"city":[1,{"a":"x"},2]}"#)
        guard case .toolUse(let scalar) = held.last?.content[6] else { throw Failure("a tool block") }
        #expect(scalar.input.compactJSON == #""abc""#)
        guard case .text(let structured) = held.last?.content[5] else { throw Failure("a text block") }
        #expect(structured.structuredValue?.compactJSON == #"{"ok":true}"#)
        // What holding a snapshot costs before anything it points at.
        #expect(MemoryLayout<MessageSnapshot>.size <= 5 * MemoryLayout<Int>.size)
    }

    @Test func structuredOutputDecodesAtEveryEvent() throws {
        struct Trip: Decodable, Equatable {
            var city: String
            var days: Int
            var stops: [String]
        }
        struct PartialTrip: Decodable {
            var city: String?
            var days: Int?
            var stops: [String]?
        }
        let json = #"{\"city\": \"Porto\", \"days\": 4, \"stops\": [\"Ribeira\", \"Livraria Lello\"]}"#
        var events = [F.messageStart, F.textStart(0)]
        var index = json.startIndex
        while index < json.endIndex {
            var end = json.index(index, offsetBy: 3, limitedBy: json.endIndex) ?? json.endIndex
            if json[json.index(before: end)] == "\\" { end = json.index(after: end) }
            events.append(F.text(0, String(json[index..<end])))
            index = end
        }
        events += [F.stop(0), F.messageDelta(), F.messageStop]
        var cities: [String] = []
        var lastStops = 0
        let options = MessageAccumulatorOptions(structuredOutput: .allTextBlocks)
        let outcome = runStream(F.sse(events), options: options) { snapshot in
            guard let partial = try? snapshot.decodeStructuredOutput(PartialTrip.self) else { return }
            if let city = partial.city { cities.append(city) }
            let stops = partial.stops?.count ?? 0
            #expect(stops >= lastStops, "arrays only grow")
            lastStops = stops
        }
        #expect(cities.contains("Por"), "a growing string shows")
        let final = try #require(outcome.last)
        var decoder = JSONValueDecoder()
        decoder.requireComplete = true
        #expect(
            try final.decodeStructuredOutput(Trip.self, using: decoder)
                == Trip(city: "Porto", days: 4, stops: ["Ribeira", "Livraria Lello"]))
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = "expected \(description)" }
}
