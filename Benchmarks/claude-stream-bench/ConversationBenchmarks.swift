// The session's costs, each beside its baseline in the same run, in process
// CPU time (the machine is shared: wall time would measure the neighbours):
//
//   history: the next request of a 100-turn conversation of ≈10 MB (each
//     response a mixed stream's message: thinking with signature, web search
//     results, cited text, tool input; each call answered by a tool result
//     before the next prompt), built from the transcript, checked and
//     encoded, versus Foundation's JSONEncoder encoding the same history as
//     Codable structs. Replayed turns are bytes already, so the target is
//     memcpy class: at least 1 GB/s of history.
//   overhead: one streamed response through ClaudeSession.respond (request
//     built and checked, stream accumulated, transcript entry made) versus the same bytes
//     fed to MessageAccumulator directly. Target: at most 5% more.
//   first send: what the overhead row does not include, shown beside the
//     same baseline: a response's content is encoded to bytes once, when it
//     is first sent back (or saved); every later request copies the bytes.
//     The history row is the steady state (every turn already bytes).

import ClaudeSession
import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ConversationBenchmarks {
    static let suite = BenchmarkSuite(name: "conversation") { context in
        [history(context), overhead(context), firstSend(context)]
    }

    /// Process CPU seconds of one run of `body`.
    static func cpuSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
        }
        let start = now()
        body()
        return now() - start
    }

    /// Median process CPU seconds of `body` over the context's repetitions, after one warm-up.
    static func cpuTime(_ context: BenchmarkContext, _ body: () -> Void) -> Double {
        body()
        let times = (0..<context.repetitions).map { _ in cpuSeconds(body) }.sorted()
        return times[times.count / 2]
    }

    // MARK: Building the next request

    static func history(_ context: BenchmarkContext) -> BenchmarkResult {
        let perResponse = context.size(full: 280 << 10, quick: 28 << 10)
        let (session, mirror, historyBytes) = conversation(turns: 100, perResponse: perResponse)
        let (half, _, _) = conversation(turns: 50, perResponse: perResponse)
        var encodedSize = 0
        func next(_ session: ClaudeSession) {
            guard let request = try? session.nextRequest(prompt: [.text("And now?")]), let encoded = try? RequestEncoder.encode(request) else { return }
            encodedSize = max(encodedSize, encoded.body.count)
            blackHole(encoded)
        }
        let seconds = cpuTime(context) { next(session) }
        let halfSeconds = cpuTime(context) { next(half) }
        let encoder = JSONEncoder()
        let baseline = cpuTime(context) { blackHole(try? encoder.encode(mirror)) }
        let gigabytesPerSecond = Double(historyBytes) / seconds / 1e9
        return BenchmarkResult(
            suite: "conversation", name: "next request, 100 turns (body \(encodedSize >> 20) MiB)", bytes: historyBytes,
            seconds: seconds, baselineName: "JSONEncoder", baselineSeconds: baseline, scaling: seconds / halfSeconds,
            target: ">= 1 GB/s of history (\(BenchmarkReport.fixed(gigabytesPerSecond, 2)) GB/s)", targetMet: gigabytesPerSecond >= 1)
    }

    /// A session whose transcript has `turns` prompts and responses (each a
    /// mixed stream's message), the same history as Codable structs, and its
    /// size in bytes (response content plus prompt text).
    static func conversation(turns: Int, perResponse: Int) -> (ClaudeSession, [CodableMessage], Int) {
        var transcript = SessionTranscript(setup: RequestSetup(model: .opus5, system: "Be brief."))
        var mirror: [CodableMessage] = []
        var bytes = 0
        for turn in 0..<turns {
            let prompt = "Question \(turn): what changed since the last answer?"
            transcript.appendPrompt([.text(prompt)])
            mirror.append(CodableMessage(role: "user", content: [CodableBlock(type: "text", text: prompt)]))
            var accumulator = MessageAccumulator()
            guard (try? accumulator.feed(generate(.mixed, bytes: perResponse).bytes)) != nil, let message = try? accumulator.finish() else {
                preconditionFailure("the generated stream is valid")
            }
            let entry = ResponseEntry(message)
            bytes += entry.content.bytes.count + prompt.utf8.count  // also makes the bytes: the steady state
            transcript.appendResponse(entry)
            mirror.append(CodableMessage(role: "assistant", content: CodableBlock.blocks(message.contentJSON())))
            // Each response calls a tool (the generator repeats one id); its
            // result opens the next user turn, as the API requires.
            let results = Set(entry.toolCalls.map(\.id)).sorted().map { ToolResult(toolUseID: $0, content: .text("ok")) }
            guard (try? transcript.appendToolOutputs(results)) != nil else { preconditionFailure("each result answers a call") }
            mirror.append(CodableMessage(role: "user", content: results.map { _ in CodableBlock(type: "tool_result", text: "ok") }))
        }
        let session = ClaudeSession(transcript: transcript, transport: RecordedTransport(bytes: []))
        return (session, mirror, bytes)
    }

    // MARK: Session overhead per response

    static func overhead(_ context: BenchmarkContext) -> BenchmarkResult {
        let stream = generate(.mixed, bytes: context.size(full: 4 << 20, quick: 256 << 10)).bytes
        let transport = RecordedTransport(bytes: stream)
        let bareRun = { blackHole(RecordedTransport.accumulate(stream)) }
        let sessionRun = {
            let session = ClaudeSession(model: .opus5, transport: transport)
            blackHole(runBlocking { try? await session.respond(to: "Go") })
        }
        // Interleaved pairs, so a neighbour's load on the shared machine hits
        // both sides alike; the overhead is the median ratio of the pairs.
        bareRun()
        sessionRun()
        var bareTimes: [Double] = []
        var sessionTimes: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<(context.repetitions * 3) {
            let bare = cpuSeconds(bareRun)
            let session = cpuSeconds(sessionRun)
            bareTimes.append(bare)
            sessionTimes.append(session)
            ratios.append(session / bare)
        }
        let median = { (values: [Double]) -> Double in values.sorted()[values.count / 2] }
        let overhead = median(ratios) - 1
        return BenchmarkResult(
            suite: "conversation", name: "session respond, one streamed response", bytes: stream.count,
            seconds: median(sessionTimes), baselineName: "bare accumulator", baselineSeconds: median(bareTimes),
            target: "<= 5% over the bare accumulator (\(BenchmarkReport.fixed(overhead * 100, 1))%, median of pairs)",
            targetMet: overhead <= 0.05)
    }
}

