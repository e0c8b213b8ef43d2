// Standard base64 (RFC 4648 §4, padded) decoded straight from payload bytes
// into a reused byte buffer: no String, no Data, no intermediate array.
//
// On x86_64 with AVX2 the C target _Base64Acceleration decodes 32
// characters per step (a Bedrock event is mostly its base64, so this is
// most of the framing's cost beyond SSE's). It stops before any block with
// a byte outside the alphabet, and the scalar loop below takes over from
// there: it finds the exact place of a bad character, decodes the tail and
// the padded last group, and does everything on other CPUs. Four
// characters become three bytes through four lookups in pre-shifted tables
// OR-ed together, so its loop has one branch per group (any invalid
// character sets bit 31); padding is looked at only in the last group.

import _Base64Acceleration

/// Whether `_base64_decode_blocks` runs on this CPU; asked once.
let _base64BlocksAvailable = _base64_blocks_available() != 0

/// Sextet of each byte, 0xFF outside the alphabet, 0xFE for '='.
let _base64Values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, char) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
        table[Int(char)] = UInt8(value)
    }
    table[Int(UInt8(ascii: "="))] = 0xFE
    return table
}()

/// Four 256-entry tables: character → its sextet shifted to its place in a
/// group's 24 bits (18, 12, 6, 0); 0x8000_0000 outside the alphabet ('=' too).
let _base64Shifted: [UInt32] = {
    var tables = [UInt32](repeating: 0x8000_0000, count: 4 * 256)
    for (byte, value) in _base64Values.enumerated() where value < 64 {
        for k in 0..<4 { tables[k * 256 + byte] = UInt32(value) << UInt32(18 - 6 * k) }
    }
    return tables
}()

/// Decodes `text` (base64 with padding) into `out`, replacing its
/// contents. Returns the offset in `text` of the first invalid character,
/// or nil when it decoded.
/// - Complexity: O(`text.count`).
func _decodeBase64(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Int? {
    out.removeAll(keepingCapacity: true)
    let count = text.count
    guard count > 0 else { return nil }
    guard count % 4 == 0 else { return count - count % 4 }
    let capacity = count / 4 * 3
    var failure: Int? = nil
    var written = 0
    _base64Shifted.withUnsafeBufferPointer { shifted in
        out.append(contentsOf: repeatElement(0, count: capacity))
        out.withUnsafeMutableBufferPointer { output in
            guard let source = text.baseAddress, let tables = shifted.baseAddress, let target = output.baseAddress else { return }
            // Every group but the last: four pre-shifted lookups OR-ed into
            // 24 bits; any character outside the alphabet sets bit 31.
            let body = count &- 4
            var i = 0
            if _base64BlocksAvailable && body >= 32 {
                i = _base64_decode_blocks(source, body, target, capacity)
                written = i / 4 &* 3
            }
            while i < body {
                let word = tables[Int(source.load(fromByteOffset: i, as: UInt8.self))]
                    | tables[256 &+ Int(source.load(fromByteOffset: i &+ 1, as: UInt8.self))]
                    | tables[512 &+ Int(source.load(fromByteOffset: i &+ 2, as: UInt8.self))]
                    | tables[768 &+ Int(source.load(fromByteOffset: i &+ 3, as: UInt8.self))]
                guard word & 0x8000_0000 == 0 else { failure = i; return }
                target[written] = UInt8(truncatingIfNeeded: word &>> 16)
                target[written &+ 1] = UInt8(truncatingIfNeeded: word &>> 8)
                target[written &+ 2] = UInt8(truncatingIfNeeded: word)
                written &+= 3
                i &+= 4
            }
            // The last group, where '=' padding may end the text.
            _base64Values.withUnsafeBufferPointer { table in
                let a = table[Int(text[i])], b = table[Int(text[i &+ 1])]
                let c = table[Int(text[i &+ 2])], d = table[Int(text[i &+ 3])]
                guard a < 64, b < 64 else { failure = i; return }
                target[written] = a << 2 | b >> 4
                written &+= 1
                if c == 0xFE {
                    guard d == 0xFE else { failure = i &+ 3; return }
                    return
                }
                guard c < 64 else { failure = i &+ 2; return }
                target[written] = b << 4 | c >> 2
                written &+= 1
                if d == 0xFE { return }
                guard d < 64 else { failure = i &+ 3; return }
                target[written] = c << 6 | d
                written &+= 1
            }
        }
    }
    out.removeLast(capacity - written)
    return failure
}
