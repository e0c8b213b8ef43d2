import ClaudeStreaming
import Testing

@testable import ClaudeTransport

/// The overall limit must hold on a stream that keeps sending, whatever the
/// cooperative pool is doing: every delivery checks the deadline itself, so
/// these tests need no timer and no wall-clock bound.
@Suite struct OverallDeadlineTests {
    private func snapshot() throws -> MessageSnapshot {
        var accumulator = MessageAccumulator()
        let bytes = Array(
            #"event: message_start\#ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}\#n\#n"#
                .utf8)
        _ = try accumulator.feed(bytes)
        return try #require(accumulator.snapshot)
    }

    @Test func aDeliveryPastTheDeadlineEndsTheStreamWithTheSnapshot() async throws {
        let channel = SnapshotChannel { _ in }
        channel.arm(overallTimeout: 0)
        channel.deliver(try snapshot())
        #expect(channel.isFinished)
        do {
            _ = try await channel.next()
            Issue.record("expected the overall timeout")
        } catch {
            guard case .overallTimeout(let seconds, let partial) = error else {
                Issue.record("expected the overall timeout, got \(error)")
                return
            }
            #expect(seconds == 0)
            #expect(partial != nil)
        }
    }

    @Test func aDeliveryBeforeTheDeadlineGoesThrough() throws {
        let channel = SnapshotChannel { _ in }
        channel.arm(overallTimeout: 3600)
        channel.deliver(try snapshot())
        #expect(!channel.isFinished)
        #expect(channel.latest != nil)
    }

    @Test(arguments: [Double.nan, -1, .infinity, 1e308, .greatestFiniteMagnitude])
    func anyLimitIsSafe(_ seconds: Double) throws {
        let channel = SnapshotChannel { _ in }
        let clamped = channel.arm(overallTimeout: seconds)
        #expect(clamped >= 0 && clamped <= 100 * 365 * 86_400)
        channel.deliver(try snapshot())
        #expect(channel.isFinished == (clamped == 0))
    }
}