extension ConversationBenchmarks {
    static func firstSend(_ context: BenchmarkContext) -> BenchmarkResult {
        let stream = generate(.mixed, bytes: context.size(full: 4 << 20, quick: 256 << 10)).bytes
        guard let message = RecordedTransport.accumulate(stream) else { preconditionFailure("the generated stream is valid") }
        let bare = cpuTime(context) { blackHole(RecordedTransport.accumulate(stream)) }
        let seconds = cpuTime(context) { blackHole(ResponseEntry(message).content.bytes) }
        return BenchmarkResult(
            suite: "conversation", name: "first send: one response's content to bytes", bytes: stream.count,
            seconds: seconds, baselineName: "bare accumulator", baselineSeconds: bare)
    }
}

/// `--memory-probe respond bare|session`: one run of one side of the
/// session-overhead row on its 4 MiB mixed stream, for callgrind. The
/// session's work runs on a task thread, so the figure is the whole
/// process's count in each mode; both generate the same stream first, so
/// the difference is the session's own work:
/// `valgrind --tool=callgrind BIN --memory-probe respond MODE`.
enum RespondProbe {
    static func run(_ arguments: [String]) -> Int32 {
        let stream = generate(.mixed, bytes: 4 << 20).bytes
        switch arguments.first {
        case "bare":
            bare(stream)
        case "session":
            session(stream)
        default:
            return 64
        }
        return 0
    }

    @inline(never) static func bare(_ stream: [UInt8]) {
        blackHole(RecordedTransport.accumulate(stream))
    }

    @inline(never) static func session(_ stream: [UInt8]) {
        let session = ClaudeSession(model: .opus5, transport: RecordedTransport(bytes: stream))
        blackHole(runBlocking { try? await session.respond(to: "Go") })
    }
}

/// A transport that answers every request with the same recorded bytes,
/// fed to the accumulator in 64 KiB chunks (as the network delivers them).
struct RecordedTransport: MessageStreaming {
    let bytes: [UInt8]

    static func accumulate(_ bytes: [UInt8]) -> MessageSnapshot? {
        var accumulator = MessageAccumulator()
        var failed = false
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, !failed {
                let end = min(raw.count, offset + (64 << 10))
                do throws(MessageStreamError) { try accumulator.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) } catch { failed = true }
                offset = end
            }
        }
        return failed ? nil : try? accumulator.finish()
    }

    func streamMessage(
        _ request: MessageRequest,
        onSnapshot: (@Sendable (MessageSnapshot) -> Void)?
    ) async throws(TransportError) -> MessageSnapshot {
        guard let message = Self.accumulate(bytes) else { throw .invalidResponse("the recorded stream is not valid") }
        return message
    }
}

/// The history as a typical client keeps it: Codable structs for JSONEncoder.
struct CodableMessage: Encodable {
    var role: String
    var content: [CodableBlock]
}

struct CodableBlock: Encodable {
    var type: String
    var text: String?
    var thinking: String?
    var signature: String?
    var id: String?
    var name: String?
    var toolUseID: String?
    /// Nested JSON (tool input, result content, citations) as Foundation values.
    var fields: [String: AnyJSON] = [:]

    init(type: String, text: String? = nil) {
        self.type = type
        self.text = text
    }

    static func blocks(_ content: JSONValue) -> [CodableBlock] {
        (content.arrayValue ?? JSONArray()).map { block in
            var out = CodableBlock(type: block["type"]?.stringValue ?? "", text: block["text"]?.stringValue)
            out.thinking = block["thinking"]?.stringValue
            out.signature = block["signature"]?.stringValue
            out.id = block["id"]?.stringValue
            out.name = block["name"]?.stringValue
            out.toolUseID = block["tool_use_id"]?.stringValue
            for key in ["input", "content", "citations"] { if let value = block[key] { out.fields[key] = AnyJSON(value) } }
            return out
        }
    }

    enum CodingKeys: String, CodingKey { case type, text, thinking, signature, id, name, toolUseID = "tool_use_id", input, content, citations }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(thinking, forKey: .thinking)
        try c.encodeIfPresent(signature, forKey: .signature)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(toolUseID, forKey: .toolUseID)
        try c.encodeIfPresent(fields["input"], forKey: .input)
        try c.encodeIfPresent(fields["content"], forKey: .content)
        try c.encodeIfPresent(fields["citations"], forKey: .citations)
    }
}

/// Any JSON as Foundation-encodable values (what an SDK's `AnyCodable` does).
enum AnyJSON: Encodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(_ value: JSONValue) {
        switch value.kind {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number((try? n.double()) ?? 0)
        case .string(let s): self = .string(s.string)
        case .array(let a): self = .array(a.map(AnyJSON.init))
        case .object(let o): self = .object(Dictionary(o.entries.map { ($0.key, AnyJSON($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
