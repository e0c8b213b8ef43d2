// `events` and `replay` over Bedrock's AWS event stream, run as a real
// process: every recorded Bedrock body in ../shared/corpus/bedrock-eventstream
// gives the same `--final-json` and the same `events` lines as the same
// events written as SSE (made here by an independent unwrapping with
// Foundation), under every chunking; the framing is detected without a flag;
// a corrupt or cut frame exits 1 naming its offset.

import AWSEventStream
import ClaudeTestSupport
import Foundation
import Testing

/// `../shared/corpus/bedrock-eventstream/recorded/bedrock`, or nil when absent.
enum BedrockRecordings {
    static let directory = RecordedStreams.corpusFolder("bedrock-eventstream/recorded/bedrock")

    static var files: [URL] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".eventstream") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The same events as SSE: each chunk's `bytes` base64-decoded with
    /// Foundation (not the package's decoder) and written as `event: TYPE`
    /// and `data:` lines.
    static func sse(of body: [UInt8]) throws -> [UInt8] {
        var parser = AWSEventStreamParser()
        var out: [UInt8] = []
        for message in try parser.feed(body) where message.header(":event-type") == .string("chunk") {
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
            let text = try #require(payload["bytes"] as? String)
            let event = try #require(Data(base64Encoded: text))
            let type = (try? JSONSerialization.jsonObject(with: event) as? [String: Any])?["type"] as? String
            if let type { out += Array("event: \(type)\n".utf8) }
            for line in String(decoding: event, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                out += Array("data: \(line)\n".utf8)
            }
            out += Array("\n".utf8)
        }
        return out
    }
}

extension CLI {
    /// ``run(_:input:)`` on a thread of its own. These tests start hundreds
    /// of processes; waiting for each on one of the few threads of the
    /// cooperative pool starved the loopback network tests running beside
    /// them until their 60 s deadlines passed.
    static func runOffPool(_ arguments: [String], input: [UInt8]? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try run(arguments, input: input) }) }
        }
    }
}

/// One AWS event-stream message, framed here with the package's public CRC-32.
private func frame(_ headers: [(String, String)], _ payload: [UInt8]) -> [UInt8] {
    var block: [UInt8] = []
    for (name, value) in headers {
        block.append(UInt8(name.utf8.count))
        block += Array(name.utf8)
        block.append(7)
        block += [UInt8(value.utf8.count >> 8), UInt8(value.utf8.count & 0xFF)]
        block += Array(value.utf8)
    }
    let total = 16 + block.count + payload.count
    func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    var message = bigEndian(total) + bigEndian(block.count)
    message += bigEndian(Int(CRC32.checksum(message)))
    message += block + payload
    message += bigEndian(Int(CRC32.checksum(message)))
    return message
}

private func chunk(_ eventJSON: String) -> [UInt8] {
    let payload = #"{"bytes":"\#(Data(eventJSON.utf8).base64EncodedString())","p":"abcdefgh"}"#
    return frame([(":event-type", "chunk"), (":content-type", "application/json"), (":message-type", "event")], Array(payload.utf8))
}

/// A short Bedrock body made here: start, one text delta, stop.
private let madeBody: [UInt8] = [
    #"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-6","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}"#,
    #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
    #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello \"there\""}}"#,
    #"{"type":"content_block_stop","index":0}"#,
    #"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":4}}"#,
    #"{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":3}}"#,
].flatMap(chunk)

