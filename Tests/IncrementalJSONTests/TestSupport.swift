// Shared helpers: where the third-party corpus is, deterministic chunking,
// and extraction of streamed JSON (tool input / structured output) from
// recorded Messages API streams.

import Foundation
import FuzzProperties
import IncrementalJSON

enum Corpus {
    /// ../shared/corpus relative to the package root (this file is Tests/IncrementalJSONTests/…).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static func directory(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: directory(path).path) }

    /// Sorted files of a corpus folder (empty when absent).
    static func files(_ path: String, suffix: String = "") -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory(path).path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory(path).appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) -> [UInt8] { (try? Data(contentsOf: url)).map { Array($0) } ?? [] }
}

/// Chunk sizes covering `count` bytes: fixed size, or random 1...maxSize.
func chunkSizes(count: Int, fixed: Int? = nil, seed: UInt64 = 1, maxSize: Int = 16) -> [Int] {
    var sizes: [Int] = []
    var rng = SplitMix64(seed: seed)
    var total = 0
    while total < count {
        let size = min(count - total, fixed ?? Int.random(in: 1...maxSize, using: &rng))
        sizes.append(size)
        total += size
    }
    return sizes
}

/// Parses `bytes` fed in chunks of `sizes`, then finishes.
func parseChunked(_ bytes: [UInt8], sizes: [Int], options: JSONParserOptions = .init()) -> Result<JSONValue, JSONParseError> {
    var parser = IncrementalJSONParser(options: options)
    var start = 0
    do throws(JSONParseError) {
        for size in sizes {
            try parser.feed(Array(bytes[start..<start + size]))
            start += size
        }
        return .success(try parser.finish())
    } catch {
        return .failure(error)
    }
}

func parseWhole(_ bytes: [UInt8], options: JSONParserOptions = .init()) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONValue.parse(bytes, options: options) }
}

/// One streamed JSON text from a recording: its deltas in arrival order.
struct StreamedJSON {
    var file: String
    var index: Int
    var kind: String  // "tool_input" or "text"
    var deltas: [String]
    var joined: String { deltas.joined() }
}

/// Streamed JSON per content block of an `.sse` recording: each `data:` line
/// is one JSON event; `partial_json` deltas (tool input) and, when
/// `includeText`, `text` deltas (structured output) are collected per
/// `index` between `content_block_start` and `content_block_stop`.
func streamedJSON(in url: URL, includeText: Bool = false) -> [StreamedJSON] {
    guard let content = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    var open: [Int: StreamedJSON] = [:]
    var done: [StreamedJSON] = []
    for line in content.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
        guard line.hasPrefix("data:") else { continue }
        var payload = line.dropFirst(5)
        if payload.first == " " { payload = payload.dropFirst() }
        guard let event = try? JSONValue.parse(String(payload)) else { continue }
        let type = event["type"]?.stringValue
        guard let index = try? event["index"]?.numberValue?.int() else {
            if type == "message_start" { open = [:] }
            continue
        }
        switch type {
        case "content_block_start":
            open[index] = StreamedJSON(file: url.lastPathComponent, index: index, kind: "", deltas: [])
        case "content_block_delta":
            guard let delta = event["delta"] else { continue }
            if delta["type"]?.stringValue == "input_json_delta", let part = delta["partial_json"]?.stringValue {
                open[index]?.kind = "tool_input"
                open[index]?.deltas.append(part)
            } else if includeText, delta["type"]?.stringValue == "text_delta", let part = delta["text"]?.stringValue {
                open[index]?.kind = "text"
                open[index]?.deltas.append(part)
            }
        case "content_block_stop":
            if let block = open.removeValue(forKey: index), !block.kind.isEmpty { done.append(block) }
        default:
            continue
        }
    }
    return done
}

/// Feeds `bytes` one at a time and returns the snapshot after each byte.
func snapshotsPerByte(_ bytes: [UInt8], options: JSONParserOptions = .init()) -> (snapshots: [JSONValue?], error: JSONParseError?) {
    var parser = IncrementalJSONParser(options: options)
    var snapshots: [JSONValue?] = []
    for byte in bytes {
        do throws(JSONParseError) { try parser.feed([byte]) } catch { return (snapshots, error) }
        snapshots.append(parser.value)
    }
    return (snapshots, nil)
}
