// Which framing `events` and `replay` read: named by `--framing`, or judged
// from the first 12 bytes (`EventFraming.detect`). Until 12 bytes have
// arrived the chunks are held, each as it came, and handed on unchanged once
// the framing is known, so detection does not change how the bytes are cut:
// `--chunk 1` still feeds the framing one byte at a time. A stream that ends
// before 12 bytes is SSE (no event-stream message is that short).

import ClaudeStreaming

/// The framing flag's value and, without one, the detection in progress.
struct FramingChoice {
    /// The framing `--framing` named (nil: detect).
    private let named: EventFraming?
    /// The framing, once started (named or detected).
    private(set) var framing: EventFraming?
    /// Bytes held before the framing is known (fewer than 12), and where each chunk ended.
    private var held: [UInt8] = []
    private var chunkEnds: [Int] = []

    /// `--framing sse | aws-eventstream | auto`; nil (detect) without the flag.
    init(_ named: EventFraming?) { self.named = named }

    static let flagValues = "sse, aws-eventstream or auto"

    /// Parses `--framing VALUE`; nil stands for `auto`.
    static func parse(_ value: String) throws(UsageError) -> EventFraming? {
        if value == "auto" { return nil }
        guard let framing = EventFraming(rawValue: value) else {
            throw UsageError("--framing takes \(flagValues), not '\(value)'")
        }
        return framing
    }

    /// Hands `chunk` on to `feed`, first calling `start` once with the
    /// framing when it becomes known (then the held chunks, in order).
    ///
    /// - Complexity: O(chunk.count) once the framing is known (no copy);
    ///   before that, O(12) per chunk.
    mutating func feed<E: Error>(
        _ chunk: UnsafeRawBufferPointer, start: (EventFraming) -> Void,
        _ feed: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        if framing != nil { return try feed(chunk) }
        if let named {
            try begin(named, start: start, feed)
            return try feed(chunk)
        }
        var prefix = held
        prefix.append(contentsOf: chunk.prefix(12 - min(12, held.count)))
        guard let detected = prefix.withUnsafeBytes({ EventFraming.detect($0) }) else {
            held.append(contentsOf: chunk)
            chunkEnds.append(held.count)
            return
        }
        try begin(detected, start: start, feed)
        try feed(chunk)
    }

    /// Ends detection at end of input: held bytes (fewer than 12) are SSE.
    mutating func finish<E: Error>(
        start: (EventFraming) -> Void, _ feed: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        if framing == nil { try begin(named ?? .serverSentEvents, start: start, feed) }
    }

    private mutating func begin<E: Error>(
        _ detected: EventFraming, start: (EventFraming) -> Void, _ feed: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        framing = detected
        start(detected)
        let bytes = held
        let ends = chunkEnds
        held = []
        chunkEnds = []
        // withUnsafeBytes is rethrows (the error type would be lost), so the error is carried out.
        let failure: E? = bytes.withUnsafeBytes { all in
            var from = 0
            do throws(E) {
                for end in ends {
                    try feed(UnsafeRawBufferPointer(rebasing: all[from..<end]))
                    from = end
                }
            } catch {
                return error
            }
            return nil
        }
        if let failure { throw failure }
    }
}
