// Bedrock streams written for these tests with the test encoder: exception
// messages of every kind, malformed chunk payloads, the JSON forms a chunk
// may take, truncation, and framing detection. Every stream is replayed at
// chunk sizes 1, 2, 3, 7, 64 and random by `runStream`.

import AWSEventStream
import ClaudeTestSupport
import Foundation
import FuzzProperties
import Testing

@testable import ClaudeStreaming

private typealias F = StreamFixture

private func bedrock(_ events: [String], padding: Int = 5) -> [UInt8] {
    events.flatMap { AWSEventStreamEncoder.bedrockChunk(event: Array($0.utf8), padding: padding) }
}

private func chunk(payload: String) -> [UInt8] {
    AWSEventStreamEncoder.message(
        headers: [
            AWSEventStreamHeader(name: ":event-type", value: .string("chunk")),
            AWSEventStreamHeader(name: ":content-type", value: .string("application/json")),
            AWSEventStreamHeader(name: ":message-type", value: .string("event")),
        ], payload: Array(payload.utf8))
}

private let simpleEvents = [
    F.messageStart, F.textStart(0), F.text(0, "Hel"), F.text(0, "lo"), F.stop(0), F.messageDelta(),
    #"{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":10,"outputTokenCount":42,"invocationLatency":511,"firstByteLatency":302}}"#,
]

@Suite struct BedrockFramingTests {
    @Test func simpleStreamMatchesSSE() throws {
        let overBedrock = runStream(bedrock(simpleEvents), options: bedrockOptions)
        let overSSE = runStream(F.sse(simpleEvents))
        #expect(overBedrock.error == nil)
        #expect(overBedrock.last?.text == "Hello")
        #expect(framingIndependentSummary(overBedrock) == framingIndependentSummary(overSSE))
    }

    @Test(arguments: [
        "throttlingException", "modelStreamErrorException", "validationException",
        "internalServerException", "serviceUnavailableException", "modelTimeoutException",
    ])
    func exceptionCarriesTheSnapshotSoFar(_ type: String) throws {
        let body = bedrock(Array(simpleEvents.prefix(3))) + AWSEventStreamEncoder.bedrockException(type: type, message: "it failed")
        let outcome = runStream(body, options: bedrockOptions)
        let error = try #require(outcome.error)
        #expect(error.kind == .eventStreamException(EventStreamException(type: type, message: "it failed")))
        #expect(error.snapshot?.text == "Hel")
        #expect(error.eventIndex == 3)
        #expect(error.byteOffset == bedrock(Array(simpleEvents.prefix(3))).count)
        #expect("\(error)".contains(type))
    }

    @Test func errorMessageTypeIsAnException() throws {
        let error = AWSEventStreamEncoder.message(
            headers: [
                AWSEventStreamHeader(name: ":message-type", value: .string("error")),
                AWSEventStreamHeader(name: ":error-code", value: .string("InternalFailure")),
                AWSEventStreamHeader(name: ":error-message", value: .string("boom")),
            ], payload: [])
        let outcome = runStream(bedrock(Array(simpleEvents.prefix(2))) + error, options: bedrockOptions)
        #expect(outcome.error?.kind == .eventStreamException(EventStreamException(type: "InternalFailure", message: "boom")))
        #expect(outcome.error?.snapshot != nil)
    }

