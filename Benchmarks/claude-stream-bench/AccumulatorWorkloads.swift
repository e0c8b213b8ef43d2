// Generated Messages API streams for the accumulator benchmarks. Each is a
// sequence of whole messages (message_start … message_stop) until the size is
// reached, deterministic for a given size and variant.

enum StreamKind: String, CaseIterable, CustomStringConvertible {
    case text, tool, mixed
    var description: String { rawValue }

    /// The CPU-time throughput each kind must reach at its largest size.
    /// Tool input's target is for 16-byte deltas, a row of its own
    /// (`shortToolDeltas`), not for this kind's ~40-byte ones.
    var throughputTarget: (megabytesPerSecond: Double, text: String) {
        switch self {
        case .text: (1000, ", >= 1000 MB/s")
        case .tool: (0, "")
        case .mixed: (300, ", >= 300 MB/s")
        }
    }
}

struct GeneratedStream {
    var bytes: [UInt8]
    var events: Int
    /// How many of the events are `content_block_delta`s.
    var deltas: Int
    /// Bytes of content the messages accumulate (text, thinking, tool JSON).
    var contentBytes: Int
}

/// `toolDeltaBytes`: the size of each `input_json_delta` payload.
/// `variant`: streams of the same kind and size with different variants
/// have different bytes (variant 0 is the default stream).
func generate(_ kind: StreamKind, bytes target: Int, toolDeltaBytes: Int = 40, variant: Int = 0) -> GeneratedStream {
    var writer = StreamWriter()
    writer.toolDeltaBytes = toolDeltaBytes
    var seed = UInt64(target) &* 31 &+ UInt64(kind.rawValue.utf8.count) &+ UInt64(truncatingIfNeeded: variant) &* 0x9E37_79B9
    while writer.bytes.count < target {
        writer.event(
            #"{"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-bench","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":1}}}"#
        )
        let budget = min(target - writer.bytes.count, 4 << 20) + 256
        let start = writer.bytes.count
        var index = 0
        switch kind {
        case .text:
            writer.textBlock(index: &index, until: start + budget, seed: &seed)
        case .tool:
            writer.toolBlock(index: &index, until: start + budget, seed: &seed)
        case .mixed:
            while writer.bytes.count < start + budget {
                writer.thinkingBlock(index: &index, until: writer.bytes.count + 8 << 10, seed: &seed)
                writer.searchBlocks(index: &index, seed: &seed)
                writer.textBlock(index: &index, until: writer.bytes.count + 16 << 10, seed: &seed, cite: true)
                writer.toolBlock(index: &index, until: writer.bytes.count + 4 << 10, seed: &seed)
            }
        }
        writer.event(#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1000}}"#)
        writer.event(#"{"type":"message_stop"}"#)
    }
    return GeneratedStream(bytes: writer.bytes, events: writer.events, deltas: writer.deltas, contentBytes: writer.contentBytes)
}

/// The stream a probe names: an accumulator stream kind, `tool16`, the
/// tool kind in 16-byte deltas (the row its target is for), or `longkey`,
/// one tool input whose only key is about `bytes` long, in 40-byte deltas
/// (the worst case for a caller that keeps every snapshot: a key cut open
/// across thousands of them); nil for any other name.
func generate(probeKind name: String, bytes: Int) -> GeneratedStream? {
    if name == "longkey" { return generateLongKey(bytes: bytes) }
    let deltaBytes = name == "tool16" ? 16 : 40
    guard let kind = StreamKind(rawValue: name == "tool16" ? "tool" : name) else { return nil }
    return generate(kind, bytes: bytes, toolDeltaBytes: deltaBytes)
}

/// The `longkey` probe's stream (see `generate(probeKind:bytes:)`).
func generateLongKey(bytes: Int) -> GeneratedStream {
    var writer = StreamWriter()
    writer.event(
        #"{"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-bench","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":1}}}"#
    )
    writer.event(#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_000001","name":"k","input":{}}}"#)
    var json = Array(#"{""#.utf8)
    var seed: UInt64 = 0x10C
    while json.count < bytes { json.append(UInt8(ascii: "a") + UInt8(splitMix(&seed) % 26)) }
    json += Array(#"": 1}"#.utf8)
    for start in stride(from: 0, to: json.count, by: 40) {
        let piece = String(decoding: json[start..<min(json.count, start + 40)], as: UTF8.self)
        writer.contentBytes += piece.utf8.count
        writer.event(#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":\#(jsonString(piece))}}"#)
    }
    writer.event(#"{"type":"content_block_stop","index":0}"#)
    writer.event(#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":1000}}"#)
    writer.event(#"{"type":"message_stop"}"#)
    return GeneratedStream(bytes: writer.bytes, events: writer.events, deltas: writer.deltas, contentBytes: writer.contentBytes)
}

struct StreamWriter {
    var bytes: [UInt8] = []
    var events = 0
    var deltas = 0
    var contentBytes = 0
    var toolDeltaBytes = 40

    static let words = [
        "the", "stream", "of", "tokens", "arrives", "in", "small", "pieces,", "each", "a",
        "delta", "with", "text", "and", "sometimes", "unicode", "é", "—", "☔", "\n", "\"quoted\"",
    ]

    mutating func event(_ json: String) {
        let type = Self.eventType(json)
        bytes += Array("event: \(type)\ndata: \(json)\n\n".utf8)
        events += 1
        if type == "content_block_delta" { deltas += 1 }
        if events % 40 == 0 {
            bytes += Array("event: ping\ndata: {\"type\": \"ping\"}\n\n".utf8)
            events += 1
        }
    }

    /// The value of the first `"type":"…"` in `json` (every event's comes
    /// first), or "message"; a plain scan, as a regex per event made
    /// generating the streams take longer than measuring them.
    static func eventType(_ json: String) -> String {
        let utf8 = Array(json.utf8)
        let key = Array(#""type":""#.utf8)
        guard utf8.count > key.count else { return "message" }
        for start in 0...(utf8.count - key.count) where utf8[start..<(start + key.count)].elementsEqual(key) {
            let valueStart = start + key.count
            let end = utf8[valueStart...].firstIndex(of: UInt8(ascii: "\"")) ?? utf8.count
            return String(decoding: utf8[valueStart..<end], as: UTF8.self)
        }
        return "message"
    }

    static func words(_ count: Int, _ seed: inout UInt64) -> String {
        var text = ""
        for _ in 0..<count { text += words[Int(splitMix(&seed) % UInt64(words.count))] + " " }
        return text
    }

    mutating func textBlock(index: inout Int, until end: Int, seed: inout UInt64, cite: Bool = false) {
        event(#"{"type":"content_block_start","index":\#(index),"content_block":{"type":"text","text":""}}"#)
        if cite {
            event(
                #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"a cited sentence","url":"https://example.com/a","title":"A","encrypted_index":"RW5j"}}}"#
            )
        }
        while bytes.count < end {
            let text = Self.words(14, &seed)
            contentBytes += text.utf8.count
            event(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":\#(jsonString(text))}}"#)
        }
        event(#"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
    }

    mutating func thinkingBlock(index: inout Int, until end: Int, seed: inout UInt64) {
        event(#"{"type":"content_block_start","index":\#(index),"content_block":{"type":"thinking","thinking":"","signature":""}}"#)
        while bytes.count < end {
            let text = Self.words(14, &seed)
            contentBytes += text.utf8.count
            event(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"thinking_delta","thinking":\#(jsonString(text))}}"#)
        }
        event(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"signature_delta","signature":"RXFRQkNrWUlCeGdDS2tEZW1v"}}"#)
        event(#"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
    }

    mutating func searchBlocks(index: inout Int, seed: inout UInt64) {
        let id = "srvtoolu_\(splitMix(&seed) % 1_000_000)"
        event(#"{"type":"content_block_start","index":\#(index),"content_block":{"type":"server_tool_use","id":"\#(id)","name":"web_search","input":{}}}"#)
        for piece in ["", #"{"query": "#, #""weather in "#, #"Lisbon"}"#] {
            contentBytes += piece.utf8.count
            event(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"input_json_delta","partial_json":\#(jsonString(piece))}}"#)
        }
        event(#"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
        let results = (0..<5).map { n in
            #"{"type":"web_search_result","title":"Result \#(n)","url":"https://example.com/\#(n)","encrypted_content":"RW5jcnlwdGVkQ29udGVudA==","page_age":null}"#
        }
        let result = #"{"type":"web_search_tool_result","tool_use_id":"\#(id)","content":[\#(results.joined(separator: ","))]}"#
        contentBytes += result.utf8.count
        event(#"{"type":"content_block_start","index":\#(index),"content_block":\#(result)}"#)
        event(#"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
    }

    mutating func toolBlock(index: inout Int, until end: Int, seed: inout UInt64) {
        // A fresh id per call, as the API sends: a start whose bytes repeat
        // would flatter anything that remembers the starts it has read.
        let id = "toolu_\(String(splitMix(&seed) % 1_000_000).leftPadded(to: 6))"
        event(#"{"type":"content_block_start","index":\#(index),"content_block":{"type":"tool_use","id":"\#(id)","name":"write_records","input":{}}}"#)
        var json = #"{"records": ["#
        var first = true
        func flush(_ text: inout String, _ writer: inout StreamWriter, final: Bool) {
            let size = writer.toolDeltaBytes
            while text.utf8.count >= size || (final && !text.isEmpty) {
                var cut = text.index(text.startIndex, offsetBy: min(size, text.count))
                if !final, cut == text.endIndex { break }
                if final { cut = text.endIndex }
                let piece = String(text[..<cut])
                text = String(text[cut...])
                writer.contentBytes += piece.utf8.count
                writer.event(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"input_json_delta","partial_json":\#(jsonString(piece))}}"#)
            }
        }
        while bytes.count < end {
            let record =
                #"{"id": \#(splitMix(&seed) % 100_000), "score": \#(Double(splitMix(&seed) % 10_000) / 100), "name": \#(jsonString(Self.words(3, &seed))), "tags": ["a", "b"], "ok": true}"#
            json += (first ? "" : ", ") + record
            first = false
            flush(&json, &self, final: false)
        }
        json += "]}"
        flush(&json, &self, final: true)
        event(#"{"type":"content_block_stop","index":\#(index)}"#)
        index += 1
    }
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                out += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

func splitMix(_ state: inout UInt64) -> UInt64 { SSEBenchmarks.nextRandom(&state) }
