// The async edge: chunks of bytes in, snapshots out.
//
// A thin adapter over the synchronous accumulator: one `feed` per chunk (never
// per byte), and the snapshots that chunk produced handed out in order. A
// stream that ends before `message_stop` ends the sequence by throwing
// `MessageStreamError` of kind `.incomplete`, carrying the last snapshot.

public import Foundation

/// Snapshots of a message stream read from an `AsyncSequence` of byte chunks
/// (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, …).
public struct MessageSnapshotSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: ContiguousBytes {
    public typealias Element = MessageSnapshot

    let base: Base
    let options: MessageAccumulatorOptions

    /// The snapshots of the stream whose bytes `base` yields, read as `options` says.
    public init(base: Base, options: MessageAccumulatorOptions = MessageAccumulatorOptions()) {
        self.base = base
        self.options = options
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var accumulator: MessageAccumulator
        var pending: [MessageSnapshot] = []
        var nextPending = 0
        var ended = false

        public mutating func next() async throws -> MessageSnapshot? {
            while true {
                if nextPending < pending.count {
                    defer { nextPending += 1 }
                    return pending[nextPending]
                }
                pending.removeAll(keepingCapacity: true)
                nextPending = 0
                if ended { return nil }
                guard let chunk = try await base.next() else {
                    ended = true
                    _ = try accumulator.finish()
                    return nil
                }
                var produced: [MessageSnapshot] = []
                var accumulator = self.accumulator
                self.accumulator = MessageAccumulator(options: accumulator.options)
                defer { self.accumulator = accumulator }
                var failure: MessageStreamError?
                chunk.withUnsafeBytes { raw in
                    do throws(MessageStreamError) {
                        try accumulator.feed(raw) { produced.append($0) }
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                pending = produced
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), accumulator: MessageAccumulator(options: options))
    }
}

extension MessageSnapshotSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element: ContiguousBytes {
    /// The message snapshots of a Messages API stream given as byte chunks.
    public func messageSnapshots(
        options: MessageAccumulatorOptions = MessageAccumulatorOptions()
    ) -> MessageSnapshotSequence<Self> {
        MessageSnapshotSequence(base: self, options: options)
    }
}
