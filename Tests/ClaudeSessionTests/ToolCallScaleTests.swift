import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

// One response calling a tool 2,000 times and one calling it 8,000 times,
// each answered and followed by a final answer: the session's whole call
// (receiving, the tool round, checking and building the next request) may
// cost at most 5x as much for 4x the calls. The pairing check of the tool
// rules looked each result up in a list of the calls and was quadratic
// (8,000 calls took 8.9x the time of 2,000).

private struct Echo: ClientTool {
    struct Arguments: Decodable, Sendable { var n: Int }
    var name: String { "echo" }
    var description: String { "Echoes n" }
    func call(_ arguments: Arguments) async throws -> ToolOutput { .text("\(arguments.n)") }
}

/// A response with `count` calls of `echo`.
private func calls(_ count: Int) -> String {
    var events = [StreamFixture.messageStart(id: "msg_many", model: "claude-opus-5")]
    for index in 0..<count {
        events.append(StreamFixture.start(index, #"{"type":"tool_use","id":"toolu_\#(index)","name":"echo","input":{}}"#))
        events.append(StreamFixture.json(index, #"{\"n\":\#(index)}"#))
        events.append(StreamFixture.stop(index))
    }
    events += [StreamFixture.messageDelta(stop: "tool_use"), StreamFixture.messageStop]
    return events.map(StreamFixture.frame).joined()
}

@Suite struct ToolCallScaleTests {
    @Test func theSessionIsLinearInTheNumberOfToolCalls() async throws {
        let small = calls(2_000)
        let large = calls(8_000)
        let done = StreamScript().text("All echoed.").end("end_turn")
        let executor = OneThreadExecutor()
        func run(_ stream: String, expecting count: Int) async throws -> Double {
            let transport = FakeTransport([.stream(stream, pieces: 1), .stream(done, pieces: 1)])
            let session = ClaudeSession(model: .opus5, tools: [Echo()], transport: transport)
            let seconds = try await executor.cpuSeconds { _ = try await session.respond(to: "Echo them all") }
            #expect(session.transcript.responses.first?.toolCalls.count == count)
            #expect(transport.requests.count == 2)
            return seconds
        }
        var ratio = Double.infinity
        for _ in 0..<2 {
            let smallTime = try await run(small, expecting: 2_000)
            let largeTime = try await run(large, expecting: 8_000)
            ratio = min(ratio, largeTime / max(smallTime, 1e-4))
        }
        print("ClaudeSession, one response of 8,000 tool calls: \(ratio)x the CPU time of 2,000 (least of 2)")
        #expect(ratio <= 5, "8,000 calls took \(ratio)x the CPU time of 2,000")
    }
}
