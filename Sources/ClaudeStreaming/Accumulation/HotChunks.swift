// HotChunks: the usual Bedrock chunk read from the body in one step,
// framing, base64 and event together.
//
// Nearly every message of a Bedrock body is a `chunk` whose headers are
// Bedrock's usual block, byte for byte, and whose payload is
// `{"bytes":"<base64 of one event>","p":"<padding>"}`. Read the general
// way, the event-stream parser walks the headers and hands out a message
// view, the decoder sorts it by its headers, unwraps the payload and calls
// the accumulator back with the event: three closures and their captures
// for each event. Here a run of such messages is read in one loop of the
// accumulator's own: `_AWSUsualMessage` checks the framing (whole message,
// limits, both CRCs, the exact header block) and locates the payload, the
// payload is decoded in Bedrock's layout (`decodeBedrockLayout`), and the
// event is applied exactly as the general path applies it (`apply`), with
// the same event index and stream offset (the message's end). The first
// message that does not have the form, whole or cut by the chunk's end, an
// error included, goes back to the parser untouched; the parser then reads
// it and reports what is wrong, where. So a body gives the same snapshots
// and errors whichever way each message is read; the chunking tests and
// the aws-eventstream fuzz target hold the two ways to that.
//
// Worked example: a 16 KiB piece of a body, at a message boundary, holding
// 52 whole messages and the start of the 53rd. Each of the 52 has the
// usual headers and layout: each is checked, decoded into the event buffer
// and applied, with a snapshot after each that changed the message. The
// 53rd is cut by the piece's end, so the reader returns the 52 messages'
// bytes; the parser buffers the rest and offers the next boundary after
// it.

import AWSEventStream

extension AccumulatorState {
    /// Applies the messages of the usual form at the start of `rest` (file
    /// comment), decoding each event into `event`, handing out a snapshot
    /// after each that changed the message when `emitsSnapshots`; returns
    /// the bytes and messages taken. `offset` is the stream offset of
    /// `rest`'s first byte. Stops at the first other message, or after an
    /// event that fails (the failure is recorded with its place).
    ///
    /// - Complexity: O(bytes taken) plus O(open blocks) per snapshot.
    mutating func readHotChunks(
        _ rest: UnsafeRawBufferPointer, at offset: Int, event: inout [UInt8], emitsSnapshots: Bool,
        onSnapshot: (MessageSnapshot) -> Void
    ) -> (bytes: Int, messages: Int) {
        let headerBlock = BedrockEventDecoder.usualHeaderBlock
        let limits = options.eventStreamLimits
        var taken = 0
        var messages = 0
        while !hasFailed, let read = _AWSUsualMessage.read(rest, from: taken, headerBlock: headerBlock, limits: limits),
            let count = decodeBedrockLayout(UnsafeRawBufferPointer(rebasing: rest[read.payload]), into: &event)
        {
            taken = read.end
            messages &+= 1
            // Exclusive access to the buffer, not a shared borrow (see
            // `BedrockEventDecoder.feed`). The decoding leaves at least 32
            // bytes of the buffer past the event; a NUL after it lets the
            // delta's scan read on in whole windows (`scanCanonicalDelta`).
            let end = offset &+ read.end
            let changed = event.withUnsafeMutableBytes { bytes in
                let data = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                guard count < bytes.count else { return apply(data, streamOffset: end) }
                bytes[count] = 0
                // The usual delta straight away, as `apply` would read and
                // apply it; anything else through `apply`.
                guard readsUsualEvents, let delta = scanCanonicalDelta(data, readable: UnsafeRawBufferPointer(bytes)) else {
                    return apply(data, streamOffset: end)
                }
                return applyEventDelta(delta, data: data, streamOffset: end)
            }
            // The stored snapshot itself, not a copy out of an optional.
            if changed && emitsSnapshots && hasMessage { onSnapshot(message) }
        }
        return (taken, messages)
    }
}
