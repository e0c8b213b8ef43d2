// The command line streams its input: output appears while the input is
// still arriving, and memory stays bounded by the core's limits plus one
// read buffer, whatever the input's size. Every test runs the built binary
// through a real pipe, fed by the test.

import ClaudeStreaming
import ClaudeTestSupport
import CommandLineDisplay
import Foundation
import Testing

@Suite(.enabled(if: CLI.executable != nil, "claude-stream is not built beside the tests"))
struct StreamingInputTests {
    /// The first event is printed while the writer still holds the pipe open
    /// (before this change the whole input was read first, so nothing came
    /// until the end).
    @Test func eventsPrintsEachEventAsItsBytesArrive() throws {
        let child = try ProgramUnderTest(["events"])
        child.send(Array("data: one\n\n".utf8))
        let start = Date()
        let first = child.waitForOutput(atLeast: 1, timeout: 5)
        let latency = Date().timeIntervalSince(start)
        #expect(String(decoding: first, as: UTF8.self) == #"{"event":null,"data":"one","id":"","retry":null}"# + "\n")
        // Generous for a loaded machine; the measured figure is in Benchmarks/RESULTS.md.
        #expect(latency < 1.0, "first event after \(latency) s")
        child.send(Array("data: two\n\n".utf8))
        let result = child.finish()
        #expect(result.status == 0)
        #expect(result.stdoutText.components(separatedBy: "\n").count == 3)
    }

    @Test func replayDrawsTheResponseBeforeTheStreamEnds() throws {
        let bytes = DemoRecording.bytes
        let marker = Array("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2".utf8)
        let cut = try #require(firstRange(of: marker, in: bytes))
        for flags in [["replay", "-"], ["replay", "-", "--final-json"]] {
            let child = try ProgramUnderTest(flags)
            child.send(Array(bytes[..<cut]))
            if flags.contains("--final-json") {
                // Nothing is final yet, and the command must still be waiting for input.
                #expect(child.waitForOutput(atLeast: 1, timeout: 0.3).isEmpty)
            } else {
                let text = "I'll look up the forecast for Lisbon."
                let early = String(
                    decoding: child.waitForOutput(timeout: 5) {
                        String(decoding: $0, as: UTF8.self).contains(text)
                    }, as: UTF8.self)
                #expect(early.contains(text), "drawn before the input ended: \(early)")
            }
            child.send(Array(bytes[cut...]))
            let result = child.finish()
            #expect(result.status == 0, "\(flags): \(result.stderr)")
        }
    }

