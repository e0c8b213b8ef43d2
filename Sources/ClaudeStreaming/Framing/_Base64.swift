// Standard base64 (RFC 4648 §4, padded) decoded straight from payload bytes
// into a reused byte buffer: no String, no Data, no intermediate array.
//
// The decoding itself is C, in the target _Base64Acceleration: 32
// characters per step with AVX2 on x86_64 (a Bedrock event is mostly its
// base64, so this was most of what the Bedrock path cost beyond SSE's),
// then four at a time through a table, then the padded last group. It
// reports where the first character outside the alphabet is. Bedrock's
// own layout is read by `decodeBedrockLayout` (_BedrockChunk.swift), which
// decodes up to the string's closing quote without finding the quote first.
//
// The buffer is only ever grown, never cleared or zero-filled per event:
// its first `count` bytes are the result, the rest is scratch.

import _Base64Acceleration

/// What `decodeBase64` found.
enum Base64Outcome: Equatable {
    /// The first `count` bytes of the buffer are the decoded bytes.
    case decoded(count: Int)
    /// Offset in the text of the group holding the first character outside
    /// the alphabet (of the character itself in the last group), or of the
    /// incomplete last group.
    case invalid(at: Int)
}

/// Decodes `text` (base64 with padding) into the start of `out`, growing
/// `out` when it is too small.
/// - Complexity: O(`text.count`).
func decodeBase64(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Base64Outcome {
    makeRoom(&out, toDecode: text.count)
    var result = 0
    let status = out.withUnsafeMutableBufferPointer { buffer in
        _base64_decode(text.baseAddress, text.count, buffer.baseAddress, buffer.count, &result)
    }
    switch Int(status) {
    case Int(_base64_decode_ok): return .decoded(count: result)
    case Int(_base64_decode_invalid): return .invalid(at: result)
    // Unreachable: `out` was grown to `needed` above. Said as a failure at
    // the start rather than trusted.
    default: return .invalid(at: 0)
    }
}

/// Makes `out` at least big enough for `count` characters of base64: 32
/// bytes of slack let the AVX2 blocks store their full width up to the
/// last whole block. The buffer is never shrunk or cleared.
@inline(__always)
func makeRoom(_ out: inout [UInt8], toDecode count: Int) {
    let needed = count / 4 * 3 + 32
    if out.count < needed { out.append(contentsOf: repeatElement(0, count: needed - out.count)) }
}
