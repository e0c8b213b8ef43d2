// Standard base64 (RFC 4648 §4, padded) decoded straight from payload bytes
// into a reused byte buffer: no String, no Data, no intermediate array.
// Four characters become three bytes through one table lookup each; a
// group with a byte outside the alphabet is checked for padding only at
// the end, so the loop over the body has a single branch per group.

/// Sextet of each byte, 0xFF outside the alphabet, 0xFE for '='.
let _base64Values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, char) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
        table[Int(char)] = UInt8(value)
    }
    table[Int(UInt8(ascii: "="))] = 0xFE
    return table
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
    _base64Values.withUnsafeBufferPointer { table in
        out.append(contentsOf: repeatElement(0, count: capacity))
        out.withUnsafeMutableBufferPointer { output in
            var i = 0
            while i < count {
                let a = table[Int(text[i])], b = table[Int(text[i &+ 1])]
                let c = table[Int(text[i &+ 2])], d = table[Int(text[i &+ 3])]
                if (a | b | c | d) & 0x80 != 0 {
                    // Padding, allowed only as the last one or two characters.
                    guard i &+ 4 == count, a < 64, b < 64 else { failure = i; return }
                    output[written] = a << 2 | b >> 4
                    written &+= 1
                    if c == 0xFE {
                        guard d == 0xFE else { failure = i &+ 3; return }
                    } else {
                        guard c < 64, d == 0xFE else { failure = i &+ 2; return }
                        output[written] = b << 4 | c >> 2
                        written &+= 1
                    }
                    return
                }
                output[written] = a << 2 | b >> 4
                output[written &+ 1] = b << 4 | c >> 2
                output[written &+ 2] = c << 6 | d
                written &+= 3
                i &+= 4
            }
        }
    }
    out.removeLast(capacity - written)
    return failure
}