    @Test func jsonPrefixesAppearAsBytesArrive() throws {
        let child = try ProgramUnderTest(["json", "--prefixes"])
        child.send(Array(#"{"a":"xy"#.utf8))
        let early = String(decoding: child.waitForOutput(atLeast: 20, timeout: 5), as: UTF8.self)
        #expect(early.hasPrefix("{}\n{}\n{}\n{}\n{}\n"), "\(early)")
        child.send(Array(#""}"#.utf8))
        let result = child.finish()
        #expect(result.status == 0)
        #expect(result.stdoutText.hasSuffix(#"{"a":"xy"}"# + "\n"))
    }

    /// A stream far larger than its content: peak memory follows the
    /// content (4 MiB of streamed tool input), not the 31 MB of bytes. The
    /// old reader held the whole input, so its peak grew by the stream size.
    @Test(
        .enabled(if: ProgramUnderTest.peakMeter != nil, "/usr/bin/time (GNU time) measures the peak"),
        .disabled(if: ProgramUnderTest.underAddressSanitizer, "AddressSanitizer inflates peak memory; checked in the plain run"))
    func finalJSONPeakMemoryFollowsTheContentNotTheStream() throws {
        let baseline = try ProgramUnderTest.run(["replay", "--final-json", "-"], stdout: .null, measuringPeak: true) { child in
            child.send(LargeStream.toolInput(bytes: 1 << 10))
        }
        #expect(baseline.status == 0)
        let inputBytes = 4 << 20
        let big = try ProgramUnderTest.run(["replay", "--final-json", "-"], stdout: .null, measuringPeak: true) { child in
            LargeStream.streamToolInput(bytes: inputBytes) { child.send($0) }
        }
        #expect(big.status == 0, "\(big.stderr)")
        let streamBytes = LargeStream.toolInputStreamSize(bytes: inputBytes)
        #expect(streamBytes > 30_000_000)
        let growth = big.peakResidentBytes - baseline.peakResidentBytes
        // The content's own copies (its text, its parsed value, its JSON
        // line) are 3x; a whole-input reader adds 31 MB more.
        #expect(growth < 4 * inputBytes + (2 << 20), "peak grew by \(growth) bytes for a \(streamBytes)-byte stream")
    }

    /// A 1 GiB `data:` line from a pipe: the 16 MiB line limit fires, having
    /// held at most the limit (the old reader read all 1 GiB first).
    @Test(.enabled(if: ProgramUnderTest.peakMeter != nil, "/usr/bin/time (GNU time) measures the peak"))
    func hugeDataLineHitsTheLimitWithBoundedMemory() throws {
        let result = try ProgramUnderTest.run(["events", "--count"], stdout: .null, measuringPeak: true) { child in
            guard child.send(Array("data: ".utf8)) else { return }
            let block = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            for _ in 0..<1024 where child.send(block) {}
        }
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("offset \(16 << 20): line longer than"), "\(result.stderr)")
        #expect(result.peakResidentBytes < 128 << 20, "peak \(result.peakResidentBytes) bytes")
    }

    @Test func jsonOnEndlessInputStopsAtTheParserLimit() throws {
        let result = try ProgramUnderTest.run(["json", "--max-bytes", "1000000"], stdout: .null) { child in
            guard child.send(Array("[".utf8)) else { return }
            let block = Array(String(repeating: "1,", count: 1 << 15).utf8)
            for _ in 0..<4096 where child.send(block) {}  // 256 MiB if nothing stopped it
        }
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("offset 1000000: "), "\(result.stderr)")
    }

    /// The chunking flags re-split what is read: the same output under every
    /// flag, from a file or from a pipe that delivers the bytes in odd pieces.
    @Test func outputIsTheSameUnderEveryChunkingAndEveryReadSize() throws {
        let bytes = DemoRecording.bytes
        let file = try CLI.temporaryFile(bytes)
        for command in [["events"], ["replay", "--final-json"], ["replay", "--speed", "0"]] {
            let reference = try CLI.run(command + [file])
            #expect(reference.status == 0)
            for flags in [["--chunk", "1"], ["--chunk", "7"], ["--chunks", "3,1,7"], ["--random-chunks", "9"]] {
                let chunked = try CLI.run(command + [file] + flags)
                #expect(chunked.stdout == reference.stdout, "\(command) \(flags)")
            }
            // Through a pipe, in pieces of 1 to 97 bytes with pauses, so reads end anywhere.
            let piped = try ProgramUnderTest.run(command + ["-"]) { child in
                var offset = 0
                var size = 1
                while offset < bytes.count {
                    let end = min(bytes.count, offset + size)
                    child.send(Array(bytes[offset..<end]))
                    offset = end
                    size = size % 97 + 13
                    if offset % 5 == 0 { usleep(200) }
                }
            }
            #expect(piped.status == 0)
            #expect(piped.stdoutText == reference.stdout, "\(command) through a pipe")
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

/// Streams with one tool call whose input streams in 16-byte deltas
/// (the shape of a long file written by a tool).
enum LargeStream {
    static let header = Array(
        ("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_big\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
            + "\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
            + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_big\",\"name\":\"write\",\"input\":{}}}\n\n").utf8)
    static let trailer = Array(
        ("data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
            + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n"
            + "data: {\"type\":\"message_stop\"}\n\n").utf8)

    static func delta(_ json: String) -> [UInt8] {
        Array(
            ("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\""
                + json + "\"}}\n\n").utf8)
    }

    static let piece = delta("abcdefghijklmnop")

    /// Hands the stream to `body` in blocks of about 1 MiB.
    static func streamToolInput(bytes: Int, _ body: ([UInt8]) -> Void) {
        body(header + delta(#"{\"data\": \""#))
        let perBlock = 8192
        let block = Array([[UInt8]](repeating: piece, count: perBlock).joined())
        var remaining = bytes / 16
        while remaining > 0 {
            let count = min(perBlock, remaining)
            body(count == perBlock ? block : Array(block.prefix(count * piece.count)))
            remaining -= count
        }
        body(delta(#"\"}"#) + trailer)
    }

    static func toolInput(bytes: Int) -> [UInt8] {
        var all: [UInt8] = []
        streamToolInput(bytes: bytes) { all += $0 }
        return all
    }

    static func toolInputStreamSize(bytes: Int) -> Int {
        header.count + delta(#"{\"data\": \""#).count + (bytes / 16) * piece.count + delta(#"\"}"#).count + trailer.count
    }
}