    @Test(arguments: [
        (#"{"p":"abc"}"#, "no \"bytes\""),
        (#"{"bytes":"e30"}"#, "not base64"),
        (#"{"bytes":"e3=0"}"#, "not base64"),
        (#"["bytes"]"#, "not a JSON object"),
        (#"{"bytes":"e30=""#, "not a JSON object"),
        ("{\"bytes\":\"e\n30=\"}", "not base64"),
    ])
    func malformedChunkIsATypedError(_ payload: String, _ expected: String) throws {
        let body = bedrock([F.messageStart]) + chunk(payload: payload)
        let outcome = runStream(body, options: bedrockOptions)
        guard case .invalidChunkPayload(let what)? = outcome.error?.kind else {
            Issue.record("\(payload): \(String(describing: outcome.error))")
            return
        }
        #expect(what.contains(expected), "\(what)")
        #expect(outcome.error?.eventIndex == 1)
        #expect(outcome.error?.byteOffset == bedrock([F.messageStart]).count)
        #expect(outcome.error?.snapshot != nil)
    }

    @Test func chunkJSONFormsAllDecode() throws {
        // "???" encodes with '/' characters, which JSON lets a writer escape.
        let base64 = String(decoding: AWSEventStreamEncoder.base64(Array(F.text(0, "???").utf8)), as: UTF8.self)
        let escaped = base64.replacingOccurrences(of: "/", with: "\\/")
        #expect(escaped != base64, "the fixture should contain a '/' to escape")
        let forms = [
            #"{"bytes":"\#(base64)"}"#,
            #" { "p" : "xyz" , "bytes" : "\#(base64)" } "#,
            #"{"bytes":"\#(escaped)","p":"q"}"#,
            #"{"extra":{"nested":["}",1,{"a":"]"}]},"n":-1.5e3,"t":true,"bytes":"\#(base64)"}"#,
            #"{"byt\u0065s":"\#(base64)"}"#,
            #"{"bytes":"\#(base64)","p":"a\"b"}"#,
            #"{"bytes":"\#(base64)","p":"a\\"}"#,
            #"{"bytes":"\#(base64)","p":"abc"} "#,
            #"{"bytes":"\#(base64)","p":"abc","q":1}"#,
        ]
        for form in forms {
            let body = bedrock(Array(simpleEvents.prefix(2))) + chunk(payload: form) + bedrock(Array(simpleEvents.dropFirst(2)))
            let outcome = runStream(body, options: bedrockOptions)
            #expect(outcome.error == nil, "\(form): \(String(describing: outcome.error))")
            #expect(outcome.last?.text == "???Hello", "\(form)")
        }
    }

    /// The chunk header block the decoder recognises in one compare is the
    /// one Bedrock sends (the encoder writes Bedrock's order).
    @Test func theUsualChunkHeaderBlockIsBedrocks() throws {
        var parser = AWSEventStreamParser()
        var blocks: [[UInt8]] = []
        let message = AWSEventStreamEncoder.bedrockChunk(event: Array(F.messageStart.utf8), padding: 3)
        try message.withUnsafeBytes { bytes in
            try parser.feed(bytes) { blocks.append(Array($0.headerBytes)) }
        }
        let usual = BedrockEventDecoder.chunkHeaderBlock
        #expect(blocks == [Array(UnsafeBufferPointer(start: usual.utf8Start, count: usual.utf8CodeUnitCount))])
    }

    @Test func base64PaddingMatchesFoundation() {
        for length in 0..<10 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 250) }
            let event = #"{"type":"ping","pad":""# + String(repeating: "x", count: length) + #""}"#
            let outcome = runStream(bedrock([F.messageStart, event] + Array(simpleEvents.dropFirst())), options: bedrockOptions)
            #expect(outcome.error == nil, "length \(length)")
            #expect(Data(base64Encoded: Data(AWSEventStreamEncoder.base64(bytes))) == Data(bytes))
        }
    }

    @Test func legacyTextCompletionsIsATypedError() throws {
        let legacy = [#"{"completion":" Hello","stop_reason":null,"stop":null}"#]
        let outcome = runStream(bedrock(legacy), options: bedrockOptions)
        #expect(outcome.error?.kind == .legacyTextCompletions)
        #expect(outcome.error?.eventIndex == 0)
        let typed = runStream(bedrock([#"{"type":"completion","completion":"x","stop_reason":null}"#]), options: bedrockOptions)
        #expect(typed.error?.kind == .legacyTextCompletions)
    }

    @Test func framingErrorCarriesTheSnapshot() throws {
        var body = bedrock(simpleEvents)
        let cut = bedrock(Array(simpleEvents.prefix(3))).count
        body[cut + 20] ^= 0x55  // inside the fourth message's headers
        let outcome = runStream(body, options: bedrockOptions)
        guard case .eventStreamFraming(let framing)? = outcome.error?.kind,
            case .messageChecksumMismatch = framing.reason
        else {
            Issue.record("\(String(describing: outcome.error))")
            return
        }
        #expect(outcome.error?.snapshot?.text == "Hel")
    }

    /// A bad chunk, then a message whose CRC is wrong: the chunk's error
    /// comes first, whether the two arrive in one piece or apart.
    @Test func theFirstFailureInAChunkIsTheOneReported() throws {
        var broken = bedrock([F.text(0, "x")])
        broken[broken.count - 1] ^= 0xFF
        let body = bedrock([F.messageStart]) + chunk(payload: #"{"p":"no bytes"}"#) + broken
        let outcome = runStream(body, options: bedrockOptions)
        let error = try #require(outcome.error)
        #expect(error.kind == .invalidChunkPayload(#"chunk payload has no "bytes" member"#))
        #expect(error.eventIndex == 1)
    }

    @Test func truncatedBodyIsAFramingErrorAtFinish() throws {
        let body = bedrock(simpleEvents)
        let outcome = runStream(Array(body.dropLast(7)), options: bedrockOptions)
        guard case .eventStreamFraming(let framing)? = outcome.error?.kind,
            case .truncatedMessage(7) = framing.reason
        else {
            Issue.record("\(String(describing: outcome.error))")
            return
        }
        #expect(outcome.error?.snapshot?.text == "Hello")
        let unfinished = runStream(bedrock(Array(simpleEvents.dropLast())), options: bedrockOptions)
        #expect(unfinished.error?.kind == .incomplete)
    }

    @Test func otherEventTypesAreSkipped() throws {
        let other = AWSEventStreamEncoder.message(
            headers: [
                AWSEventStreamHeader(name: ":event-type", value: .string("metadata")),
                AWSEventStreamHeader(name: ":message-type", value: .string("event")),
            ], payload: Array("{}".utf8))
        let outcome = runStream(bedrock(Array(simpleEvents.prefix(3))) + other + bedrock(Array(simpleEvents.dropFirst(3))), options: bedrockOptions)
        #expect(outcome.error == nil)
        #expect(outcome.last?.text == "Hello")
    }

    @Test func framingIsDetectedFromTheFirstBytes() {
        bedrock(simpleEvents).withUnsafeBytes { raw in
            #expect(EventFraming.detect(raw) == .awsEventStream)
            #expect(EventFraming.detect(UnsafeRawBufferPointer(rebasing: raw[0..<11])) == nil)
        }
        F.sse(simpleEvents).withUnsafeBytes { #expect(EventFraming.detect($0) == .serverSentEvents) }
        Array("\u{FEFF}data: x\n\n".utf8).withUnsafeBytes { #expect(EventFraming.detect($0) == .serverSentEvents) }
        #expect(EventFraming(contentType: "application/vnd.amazon.eventstream") == .awsEventStream)
        #expect(EventFraming(contentType: "text/event-stream; charset=utf-8") == .serverSentEvents)
        #expect(EventFraming(contentType: "application/json") == nil)
        #expect(EventFraming(rawValue: "aws-eventstream") == .awsEventStream)
    }
}
