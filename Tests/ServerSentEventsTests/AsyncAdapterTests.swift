// The async adapter over [UInt8], Data and ArraySlice<UInt8> chunk sequences.

import Foundation
import ServerSentEvents
import Testing

private struct UpstreamFailure: Error {}

private func stream<Chunk: Sendable>(_ chunks: [Chunk], failing: Bool = false) -> AsyncThrowingStream<Chunk, any Error> {
    AsyncThrowingStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish(throwing: failing ? UpstreamFailure() : nil)
    }
}

@Suite struct AsyncAdapterTests {
    private let text = Array("event: a\r\ndata: 1\r\n\r\ndata: 2\n\ndata: unfinished\n".utf8)

    private func splitInto(_ size: Int) -> [[UInt8]] {
        stride(from: 0, to: text.count, by: size).map { Array(text[$0..<min(text.count, $0 + size)]) }
    }

    @Test func byteArrays() async throws {
        var seen: [ServerSentEvent] = []
        for try await event in stream(splitInto(3)).serverSentEvents() { seen.append(event) }
        #expect(seen.map(\.dataString) == ["1", "2"])
        #expect(seen.map(\.eventType) == ["a", nil])
    }

    @Test func dataChunks() async throws {
        var seen: [String] = []
        for try await event in stream(splitInto(5).map { Data($0) }).serverSentEvents() { seen.append(event.dataString) }
        #expect(seen == ["1", "2"])
    }

    @Test func arraySliceChunks() async throws {
        let slices: [ArraySlice<UInt8>] = [text[0..<10], text[10..<11], text[11...]]
        var seen: [String] = []
        for try await event in stream(slices).serverSentEvents() { seen.append(event.dataString) }
        #expect(seen == ["1", "2"])
    }

    @Test func limitErrorIsThrownTyped() async {
        await #expect(throws: SSEError(reason: .lineTooLong(limit: 4), offset: 4)) {
            for try await _ in stream(splitInto(2)).serverSentEvents(limits: SSELimits(maxLineBytes: 4)) {}
        }
    }

    @Test func upstreamErrorPassesThrough() async {
        await #expect(throws: UpstreamFailure.self) {
            for try await _ in stream(splitInto(4), failing: true).serverSentEvents() {}
        }
    }
}
