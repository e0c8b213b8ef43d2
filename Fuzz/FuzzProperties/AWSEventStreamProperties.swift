// Fuzz property for the AWS event-stream parser: arbitrary bytes, cut into
// chunks whose sizes come from the input itself, must give exactly what the
// unsplit input gives and exactly what the reference decoder gives
// (messages, offsets, error), and nothing may trap.
//
// Input layout: byte 0 picks the limits (small ones so the limit paths are
// reached), bytes 1...4 are chunk sizes used in a cycle; the rest is the
// stream. Byte 0's low bit set also re-frames the rest: it is treated as a
// list of messages to encode (so CRCs pass and the header and payload
// paths are reached, not just the prelude check). Byte 0's bit 2 instead
// makes the rest Bedrock `chunk` messages, one per line: a line starting
// with '!' is a raw chunk payload (for the payload scanner), any other line
// is an event, base64-wrapped; the accumulator must give the same outcome
// at any chunking with every snapshot held (each still showing what it
// showed), and with every message read the general way (also with
// the body damaged or small limits: see `checkBedrock`), and, for wrapped
// events, the same messages as the same events over SSE.

import AWSEventStream
import ClaudeStreaming

public enum AWSEventStreamFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    public static func check(_ input: UnsafeRawBufferPointer) -> String? {
        let header = 5
        guard input.count > header else { return compare(Array(input), sizes: [1], limits: AWSEventStreamLimits()) }
        let selector = input[0]
        let limits =
            selector & 2 == 0
            ? AWSEventStreamLimits()
            : AWSEventStreamLimits(maxMessageBytes: 16 + Int(selector >> 2) * 4, maxHeaderBytes: Int(selector >> 4) * 3)
        let sizes = (1...4).map { Int(input[$0]) % 41 + 1 }
        var stream = Array(input[header...])
        if selector & 4 != 0 { return checkBedrock(stream, sizes: sizes, selector: selector, damage: Array(input[1...4])) }
        if selector & 1 == 1 { stream = reframed(stream) }
        return compare(stream, sizes: sizes, limits: limits)
    }

    /// Cuts `bytes` into messages: each piece is `[h][p][header block h bytes][payload p bytes]`,
    /// encoded with valid CRCs (the header block is used raw, so it may be
    /// malformed). A final byte that is 0xFF truncates the last message.
    static func reframed(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i + 2 <= bytes.count {
            let h = Int(bytes[i]) % 48
            let p = Int(bytes[i + 1])
            i += 2
            let headerBlock = Array(bytes[i..<min(bytes.count, i + h)])
            i += headerBlock.count
            let payload = Array(bytes[i..<min(bytes.count, i + p)])
            i += payload.count
            out += AWSEventStreamEncoder.message(headerBlock: headerBlock, payload: payload)
        }
        if bytes.last == 0xFF, out.count > 4 { out.removeLast(3) }
        return out
    }

    /// Lines as Bedrock chunks through the accumulator (see the header
    /// comment). In this mode byte 0's bit 1 sets small limits (a message
    /// of 96 to 576 bytes; with bit 3, headers under the usual block's 75),
    /// and bit 0 damages the body: one bit flipped at a place bytes 1...3
    /// pick, and up to 4 bytes cut from its end. Whatever the body, the
    /// usual chunks read in one step must give what the general path gives.
    static func checkBedrock(_ bytes: [UInt8], sizes: [Int], selector: UInt8, damage: [UInt8]) -> String? {
        var (body, sse, allWrapped) = bedrockBodies(bytes)
        var options = MessageAccumulatorOptions(allowsSequentialMessages: true, framing: .awsEventStream)
        if selector & 2 != 0 {
            options.eventStreamLimits = AWSEventStreamLimits(
                maxMessageBytes: 96 + Int(selector >> 4) * 32, maxHeaderBytes: selector & 8 != 0 ? 74 : 128 << 10)
        }
        let damaged = selector & 1 != 0 && !body.isEmpty
        if damaged {
            let place = (Int(damage[0]) << 8 | Int(damage[1])) % body.count
            body[place] ^= 1 << (damage[2] & 7)
            body.removeLast(min(body.count, Int(damage[3]) % 5))
        }
        let (whole, _, wholeSeen, _) = body.withUnsafeBytes {
            AccumulatorFuzzProperty.run($0, sizes: [max(1, $0.count)], options: options, sampling: true)
        }
        let (split, _, splitSeen, changed) = body.withUnsafeBytes {
            AccumulatorFuzzProperty.run($0, sizes: sizes, options: options, sampling: true, holding: true)
        }
        if whole != split { return "bedrock chunking \(sizes), every snapshot held, changed the outcome:\n\(whole)\nvs\n\(split)" }
        if let changed { return "bedrock: \(changed)" }
        if wholeSeen != splitSeen { return "bedrock: a held snapshot showed otherwise than the same snapshot unheld" }
        let (general, _, _, _) = body.withUnsafeBytes {
            AccumulatorFuzzProperty.run($0, sizes: sizes, options: options, generalPathOnly: true)
        }
        if whole != general { return "bedrock: the general path changed the outcome:\n\(whole)\nvs\n\(general)" }
        guard allWrapped, !damaged, selector & 2 == 0 else { return nil }
        let (overSSE, _, _, _) = sse.withUnsafeBytes {
            AccumulatorFuzzProperty.run($0, sizes: [max(1, $0.count)], options: MessageAccumulatorOptions(allowsSequentialMessages: true))
        }
        if whole.messages != overSSE.messages || whole.last != overSSE.last || whole.snapshots != overSSE.snapshots
            || (whole.error == nil) != (overSSE.error == nil)
        {
            return "bedrock and SSE framing of the same events differ:\n\(whole)\nvs\n\(overSSE)"
        }
        return nil
    }

    /// The Bedrock body the lines of `bytes` make, the SSE body of the
    /// wrapped ones, and whether every line was wrapped (lines with CR are
    /// left out: SSE would split them).
    public static func bedrockBodies(_ bytes: [UInt8]) -> (bedrock: [UInt8], sse: [UInt8], allWrapped: Bool) {
        var body: [UInt8] = []
        var sse: [UInt8] = []
        var allWrapped = true
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) where !line.contains(0x0D) {
            if line.first == UInt8(ascii: "!") {
                allWrapped = false
                body += AWSEventStreamEncoder.message(
                    headers: [
                        AWSEventStreamHeader(name: ":event-type", value: .string("chunk")),
                        AWSEventStreamHeader(name: ":message-type", value: .string("event")),
                    ], payload: Array(line.dropFirst()))
            } else {
                body += AWSEventStreamEncoder.bedrockChunk(event: Array(line), padding: line.count % 7)
                sse += Array("data: ".utf8) + line + [0x0A, 0x0A]
            }
        }
        return (body, sse, allWrapped)
    }

    /// Feeds `stream` in chunks of `sizes` (cycled), then finishes.
    public static func run(_ stream: [UInt8], sizes: [Int], limits: AWSEventStreamLimits) -> AWSEventStreamReference.Outcome {
        var parser = AWSEventStreamParser(limits: limits)
        var outcome = AWSEventStreamReference.Outcome()
        var start = 0
        var turn = 0
        let failure: AWSEventStreamError? = stream.withUnsafeBytes { raw in
            while start < raw.count {
                let end = min(raw.count, start + max(1, sizes[turn % sizes.count]))
                turn += 1
                do throws(AWSEventStreamError) {
                    try parser.feed(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { outcome.messages.append($0.makeMessage()) }
                } catch {
                    return error
                }
                start = end
            }
            return nil
        }
        outcome.error = failure ?? parser.finish()
        return outcome
    }

    static func compare(_ stream: [UInt8], sizes: [Int], limits: AWSEventStreamLimits) -> String? {
        let whole = run(stream, sizes: [max(1, stream.count)], limits: limits)
        let split = run(stream, sizes: sizes, limits: limits)
        if whole != split { return "chunking \(sizes) changed the outcome: whole \(whole) vs split \(split)" }
        let reference = AWSEventStreamReference.decode(stream, limits: limits)
        if whole != reference { return "parser and reference disagree: parser \(whole) vs reference \(reference)" }
        return nil
    }
}
