// _AWSUsualMessage: one whole message of a known header block, checked and
// located in one step, for a reader that takes its usual message straight
// from the chunk.
//
// Nearly every message of a Bedrock stream carries the same header block,
// byte for byte (`:event-type: chunk`, `:content-type: application/json`,
// `:message-type: event`). A reader that knows that block can skip the
// parser's per-message work (the header walk, the message view, the
// callback) if it accepts only messages the parser would have delivered
// with no other effect: the whole message inside the chunk, within the
// limits, both CRCs matching, and headers that are exactly the given
// block (which must itself be a valid header block). Anything else, an
// error included, is declined, and the parser reads it the general way,
// reporting any error with its offset. So this never has to explain a
// failure.
//
// Worked example: at `start`, a 310-byte message whose headers are the 75
// bytes of Bedrock's block. The prelude says total 310 and headers 75: 310
// bytes are available, within the limits, and 75 is the block's length;
// the bytes at start+12 equal the block; the prelude CRC (bytes 0..<8)
// matches bytes 8..<12; the message CRC, continued from it over bytes
// 8..<306, matches bytes 306..<310. The payload is start+87..<start+306
// and the next message starts at start+310.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Reads a message whose header block is known (file comment).
package enum _AWSUsualMessage {
    /// The payload and end of the message at `chunk[start...]` when it is
    /// whole, within `limits`, has both CRCs right and has exactly
    /// `headerBlock` for headers; else nil (the parser then reads it).
    ///
    /// - Complexity: O(length of the message).
    package static func read(
        _ chunk: UnsafeRawBufferPointer, from start: Int, headerBlock: UnsafeRawBufferPointer, limits: AWSEventStreamLimits
    ) -> (payload: Range<Int>, end: Int)? {
        guard start >= 0, chunk.count &- start >= preludeLength, let base = chunk.baseAddress,
            let block = headerBlock.baseAddress
        else { return nil }
        let message = UnsafeRawBufferPointer(start: base + start, count: chunk.count &- start)
        let total = intLength(readUInt32(message, at: 0))
        let headers = intLength(readUInt32(message, at: 4))
        // The parser's prelude checks (a total of at least 16 bytes plus
        // the headers, both limits), and the message inside the chunk.
        guard headers == headerBlock.count, total <= message.count, total <= limits.maxMessageBytes,
            headers <= limits.maxHeaderBytes, total &- minimumMessageLength >= headers,
            memcmp(base + start + preludeLength, block, headers) == 0
        else { return nil }
        let preludeCRC = CRC32.checksum(UnsafeRawBufferPointer(rebasing: message[0..<8]))
        guard preludeCRC == readUInt32(message, at: 8) else { return nil }
        let crcStart = total &- 4
        let crc = CRC32.update(preludeCRC, UnsafeRawBufferPointer(rebasing: message[8..<crcStart]))
        guard crc == readUInt32(message, at: crcStart) else { return nil }
        return ((start &+ preludeLength &+ headers)..<(start &+ crcStart), start &+ total)
    }
}
