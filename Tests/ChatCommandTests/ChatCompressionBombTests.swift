// A gzip bomb against `claude-stream chat`, measured as a whole process: a
// 1 MB body with `content-encoding: gzip` that inflates to 1 GiB, sent
// although the request asked for `identity`. FoundationNetworking decodes
// whatever it is sent, so the bound is what the process costs in all: the
// run must end within 5 s and 100 MiB of peak memory (before the fix it took
// 60–100 s, 1.15 GB, and quoted the decoded `data: AAAA…` in its message).
// Peak memory comes from GNU time (it forks, so the figure is the child's
// own); wall time from the clock here, with a bound far above the 0.1 s a
// run takes, since it is the time a user waits.

import ClaudeStreaming
import ClaudeTestSupport
import Foundation
import Testing

@testable import ClaudeTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct MeasuredRun {
    var status: Int32
    var stderr: String
    var seconds: Double
    var peakBytes: Int
}

/// Runs `claude-stream chat Hello --base-url URL` under GNU time, stopped after 120 s.
private func measuredChat(baseURL: URL) throws -> MeasuredRun {
    guard let chatExecutable else { throw ServerStartError(description: "claude-stream not built") }
    var environment = ProcessInfo.processInfo.environment
    environment["ANTHROPIC_API_KEY"] = chatKey
    let clock = ContinuousClock()
    let start = clock.now
    let run = try ProgramUnderTest(
        executable: chatExecutable.path, ["chat", "Hello", "--base-url", baseURL.absoluteString], environment: environment,
        stdout: .null, measuringPeak: true, timeLimit: 120
    ).finish()
    let elapsed = clock.now - start
    return MeasuredRun(
        status: run.status, stderr: run.stderr, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        peakBytes: run.peakResidentBytes)
}

@Suite(
    .enabled(
        if: TestPaths.serverAvailable && chatExecutable != nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
        "needs python3, GNU time and the built claude-stream"),
    .serialized)
struct ChatCompressionBombTests {
    /// 200 is refused as an unrequested encoding; 500 would otherwise be an
    /// error body, collected up to its cap from the decoded bytes.
    @Test(arguments: [200, 500])
    func aGigabyteGzipBombIsRefusedWithinFiveSecondsAndAHundredMebibytes(status: Int) async throws {
        try await withLoopbackServer { server in
            let run = try measuredChat(baseURL: server.url("fault/gzip-bomb-1g/\(status)"))
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("content-encoding gzip"), "\(run.stderr)")
            #expect(run.stderr.contains("refused unread"), "\(run.stderr)")
            // Nothing of the decoded body is quoted: it was never looked at.
            #expect(!run.stderr.contains("AAAA") && !run.stderr.contains("data:"), "\(run.stderr.prefix(300))")
            #expect(run.seconds < 5, "the run took \(run.seconds) s")
            #expect(run.peakBytes < 100 << 20, "peak resident memory \(run.peakBytes >> 20) MiB")
        }
    }
}

@Suite(.enabled(if: TestPaths.serverAvailable, "needs python3"))
struct CompressionBombClientTests {
    /// The library reports the refusal itself, without the body: the
    /// failure carries no text of what was decoded.
    @Test func theClientReportsTheRefusalWithoutTheBody() async throws {
        try await withLoopbackServer { server in
            let client = MessagesClient(
                configuration: ClientConfiguration(
                    baseURL: server.url("fault/gzip-bomb-1g/500"), credentials: .apiKey(chatKey), idleTimeout: 20))
            var failure: TransportError?
            do throws(TransportError) {
                _ = try await client.send(MessageRequest(model: .opus5, messages: [.user("Hello")]))
            } catch {
                failure = error
            }
            let http = try #require(failure?.httpFailure, "got \(String(describing: failure))")
            #expect(http.kind == .unrequestedContentEncoding && http.status == 500)
            #expect(http.message == nil && http.errorType == nil)
            #expect(!http.description.contains("AAAA"), "\(http.description.prefix(200))")
        }
    }
}
