// The async edge: byte chunks in, owned events out. The parser stays
// synchronous; this adapter only buffers the events one chunk completed.

#if canImport(FoundationEssentials)
import FoundationEssentials
#elseif canImport(Foundation)
import Foundation
#endif

/// Events parsed from an `AsyncSequence` of byte chunks.
///
/// Throws ``SSEError`` when a limit is crossed, or rethrows the upstream
/// sequence's error. At the end of upstream an unfinished event is
/// discarded, as the event-stream algorithm says.
public struct ServerSentEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: ContiguousBytes {
    public typealias Element = ServerSentEvent

    let base: Base
    let limits: SSELimits

    /// The events framed from `base`'s chunks, within `limits`.
    public init(base: Base, limits: SSELimits = SSELimits()) {
        self.base = base
        self.limits = limits
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var upstream: Base.AsyncIterator
        var parser: SSEParser
        var pending: [ServerSentEvent] = []
        var pendingIndex = 0
        var finished = false

        public mutating func next() async throws -> ServerSentEvent? {
            while pendingIndex == pending.count {
                guard !finished else { return nil }
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                guard let chunk = try await upstream.next() else {
                    finished = true
                    _ = parser.finish()
                    return nil
                }
                var parsed: [ServerSentEvent] = []
                let result: Result<Void, SSEError> = chunk.withUnsafeBytes { raw in
                    do throws(SSEError) {
                        try parser.feed(raw) { parsed.append($0.makeEvent()) }
                        return .success(())
                    } catch {
                        return .failure(error)
                    }
                }
                pending = parsed
                if case .failure(let error) = result {
                    finished = true
                    // Events before the error are lost here; report the error.
                    throw error
                }
            }
            defer { pendingIndex += 1 }
            return pending[pendingIndex]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(upstream: base.makeAsyncIterator(), parser: SSEParser(limits: limits))
    }
}

extension AsyncSequence where Element: ContiguousBytes {
    /// Parses this sequence of byte chunks (`[UInt8]`, `Data`,
    /// `ArraySlice<UInt8>`, …) as a server-sent event stream.
    public func serverSentEvents(limits: SSELimits = SSELimits()) -> ServerSentEventSequence<Self> {
        ServerSentEventSequence(base: self, limits: limits)
    }
}

extension ServerSentEventSequence: Sendable where Base: Sendable {}
