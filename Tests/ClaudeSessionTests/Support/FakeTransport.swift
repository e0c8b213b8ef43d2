import ClaudeSession
import ClaudeStreaming
import ClaudeTransport
import IncrementalJSON
import Synchronization

// An in-process MessageStreaming: each request gets the next scripted
// answer, read through a MessageAccumulator in pieces (a snapshot handed
// out after each), or a transport failure. Every request is encoded as the
// real client would (so what the tests inspect is the wire body) and kept.

enum FakeAnswer: Sendable {
    /// An SSE stream, fed in `pieces` pieces.
    case stream(String, pieces: Int = 3)
    /// The first `bytes` of the stream, then the connection drops (with the snapshot so far).
    case dropped(String, after: Int)
    /// A failure before any byte (a 429, a network error).
    case failure(TransportError)
    /// Waits until cancelled, after handing out the stream's first half.
    case hang(String)
}

final class FakeTransport: MessageStreaming, TokenCounting {
    private let answers: [FakeAnswer]
    private let sent = Mutex<[MessageRequest]>([])

    init(_ answers: [FakeAnswer]) { self.answers = answers }

    var requests: [MessageRequest] { sent.withLock { $0 } }

    /// The wire bodies of the requests, parsed.
    var bodies: [JSONValue] {
        requests.map { request in
            (try? RequestEncoder.encode(request)).flatMap { try? JSONValue.parse($0.body) } ?? .null
        }
    }

    func countTokens(_ request: MessageRequest) async throws(TransportError) -> TokenCount {
        TokenCount(inputTokens: request.messages.count * 10, json: .object([]))
    }

    func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        do throws(RequestError) { _ = try RequestEncoder.encode(request) } catch { throw .invalidRequest(error) }
        let index = sent.withLock { list in
            list.append(request)
            return list.count - 1
        }
        guard index < answers.count else { throw .network("no scripted answer for request \(index)") }
        // As the real client: a request with a schema parses its answer's text as JSON.
        var options = MessageAccumulatorOptions()
        if request.outputSchema != nil { options.structuredOutput = .allTextBlocks }
        var accumulator = MessageAccumulator(options: options)
        func feed(_ bytes: ArraySlice<UInt8>) throws(TransportError) {
            do throws(MessageStreamError) {
                if let snapshot = try accumulator.feed(Array(bytes)) { onSnapshot?(snapshot) }
            } catch {
                throw .stream(error)
            }
        }
        switch answers[index] {
        case .failure(let error):
            throw error
        case .stream(let text, let pieces):
            let bytes = Array(text.utf8)
            let size = max(1, bytes.count / max(1, pieces))
            var offset = 0
            while offset < bytes.count {
                try feed(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
                await Task.yield()
            }
            do throws(MessageStreamError) { return try accumulator.finish() } catch { throw .stream(error) }
        case .dropped(let text, let after):
            try feed(Array(text.utf8).prefix(after))
            throw .connectionLost(reason: "the scripted connection dropped", snapshot: accumulator.snapshot)
        case .hang(let text):
            let bytes = Array(text.utf8)
            try feed(bytes.prefix(bytes.count / 2))
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw .cancelled(snapshot: accumulator.snapshot)
        }
    }
}

/// A fresh setup for tests: the model with everything at its defaults.
func testSetup(system: String? = nil) -> RequestSetup {
    RequestSetup(model: .opus5, system: system.map(SystemPrompt.text))
}

/// The content blocks of the last message of a wire body.
func lastTurnBlocks(_ body: JSONValue) -> [JSONValue] {
    Array(body["messages"]?.arrayValue?.last?["content"]?.arrayValue ?? JSONArray())
}
