// Shared pieces for the tests: where the third-party corpus lives, feeding a
// stream under a chunking, and comparing JSON the way the corpus's expected
// files say (null-valued keys dropped, key order not meaningful).

import ClaudeStreaming
import Foundation
import FuzzProperties
import IncrementalJSON
import Testing

enum Corpus {
    /// `../shared/corpus` beside the package root, or nil when absent.
    static let root: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static var recordings: URL? { root?.appendingPathComponent("anthropic-sse") }

    /// Names (without `.sse`) of every recording.
    static func recordingNames() -> [String] {
        guard let dir = recordings,
            let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path)
        else { return [] }
        return files.filter { $0.hasSuffix(".sse") }.map { String($0.dropLast(4)) }.sorted()
    }

    static func bytes(of name: String) throws -> [UInt8] {
        guard let dir = recordings else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: dir.appendingPathComponent(name + ".sse")))
    }

    static func expected(for name: String) -> Any? {
        guard let dir = recordings,
            let data = try? Data(contentsOf: dir.appendingPathComponent("expected/\(name).json"))
        else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }
}

/// The chunkings every fixture is replayed under.
enum Chunking: CustomStringConvertible, CaseIterable {
    case whole, one, two, three, seven, sixtyFour, random

    var description: String {
        switch self {
        case .whole: "whole"
        case .one: "1"
        case .two: "2"
        case .three: "3"
        case .seven: "7"
        case .sixtyFour: "64"
        case .random: "random"
        }
    }

    func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let fixed: Int
        switch self {
        case .whole: return [bytes[...]]
        case .one: fixed = 1
        case .two: fixed = 2
        case .three: fixed = 3
        case .seven: fixed = 7
        case .sixtyFour: fixed = 64
        case .random:
            var generator = SplitMix64(seed: UInt64(bytes.count))
            var result: [ArraySlice<UInt8>] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int(generator.next() % 97) + 1)
                result.append(bytes[offset..<end])
                offset = end
            }
            return result
        }
        return stride(from: 0, to: bytes.count, by: fixed).map { bytes[$0..<min(bytes.count, $0 + fixed)] }
    }
}

/// What a whole stream gave: completed messages, then how it ended.
struct StreamOutcome {
    var completed: [MessageSnapshot]
    var last: MessageSnapshot?
    var error: MessageStreamError?
    var snapshots: Int
}

/// Feeds `bytes` under `chunking`. A whole-stream run (the default) also
/// replays the stream at chunk sizes 1, 2, 3, 7, 64 and random and records
/// an issue if any of them ends differently, so every fixture checks that.
func runStream(
    _ bytes: [UInt8], chunking: Chunking = .whole,
    options: MessageAccumulatorOptions = MessageAccumulatorOptions(allowsSequentialMessages: true),
    checkChunkings: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation,
    onSnapshot: (MessageSnapshot) -> Void = { _ in }
) -> StreamOutcome {
    let outcome = feedStream(bytes, chunking: chunking, options: options, onSnapshot: onSnapshot)
    if chunking == .whole && checkChunkings {
        let reference = outcome.summary
        for other in Chunking.allCases where other != .whole {
            let summary = feedStream(bytes, chunking: other, options: options) { _ in }.summary
            #expect(summary == reference, "chunking \(other) changed the outcome", sourceLocation: sourceLocation)
        }
    }
    return outcome
}

extension StreamOutcome {
    /// What must not depend on chunking: messages, error, snapshot count.
    var summary: [String] {
        completed.map { $0.messageJSON().compactJSON } + [
            last?.messageJSON().compactJSON ?? "-",
            error.map { "\($0)" } ?? "-", "\(snapshots)",
        ]
    }
}

private func feedStream(
    _ bytes: [UInt8], chunking: Chunking, options: MessageAccumulatorOptions,
    onSnapshot: (MessageSnapshot) -> Void
) -> StreamOutcome {
    var accumulator = MessageAccumulator(options: options)
    var count = 0
    do throws(MessageStreamError) {
        for chunk in chunking.chunks(of: bytes) {
            var failure: MessageStreamError?
            chunk.withUnsafeBytes { raw in
                do throws(MessageStreamError) {
                    try accumulator.feed(raw) {
                        count += 1
                        onSnapshot($0)
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        let last = try accumulator.finish()
        return StreamOutcome(completed: accumulator.completedMessages, last: last, error: nil, snapshots: count)
    } catch {
        return StreamOutcome(completed: error.completedMessages, last: error.snapshot, error: error, snapshots: count)
    }
}

/// The outcome in the corpus's expected-file form.
func expectedForm(_ outcome: StreamOutcome) -> [Any] {
    var entries: [Any] = outcome.completed.map { ["message": foundationJSON($0.messageJSON()), "complete": true] }
    if let error = outcome.error {
        switch error.kind {
        case .incomplete:
            if let last = outcome.last { entries.append(["message": foundationJSON(last.messageJSON()), "complete": false]) }
        default:
            entries.append(["error": "protocol"])
        }
    }
    return entries
}

func foundationJSON(_ value: JSONValue) -> Any {
    (try? JSONSerialization.jsonObject(with: Data(value.compactJSON.utf8), options: .fragmentsAllowed)) ?? NSNull()
}

/// Drops null-valued object keys, recursively.
func droppingNulls(_ value: Any) -> Any {
    if let object = value as? [String: Any] {
        var result: [String: Any] = [:]
        for (key, item) in object where !(item is NSNull) { result[key] = droppingNulls(item) }
        return result
    }
    if let array = value as? [Any] { return array.map(droppingNulls) }
    return value
}

/// Structural equality of Foundation JSON values; returns the first path that differs.
func jsonDifference(_ a: Any, _ b: Any, path: String = "$") -> String? {
    switch (a, b) {
    case (let x as [String: Any], let y as [String: Any]):
        for key in Set(x.keys).union(y.keys).sorted() {
            guard let xv = x[key] else { return "\(path).\(key): missing on the left" }
            guard let yv = y[key] else { return "\(path).\(key): missing on the right" }
            if let d = jsonDifference(xv, yv, path: "\(path).\(key)") { return d }
        }
        return nil
    case (let x as [Any], let y as [Any]):
        guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) elements" }
        for (i, (xv, yv)) in zip(x, y).enumerated() {
            if let d = jsonDifference(xv, yv, path: "\(path)[\(i)]") { return d }
        }
        return nil
    case (let x as String, let y as String):
        return x == y ? nil : "\(path): \(x.debugDescription.prefix(80)) vs \(y.debugDescription.prefix(80))"
    case (let x as NSNumber, let y as NSNumber):
        return x == y ? nil : "\(path): \(x) vs \(y)"
    case (is NSNull, is NSNull):
        return nil
    default:
        return "\(path): \(type(of: a)) vs \(type(of: b))"
    }
}