@Suite(.serialized, .enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct EventStreamFramingTests {
    @Test(.enabled(if: BedrockRecordings.directory != nil, "../shared/corpus/bedrock-eventstream is absent"))
    func everyRecordingGivesTheSameFinalJSONAndEventsAsItsEventsOverSSE() async throws {
        let files = BedrockRecordings.files
        #expect(files.count >= 50, "the corpus holds 56 Bedrock recordings")
        for file in files {
            let sseFile = try CLI.temporaryFile(try BedrockRecordings.sse(of: Array(try Data(contentsOf: file))))
            defer { try? FileManager.default.removeItem(atPath: sseFile) }
            let name = file.lastPathComponent
            let viaSSE = try await CLI.runOffPool(["replay", sseFile, "--final-json"])
            let detected = try await CLI.runOffPool(["replay", file.path, "--final-json"])
            let named = try await CLI.runOffPool(["replay", file.path, "--final-json", "--framing", "aws-eventstream", "--random-chunks", "17"])
            if viaSSE.status == 0 {
                #expect(!viaSSE.stdout.isEmpty, "\(name)")
                #expect(detected.status == 0 && detected.stdout == viaSSE.stdout, "\(name): \(detected.stderr)")
                #expect(named.status == 0 && named.stdout == viaSSE.stdout, "\(name): \(named.stderr)")
            } else {
                // Legacy Text Completions and the stream without message_stop: the
                // same exit code and the same messages, never a crash.
                #expect(detected.status == viaSSE.status && named.status == viaSSE.status, "\(name): \(detected.stderr)")
                #expect(detected.stdout == viaSSE.stdout && named.stdout == viaSSE.stdout, "\(name)")
                #expect(detected.stderr.contains("offset "), "\(name): \(detected.stderr)")
            }
            let events = try await CLI.runOffPool(["events", file.path])
            let sseEvents = try await CLI.runOffPool(["events", sseFile])
            #expect(events.status == 0 && sseEvents.status == 0, "\(name): \(events.stderr)")
            #expect(!events.lines.isEmpty && events.lines == sseEvents.lines, "\(name)")
        }
    }

    @Test(.enabled(if: BedrockRecordings.directory != nil, "../shared/corpus/bedrock-eventstream is absent"))
    func everyChunkingGivesTheSameOutput() async throws {
        // A text stream, a tool stream with two messages' worth of deltas, and one recorded in several writes.
        let picked = BedrockRecordings.files.filter {
            $0.lastPathComponent.contains("claude-opus-4-6__tool_streaming.0")
                || $0.lastPathComponent.contains("claude-3-sonnet-20240229-v1-0__212-degrees")
                || $0.lastPathComponent.contains("extended_thinking_bedrock")
        }
        #expect(picked.count == 3)
        for file in picked {
            for command in [["replay", "--final-json"], ["events"]] {
                let whole = try await CLI.runOffPool(command + [file.path])
                #expect(whole.status == 0 && !whole.stdout.isEmpty, "\(file.lastPathComponent): \(whole.stderr)")
                for chunking in [["--chunk", "1"], ["--chunk", "7"], ["--random-chunks", "3"], ["--chunks", "5,6,1,30"]] {
                    let split = try await CLI.runOffPool(command + [file.path] + chunking)
                    #expect(split.status == whole.status && split.stdout == whole.stdout, "\(file.lastPathComponent) \(chunking)")
                }
            }
        }
    }

    @Test func detectsTheFramingFromStdinArrivingInPieces() async throws {
        let expected = try await CLI.runOffPool(["events", "--framing", "aws-eventstream"], input: madeBody)
        #expect(expected.status == 0 && expected.lines.count == 6, "\(expected.stderr)")
        #expect(
            expected.lines[2]
                == #"{"event":"content_block_delta","data":"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello \\\"there\\\"\"}}","id":"","retry":null}"#
        )
        // Fewer than 12 bytes at first, held until the prelude is complete.
        let result = try ProgramUnderTest.run(["events"]) { child in
            _ = child.send(Array(madeBody[..<5]))
            usleep(50_000)
            _ = child.send(Array(madeBody[5..<11]))
            usleep(50_000)
            _ = child.send(Array(madeBody[11...]))
        }
        #expect(result.status == 0 && result.stdoutText == expected.stdout, "\(result.stderr)")
        let replay = try await CLI.runOffPool(["replay", "-", "--final-json", "--chunk", "1"], input: madeBody)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""text":"Hello \"there\"""#) && replay.stdout.contains(#""stop_reason":"end_turn""#))
        // SSE shorter than 12 bytes, and SSE named explicitly.
        let short = try await CLI.runOffPool(["events"], input: Array("data: x\n\n".utf8))
        #expect(short.status == 0 && short.lines == [#"{"event":null,"data":"x","id":"","retry":null}"#])
        let named = try await CLI.runOffPool(["events", "--framing", "sse", "--chunk", "1"], input: Array("data: x\n\n".utf8))
        #expect(named.lines == short.lines)
    }

    @Test func aCorruptFrameExitsOneNamingItsOffset() async throws {
        var body = madeBody
        // The first message's total length, from its prelude: where the second begins.
        let length = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
        let secondLength = Int(body[length]) << 24 | Int(body[length + 1]) << 16 | Int(body[length + 2]) << 8 | Int(body[length + 3])
        body[length + secondLength / 2] ^= 0x01  // a payload byte of the second message: its message CRC fails
        // The error names the offset of the CRC that failed (the last 4 bytes of the second message).
        let crcOffset = length + secondLength - 4
        let events = try await CLI.runOffPool(["events"], input: body)
        #expect(events.status == 1)
        #expect(events.lines.count == 1, "the first message is printed before the error")
        #expect(events.stderr.hasPrefix("offset \(crcOffset): message CRC"), "\(events.stderr)")
        let replay = try await CLI.runOffPool(["replay", "-", "--final-json"], input: body)
        #expect(replay.status == 1)
        #expect(replay.stderr.hasPrefix("offset \(crcOffset): "), "\(replay.stderr)")
        // A message cut short: exit 1 at the end, naming where the message began.
        let cut = Array(madeBody.dropLast(3))
        let truncated = try await CLI.runOffPool(["events", "--chunk", "7"], input: cut)
        #expect(truncated.status == 1)
        #expect(truncated.lines.count == 5)
        #expect(truncated.stderr.contains("stream ended 3 bytes before the end of the message"), "\(truncated.stderr)")
    }

    @Test func aMessageOtherThanAChunkPrintsItsHeadersAndPayload() async throws {
        let exception = frame(
            [
                (":exception-type", "throttlingException"), (":content-type", "application/json"),
                (":message-type", "exception"),
            ], Array(#"{"message":"Too many requests"}"#.utf8))
        let body = Array(madeBody) + exception
        let events = try await CLI.runOffPool(["events"], input: body)
        #expect(events.status == 0, "\(events.stderr)")
        #expect(
            events.lines.last
                == #"{"headers":{":exception-type":"throttlingException",":content-type":"application/json",":message-type":"exception"},"payload":"{\"message\":\"Too many requests\"}"}"#
        )
        // replay stops at it with exit 1, the exception named.
        let replay = try await CLI.runOffPool(["replay", "-", "--final-json"], input: body)
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("throttlingException") && replay.stderr.contains("Too many requests"), "\(replay.stderr)")
    }

    @Test func anUnknownFramingIsAUsageError() async throws {
        for command in ["events", "replay"] {
            let result = try await CLI.runOffPool([command, "-", "--framing", "json"], input: [])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--framing takes sse, aws-eventstream or auto, not 'json'"), "\(result.stderr)")
        }
    }
}
