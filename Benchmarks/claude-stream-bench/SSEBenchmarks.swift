// Server-sent-event framing workloads, each beside memchr counting LF over
// the same bytes, measured in alternation with it (thread CPU time):
// - a realistic Claude stream (~150-byte content_block_delta events, pings,
//   message framing) in 16 KiB chunks, and as one buffer;
// - huge events: 1 MiB data lines in 16 KiB chunks (64 of them, so that,
//   like the 64 MiB realistic stream, the bytes do not sit in the L3 cache
//   and parser and baseline both read from memory);
// - the realistic stream fed one byte at a time.
// Workloads are generated here, deterministically, so every run measures the
// same bytes.

import ServerSentEvents

enum SSEBenchmarks {
    static let suite = BenchmarkSuite(name: "sse") { context in
        let realistic = realisticStream(bytes: context.size(full: 64 << 20, quick: 4 << 20))
        let huge = hugeEvents(count: context.quick ? 8 : 64, dataBytes: 1 << 20)
        let trickle = Array(realistic.prefix(context.size(full: 4 << 20, quick: 256 << 10)))
        var results: [BenchmarkResult] = []
        realistic.withUnsafeBytes { all in
            results.append(
                measureFeeding(
                    all, in: 16 << 10, named: "realistic, 16 KiB chunks", context,
                    target: ">= 50% of memchr"
                ) { ($0.ratio ?? 0) >= 0.50 })
            results.append(measureFeeding(all, in: all.count, named: "realistic, one buffer", context))
        }
        huge.withUnsafeBytes { all in
            results.append(
                measureFeeding(
                    all, in: 16 << 10, named: "1 MiB data lines, 16 KiB chunks", context,
                    target: ">= 40% of memchr"
                ) { ($0.ratio ?? 0) >= 0.40 })
        }
        trickle.withUnsafeBytes { all in
            results.append(
                measureFeeding(
                    all, in: 1, named: "realistic, 1 byte at a time", context,
                    target: ">= 30 MB/s"
                ) { $0.megabytesPerSecond >= 30 })
        }
        return results
    }

    /// One row: the parser fed `all` in `chunkSize` pieces, beside memchr
    /// over the same bytes; with a target, also the scaling (first half
    /// vs all) and whether the target was met.
    static func measureFeeding(
        _ all: UnsafeRawBufferPointer, in chunkSize: Int, named name: String, _ context: BenchmarkContext,
        target: String? = nil, met: ((BenchmarkResult) -> Bool)? = nil
    ) -> BenchmarkResult {
        let half = UnsafeRawBufferPointer(rebasing: all[0..<(all.count / 2)])
        var workloads = [
            { blackHole(memchrLineCount(all)) },
            { blackHole(parseInChunks(all, chunkSize: chunkSize)) },
        ]
        if met != nil { workloads.append { blackHole(parseInChunks(half, chunkSize: min(chunkSize, half.count))) } }
        let times = context.measureAlternated(workloads)
        var row = BenchmarkResult(
            suite: "sse", name: name, bytes: all.count, seconds: times[1],
            baselineName: "memchr LF count", baselineSeconds: times[0], target: target)
        if let met {
            row.scaling = times[1] / times[2]
            row.targetMet = met(row)
        }
        return row
    }

    /// Feeds `bytes` in `chunkSize` pieces; returns events + data bytes seen.
    @inline(never)
    static func parseInChunks(_ bytes: UnsafeRawBufferPointer, chunkSize: Int) -> Int {
        var parser = SSEParser()
        var events = 0
        var dataBytes = 0
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            do throws(SSEError) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { event in
                    events &+= 1
                    dataBytes &+= event.data.count
                }
            } catch {
                return -1
            }
            offset = end
        }
        _ = parser.finish()
        return events &+ dataBytes
    }

    // MARK: - Workloads

    /// Messages of ~1000 text deltas (~150 bytes each, text 20...60 bytes),
    /// a ping every 25 events, with message/block framing, up to `bytes`.
    static func realisticStream(bytes target: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(target + 4096)
        var seed: UInt64 = 0x5EED
        let words = [
            "the", "stream", "of", "tokens", "arrives", "in", "small", "pieces,", "each", "a",
            "delta", "with", "text", "and", "sometimes", "unicode", "é", "—", "\\n", "\\\"quoted\\\"",
        ]
        while out.count < target {
            out += Array(
                #"""
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[],"model":"claude-opus-4-1","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}


                """#.utf8)
            out += Array(
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n".utf8)
            for delta in 0..<1000 where out.count < target {
                if delta % 25 == 0 { out += Array("event: ping\ndata: {\"type\": \"ping\"}\n\n".utf8) }
                var text = ""
                let length = 20 + Int(nextRandom(&seed) % 41)
                while text.utf8.count < length {
                    text += words[Int(nextRandom(&seed) % UInt64(words.count))] + " "
                }
                out += Array(
                    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\(text)\"}}\n\n"
                        .utf8)
            }
            out += Array("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0 }\n\n".utf8)
            out += Array(
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1000}}\n\n"
                    .utf8)
            out += Array("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n".utf8)
        }
        return out
    }

    /// `count` events, each one `data:` line of `dataBytes` printable bytes.
    static func hugeEvents(count: Int, dataBytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * (dataBytes + 64))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 {}\":,".utf8)
        var seed: UInt64 = 42
        for _ in 0..<count {
            out += Array("event: content_block_delta\ndata: ".utf8)
            for _ in 0..<dataBytes { out.append(alphabet[Int(nextRandom(&seed) % UInt64(alphabet.count))]) }
            out += [0x0A, 0x0A]
        }
        return out
    }

    /// SplitMix64 step.
    static func nextRandom(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
