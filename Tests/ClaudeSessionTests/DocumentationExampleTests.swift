// The worked example of ClaudeSession.docc/ClaudeSession.md, run offline, so
// the catalog cannot drift from the code: the transport is a MessageStreaming
// that answers each request with the next scripted stream.

import ClaudeSession
import ClaudeStreaming
import ClaudeTestSupport
import ClaudeTransport
import Synchronization
import Testing

// `Weather` is the README's example tool (ReadmeExampleTests.swift).

/// Answers request N with `streams[N]`, read through a `MessageAccumulator`.
private final class ScriptedTransport: MessageStreaming {
    private let streams: [String]
    private let sent = Mutex<[MessageRequest]>([])

    init(_ streams: [String]) { self.streams = streams }

    var requests: [MessageRequest] { sent.withLock { $0 } }

    func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        let index = sent.withLock { list in
            list.append(request)
            return list.count - 1
        }
        guard index < streams.count else { throw .network("no scripted answer for request \(index)") }
        var accumulator = MessageAccumulator()
        do throws(MessageStreamError) {
            if let snapshot = try accumulator.feed(Array(streams[index].utf8)) { onSnapshot?(snapshot) }
            return try accumulator.finish()
        } catch {
            throw .stream(error)
        }
    }
}

@Suite struct DocumentationExampleTests {
    @Test func catalogWorkedExample() async throws {
        let transport = ScriptedTransport([
            StreamScript().toolUse("toolu_1", "weather", #"{"city":"Paris"}"#).end("tool_use"),
            StreamScript().text("22 C and sunny.").end("end_turn"),
        ])
        let session = ClaudeSession(model: .opus5, system: "Be brief.", tools: [Weather()], transport: transport)
        let answer = try await session.respond(to: "Weather in Paris?")

        #expect(answer.text == "22 C and sunny.")
        #expect(answer.requests == 2)
        let entries = session.transcript.entries
        try #require(entries.count == 4)
        guard case .prompt = entries[0], case .response(let first) = entries[1], let call = first.toolCalls.first,
            case .toolOutput(let output) = entries[2], case .response = entries[3]
        else {
            Issue.record("entries out of order: \(entries)")
            return
        }
        #expect(call.name == "weather")
        #expect(output.toolUseID == "toolu_1")
        #expect(output.content == .text("22 C in Paris"))
        #expect(output.isError == false)
        // The second request carried the tool's result back.
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.messages.count == 3)
    }
}
