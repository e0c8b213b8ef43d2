// The usual delta block read in one step (HotBlocks.swift): every kind
// from the one table, the near misses it must leave to the SSE parser, and
// streams whose outcome (messages, errors with their event index and
// offset, snapshot count) is the same whether a block is read in one step
// (a whole chunk) or line by line (one byte a chunk never holds a block).

import Foundation
import ServerSentEvents
import Testing

@testable import ClaudeStreaming

@Suite struct HotBlocksTests {
    func block(_ kind: HotDeltaKind, index: Int = 0, payload: String, eventLine: Bool = true) -> String {
        (eventLine ? "event: content_block_delta\n" : "")
            + #"data: {"type":"content_block_delta","index":\#(index),"delta":{"type":"\#(kind.wireName)","\#(kind.payloadField)":"\#(payload)"}}"#
            + "\n\n"
    }

    func scanBlock(_ text: String, from start: Int = 0, limits: SSELimits = SSELimits()) -> (HotDelta, Int)? {
        var state = AccumulatorState(options: MessageAccumulatorOptions(sseLimits: limits), readsUsualEvents: true)
        return Array(text.utf8).withUnsafeBytes { state.scanHotBlock($0, from: start) }
    }

    /// Each kind's head is one literal in the scanner; the table is the
    /// truth, and a block built from it must be read in one step (this path
    /// has no any-order fallback to hide a wrong literal).
    @Test(arguments: HotDeltaKind.allCases)
    func everyKindIsReadInOneStep(kind: HotDeltaKind) throws {
        for eventLine in [true, false] {
            let text = block(kind, index: 12, payload: #"caf\u00e9 \"x\""#, eventLine: eventLine)
            let read = try #require(scanBlock(text), "\(kind) event line \(eventLine)")
            #expect(read.0.kind == kind && read.0.index == 12)
            #expect(read.1 == text.utf8.count)
        }
    }

    /// Blocks the parser must read: each differs from the form in one way.
    @Test(arguments: [
        "event:content_block_delta\ndata: X\n\n", "data:X\n\n", "event: content_block_delta\ndata:X\n\n",
        "event: content_block_delta\r\ndata: X\n\n", "event: content_block_delta\ndata: X\r\n\r\n",
        "event: content_block_delta\ndata: X\n", "event: message_delta\ndata: X\n\n", "event: content_block_deltas\ndata: X\n\n",
        "event:  content_block_delta\ndata: X\n\n", "data:  X\n\n", "id: 1\ndata: X\n\n", ": c\ndata: X\n\n",
        "event: content_block_delta\ndata: X\ndata: X\n\n", "event: content_block_delta\ndata: X \n\n",
    ])
    func nearMissesAreLeftToTheParser(_ shape: String) {
        let json = #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}"#
        #expect(scanBlock(shape.replacingOccurrences(of: "X", with: json)) == nil, "\(shape.debugDescription)")
        let spaced = #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"} }"#
        #expect(scanBlock("data: \(spaced)\n\n") == nil)
    }

    /// The accumulator follows the one switch (`CLAUDE_STREAMING_GENERAL_PATH`,
    /// GeneralPath.c): off, every event goes through the parser and the tree.
    @Test func theAccumulatorFollowsTheGeneralPathSwitch() {
        let requested = ProcessInfo.processInfo.environment["CLAUDE_STREAMING_GENERAL_PATH"].map { !$0.isEmpty && $0 != "0" } ?? false
        #expect(MessageAccumulator().state.readsUsualEvents == !requested)
    }

    /// Cut anywhere, a block is not read: the chunk's end may fall inside it.
    @Test func aCutBlockIsNotRead() {
        let text = block(.text, payload: #"a \"b\" \u00e9"#)
        for cut in 0..<text.utf8.count {
            #expect(scanBlock(String(decoding: Array(text.utf8)[..<cut], as: UTF8.self)) == nil, "cut at \(cut)")
        }
        #expect(scanBlock(text) != nil)
    }

    /// Over the SSE limits, the parser must see the block to report them.
    @Test func blocksOverTheLimitsAreLeftToTheParser() {
        let text = block(.text, payload: "0123456789")
        #expect(scanBlock(text, limits: SSELimits(maxLineBytes: 20, maxEventBytes: 1 << 20)) == nil)
        #expect(scanBlock(text, limits: SSELimits(maxLineBytes: 1 << 20, maxEventBytes: 40)) == nil)
        #expect(scanBlock(block(.text, payload: "x", eventLine: false), limits: SSELimits(maxLineBytes: 100, maxEventBytes: 100)) != nil)
    }

    /// A delta to the live block is written straight into the room past
    /// its text; a block that fails after its data value, or a delta past
    /// the message's byte limit, gives the room back and leaves the text as
    /// it was.
    @Test func aDeltaToTheLiveBlockIsWrittenInItsRoom() throws {
        func event(_ json: String) -> [UInt8] { Array(json.utf8) }
        var state = AccumulatorState(options: MessageAccumulatorOptions(maxMessageBytes: 330), readsUsualEvents: true)
        let first = String(repeating: "a", count: 300)
        for json in [
            #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}"#,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\#(first)"}}"#,
            // The text's storage doubles to 600 bytes: room to spare.
            #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"b"}}"#,
        ] {
            _ = event(json).withUnsafeBytes { state.apply($0, streamOffset: 0) }
        }
        #expect(state.message.text == first + "b")
        /// Whether the room past the live text is free to claim again.
        func roomIsFree() -> Bool {
            let room = state.claimLiveRoom(at: 0, as: .text)
            state.streaming.abandonLiveRoom()
            return room != nil
        }
        // Escaped or not, the payload lands in the room.
        for (payload, text) in [(#"caf\u00e9 \"q\""#, "caf\u{E9} \"q\""), ("plain", "plain")] {
            let bytes = Array(block(.text, payload: payload).utf8)
            let before = state.message.text
            try bytes.withUnsafeBytes { raw in
                let scanned = state.scanHotBlock(raw, from: 0)
                let read = try #require(scanned)
                #expect(read.delta.isInRoom && read.end == bytes.count)
                try state.applyHotDelta(read.delta, data: raw)
            }
            #expect(state.message.text == before + text)
        }
        // An event read alone (a Bedrock chunk's), as well.
        let alone = Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\u00e9!"} }"#.utf8)
        let before = state.message.text
        try alone.withUnsafeBytes { raw in
            let scanned = state.scanCanonicalDelta(raw)
            let delta = try #require(scanned)
            #expect(delta.isInRoom)
            try state.applyHotDelta(delta, data: raw)
        }
        #expect(state.message.text == before + "\u{E9}!")
        let text = state.message.text
        // An event with more after it: not read, the room given back.
        let more = Array(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"y"}} x"#.utf8)
        let scannedMore = more.withUnsafeBytes { state.scanCanonicalDelta($0) }
        #expect(scannedMore == nil && roomIsFree())
        // Framing that fails after the value: nothing read, the room given back.
        let withID = Array((block(.text, payload: "x").dropLast(1) + "id: 1\n\n").utf8)
        let scannedWithID = withID.withUnsafeBytes { state.scanHotBlock($0, from: 0) }
        #expect(scannedWithID == nil && roomIsFree())
        // Past the byte limit: the delta fails, the text stays.
        let long = Array(block(.text, payload: String(repeating: "c", count: 30)).utf8)
        try long.withUnsafeBytes { raw in
            let scanned = state.scanHotBlock(raw, from: 0)
            let read = try #require(scanned)
            #expect(read.delta.isInRoom)
            #expect(throws: EventFailure.self) { try state.applyHotDelta(read.delta, data: raw) }
        }
        #expect(state.message.text == text && roomIsFree())
    }

    /// A message whose text block at index 0 has had one delta, "ab".
    static func stateWithYoungTextBlock() -> AccumulatorState {
        var state = AccumulatorState(options: MessageAccumulatorOptions(), readsUsualEvents: true)
        for json in [
            #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}"#,
            #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ab"}}"#,
        ] {
            _ = Array(json.utf8).withUnsafeBytes { state.apply($0, streamOffset: 0) }
        }
        return state
    }

    /// `scanCanonicalDelta` over a buffer readable past the event (a decoded
    /// Bedrock event): with a control byte at the event's end, no read
    /// succeeds across it, whatever follows, and the event must end at its
    /// own end even when the buffer holds a whole delta. Each delta is to the
    /// open text block (written into its room) or to another index (left in
    /// the data).
    @Test func aDeltaReadPastItsEndTakesNothingFromThere() throws {
        var state = Self.stateWithYoungTextBlock()
        for index in [0, 1] {
            let event = Array(#"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":"a quote \" and more text"}}"#.utf8)
            let slack = [UInt8](repeating: 0x7D, count: 40)
            // A control byte at every place but the end: the head and
            // payload read stops at it (nothing read reaches past it), and
            // the scan declines.
            for cut in 0..<event.count {
                var readable = event + slack
                readable[cut] = 0
                readable.withUnsafeBytes { raw in
                    var reader = ByteReader(raw)
                    var claimed = false
                    let read = state.readCanonicalDelta(&reader, claimed: &claimed)
                    if claimed { state.streaming.abandonLiveRoom() }
                    #expect(read == nil || reader.position <= cut, "index \(index), cut at \(cut): read to \(reader.position)")
                    let scanned = state.scanCanonicalDelta(UnsafeRawBufferPointer(rebasing: raw[0..<cut]), readable: raw)
                    #expect(scanned == nil, "index \(index), cut at \(cut)")
                }
            }
            // The whole delta in the buffer, but one byte short of it in the data.
            let short = event.withUnsafeBytes { raw in
                state.scanCanonicalDelta(UnsafeRawBufferPointer(rebasing: raw[0..<(event.count - 1)]), readable: raw)
            }
            #expect(short == nil, "index \(index)")
            // At the end: the same delta as read from the event alone.
            let whole = (event + [0] + slack).withUnsafeBytes { raw in
                state.scanCanonicalDelta(UnsafeRawBufferPointer(rebasing: raw[0..<event.count]), readable: raw)
            }
            let delta = try #require(whole, "index \(index)")
            #expect(delta.index == index && delta.payloadRange.count == 23 && delta.isInRoom == (index == 0))
            if delta.isInRoom { state.streaming.abandonLiveRoom() }
        }
    }

    /// A young block's buffer has less room than a claim asks for: it grows
    /// first, so the block's second delta is written in place too, and a
    /// claim that grew the buffer and was given back leaves the snapshot's
    /// text whole.
    @Test func aYoungBlockGrowsRoomForTheClaim() throws {
        var state = Self.stateWithYoungTextBlock()
        #expect(state.message.text == "ab")
        // Framing that fails after the value: the claim grew the buffer and
        // was given back; the snapshot still shows the text.
        let withID = Array((block(.text, payload: "x").dropLast(1) + "id: 1\n\n").utf8)
        let scannedWithID = withID.withUnsafeBytes { state.scanHotBlock($0, from: 0) }
        #expect(scannedWithID == nil)
        #expect(state.message.text == "ab")
        let bytes = Array(block(.text, payload: #"c\nd"#).utf8)
        try bytes.withUnsafeBytes { raw in
            let scanned = state.scanHotBlock(raw, from: 0)
            let read = try #require(scanned)
            #expect(read.delta.isInRoom)
            try state.applyHotDelta(read.delta, data: raw)
        }
        #expect(state.message.text == "abc\nd")
    }

    /// Streams mixing blocks of the form with others, and ending in each
    /// kind of failure inside a block of the form: the outcome does not
    /// depend on how the blocks were read (`runStream` replays every
    /// chunking, one byte at a time among them).
    @Test func readingInOneStepChangesNothing() {
        let start =
            "event: message_start\n"
            + #"data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}"#
            + "\n\n"
        let text = "event: content_block_start\n" + #"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"# + "\n\n"
        let stop = "event: content_block_stop\n" + #"data: {"type":"content_block_stop","index":0}"# + "\n\n"
        let end = "event: message_stop\n" + #"data: {"type":"message_stop"}"# + "\n\n"
        let ping = "event: ping\ndata: {\"type\": \"ping\"}\n\n"
        let deltas = (0..<40).map { block(.text, payload: #"word \#($0) \"q\" caf\u00e9 "#, eventLine: $0 % 3 != 0) }.joined(separator: ping)
        let streams = [
            start + text + deltas + stop + end,
            // A delta for a block that is not open, inside the form.
            start + text + deltas + block(.text, index: 5, payload: "late") + deltas + stop + end,
            // A delta after message_stop.
            start + text + deltas + stop + end + block(.text, payload: "after"),
            // A delta of the wrong kind for its block.
            start + text + deltas + block(.thinking, payload: "hm") + stop + end,
            // CR line ends: never read in one step.
            (start + text + deltas + stop + end).replacingOccurrences(of: "\n", with: "\r\n"),
            // A block with a field after its data: read by the parser.
            start + text + deltas + block(.text, payload: "with id").dropLast(1) + "id: 7\n\n" + deltas + stop + end,
        ]
        for (number, stream) in streams.enumerated() {
            let outcome = runStream(Array(stream.utf8), options: MessageAccumulatorOptions())
            #expect(outcome.snapshots > 40, "stream \(number)")
            if number == 0 || number == 4 || number == 5 {
                #expect(outcome.error == nil && outcome.last?.text.hasPrefix("word 0 \"q\" caf\u{E9} ") == true, "stream \(number)")
            } else {
                #expect(outcome.error != nil, "stream \(number)")
            }
        }
        // Past the byte limit in the middle of the deltas, read in one step
        // or not.
        let limited = runStream(Array((start + text + deltas + stop + end).utf8), options: MessageAccumulatorOptions(maxMessageBytes: 700))
        #expect(limited.error != nil && limited.snapshots > 10)
    }
}
