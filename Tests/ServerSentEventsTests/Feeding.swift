// Helpers that feed bytes to an SSEParser in a given chunking and collect
// everything observable: events, error, bytes discarded at the end.

import ServerSentEvents

/// Everything a run of the parser produced.
struct ParseOutcome: Equatable, CustomStringConvertible {
    var events: [ServerSentEvent] = []
    var error: SSEError? = nil
    var discarded = 0
    var lastEventID = ""

    var description: String {
        "\(events.count) events \(events.map { "[\($0.eventType ?? "nil")|\($0.dataString.debugDescription)|\($0.lastEventID)|\($0.retry.map(String.init) ?? "nil")@\($0.streamOffset)]" }.joined(separator: " ")) error=\(String(describing: error)) discarded=\(discarded)"
    }
}

/// How to cut the input into chunks.
enum Chunking: CustomStringConvertible {
    case whole
    case every(Int)
    /// These sizes in turn, then the rest as one chunk.
    case sizes([Int])

    var description: String {
        switch self {
        case .whole: "whole"
        case .every(let n): "every \(n)"
        case .sizes(let s): "sizes \(s)"
        }
    }

    func chunks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        switch self {
        case .whole:
            return [bytes[...]]
        case .every(let n):
            while start < bytes.count {
                let end = min(bytes.count, start + n)
                result.append(bytes[start..<end])
                start = end
            }
        case .sizes(let sizes):
            for size in sizes where start < bytes.count {
                let end = min(bytes.count, start + size)
                result.append(bytes[start..<end])
                start = end
            }
            if start < bytes.count { result.append(bytes[start...]) }
        }
        return result
    }
}

func parse(_ bytes: [UInt8], _ chunking: Chunking = .whole, limits: SSELimits = SSELimits()) -> ParseOutcome {
    var parser = SSEParser(limits: limits)
    var outcome = ParseOutcome()
    for chunk in chunking.chunks(bytes) {
        let failure: SSEError? = chunk.withUnsafeBytes { raw in
            do throws(SSEError) {
                try parser.feed(raw) { outcome.events.append($0.makeEvent()) }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            outcome.error = failure
            return outcome
        }
    }
    outcome.discarded = parser.finish()
    outcome.lastEventID = parser.lastEventID
    return outcome
}

func parse(_ text: String, _ chunking: Chunking = .whole, limits: SSELimits = SSELimits()) -> ParseOutcome {
    parse(Array(text.utf8), chunking, limits: limits)
}
