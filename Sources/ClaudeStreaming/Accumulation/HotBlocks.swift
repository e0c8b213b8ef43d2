// HotBlocks: the usual event read from the chunk in one step, framing and
// JSON together.
//
// Nine events in ten are one SSE block of exactly this form:
//
//   event: content_block_delta⏎
//   data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}⏎
//   ⏎
//
// Read the general way, the SSE parser finds three line ends and sorts the
// lines into fields, then the hot delta scanner reads the data again. Here
// the block is matched in one pass: ServerSentEvents' `_SSEUsualBlock`
// checks the framing in the API's exact form (the field heads, the event
// type `content_block_delta`, the line ends, the blank line, the limits)
// and asks this file for the data value, read as the delta's JSON in the
// API's layout, its payload by the string scan (which stops at any control
// byte, so no CR or LF can hide inside it), up to `}}`. Every byte of the
// block is accounted for, so it is the SSE block the parser would have
// dispatched, with this data, and nothing else: no line end to search
// for, and one pass over the payload.
//
// The SSE parser offers the rest of each chunk at block boundaries where it
// holds nothing (`SSEParser.feed(_:readingBlocks:onEvent:)`); blocks are
// read here while they have the form, and the first that does not, whole
// or cut by the chunk's end, goes back to the parser untouched. The event
// is applied exactly as the general path applies it (`applyDelta`), with
// the same event index and stream offset (its blank line's LF), so a
// stream gives the same snapshots and errors whichever way each block is
// read; the chunking and fuzz tests hold the two paths to that.
//
// Worked example: at offset 0 of a chunk, `event: content_block_delta⏎`
// and `data: ` match as two words and a literal. In the data value the
// JSON head through `"index":` matches, the index reads 0,
// `,"delta":{"type":"text_delta","text":"` matches, the string scan stops
// at the quote after `Hello` (no escapes: the payload stays in the chunk),
// and `}}` ends the value before an LF and the blank line. The block ends
// at 136: the payload is appended, a snapshot is handed out, and the next
// block is tried at 136.
//
// A delta to the live block of its kind (nearly all of them) skips even
// that append: before its payload is scanned, the free room past the
// block's bytes is claimed (`StreamingBlocks.claimLiveRoom`), the scan
// writes the payload there, escaped or not, and applying the delta counts
// the bytes as the block's. A block that turns out not to have the form, or
// a delta that fails, gives the room back unwritten.

import ServerSentEvents

extension AccumulatorState {
    /// Reads the block at `rest[start...]` if it has the form above; returns
    /// the delta and where the block ends (just past its blank line), or
    /// nil. A delta to the live block of its kind is written straight into
    /// the room past the block's text, grown first when short
    /// (`StreamingBlocks.claimLiveRoom`; `applyHotDelta` counts it there),
    /// so its bytes are copied once; any other payload stays in `rest`
    /// (ranges relative to it) or the scanner's buffer. Nothing stays
    /// claimed unless a delta in the room is returned.
    ///
    /// - Complexity: O(size of the block).
    @inline(__always)
    mutating func scanHotBlock(_ rest: UnsafeRawBufferPointer, from start: Int) -> (delta: HotDelta, end: Int)? {
        var delta: HotDelta?
        var claimed = false
        let end = _SSEUsualBlock.readExact(rest, from: start, eventType: "content_block_delta", limits: options.sseLimits) {
            value in
            var reader = ByteReader(rest, at: value)
            guard let read = readCanonicalDelta(&reader, claimed: &claimed), reader.consumeLiteral("}}") else { return nil }
            delta = read
            return reader.position
        }
        guard let end, let delta else {
            if claimed { streaming.abandonLiveRoom() }
            return nil
        }
        if claimed, !delta.isInRoom { streaming.abandonLiveRoom() }
        return (delta, end)
    }

    /// Reads an event's data in the canonical layout (`scanCanonical`'s,
    /// whitespace allowed before the closing braces), a delta to the live
    /// block written into its room as `scanHotBlock` does: for events that
    /// come one at a time (Bedrock's chunks, SSE blocks of other forms).
    ///
    /// - Complexity: O(`data.count`).
    ///
    /// `readable`, when given, is a buffer that starts where `data` does and
    /// runs on past it, with a byte below 0x20 at `data.count` (a decoded
    /// Bedrock event in its reused buffer). The head and payload are read
    /// over it: the string scan then works in whole windows up to the
    /// payload's closing quote instead of taking its short path near the
    /// end of `data`. No read can succeed across that control byte (it
    /// matches no literal or digit and ends the string scan), so all that
    /// is read lies in `data`, and the tail is checked against `data`.
    @inline(__always)
    mutating func scanCanonicalDelta(_ data: UnsafeRawBufferPointer, readable: UnsafeRawBufferPointer? = nil) -> HotDelta? {
        var reader = ByteReader(readable ?? data)
        var claimed = false
        let delta = readCanonicalDelta(&reader, claimed: &claimed)
        var tail = ByteReader(data, at: reader.position)
        guard let delta, tail.consumeCanonicalTail() else {
            if claimed { streaming.abandonLiveRoom() }
            return nil
        }
        if claimed, !delta.isInRoom { streaming.abandonLiveRoom() }
        return delta
    }

    /// The canonical layout from its head to the payload's closing quote,
    /// the payload written into the live block's room when the delta is to
    /// that block and the room is enough (`claimed` then says the room is
    /// claimed, and the caller gives it back unless it applies the delta).
    @inline(__always)
    mutating func readCanonicalDelta(_ reader: inout ByteReader, claimed: inout Bool) -> HotDelta? {
        guard let (index, kind) = reader.consumeCanonicalDeltaStart() else { return nil }
        var room: UnsafeMutableBufferPointer<UInt8>?
        if let live = liveKind(of: kind, at: index) {
            room = claimLiveRoom(at: index, as: live)
            claimed = room != nil
        }
        return scanner.payload(&reader, index: index, kind: kind, room: room)
    }

    /// The live block's room for a delta (`StreamingBlocks.claimLiveRoom`),
    /// the bytes published in this state's snapshot if the buffer grows.
    @inline(__always)
    mutating func claimLiveRoom(at index: Int, as live: LiveKind) -> UnsafeMutableBufferPointer<UInt8>? {
        streaming.claimLiveRoom(at: index, as: live, publishedIn: &message)
    }

    /// Applies the blocks of the usual form at the start of `rest` (file
    /// comment), handing out a snapshot after each when `emitsSnapshots`;
    /// returns the bytes they took. `offset` is the stream offset of
    /// `rest`'s first byte. Stops at the first other block, or after a
    /// block whose delta fails (the failure is recorded with its place).
    ///
    /// - Complexity: O(bytes taken) plus O(open blocks) per snapshot.
    @inline(__always)
    mutating func readHotBlocks(
        _ rest: UnsafeRawBufferPointer, at offset: Int, emitsSnapshots: Bool, onSnapshot: (MessageSnapshot) -> Void
    ) -> Int {
        var taken = 0
        while !hasFailed, let block = scanHotBlock(rest, from: taken) {
            // A failure's place is the block's blank line's LF.
            guard applyEventDelta(block.delta, data: rest, streamOffset: offset &+ block.end &- 1) else { return block.end }
            taken = block.end
            // The stored snapshot itself, not a copy out of an optional:
            // handing it out then costs no retain or release.
            if emitsSnapshots && hasMessage { onSnapshot(message) }
        }
        return taken
    }
}
