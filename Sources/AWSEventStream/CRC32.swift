// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of the
// AWS event-stream prelude and message.
//
// Slicing-by-16: sixteen 256-entry tables (16 KiB, L1-resident) let the loop
// fold 16 input bytes per step with independent table loads instead of one
// dependent load per byte, several times slower; by-16 rather than by-8 is
// what the Bedrock framing target needs (Benchmarks/RESULTS-HISTORY.md, SSE
// and AWS framing).
// On x86_64 with PCLMULQDQ, everything of 8 bytes and more goes to
// carry-less multiplication (_CRC32Acceleration, C): 64 bytes per fold, the
// tail and the final reduction included, so a message costs no table loads
// (the lane and tail the tables used to finish took more of the Bedrock
// framing's time than the fold itself). The tables do shorter pieces, and
// everything on other CPUs.
// The tables are built once and reached through a raw pointer so the loop
// has no bounds checks or lazy-initialisation checks inside it.

import _CRC32Acceleration

/// CRC-32 with the IEEE polynomial, as used by the AWS event-stream framing
/// (and zlib, PNG, Ethernet).
///
/// `CRC32.checksum(bytes)` equals `CRC32.update(CRC32.checksum(a), b)` when
/// `bytes` is `a` followed by `b`, so a checksum can be built up piecewise.
public enum CRC32 {
    /// The checksum of `bytes`.
    /// - Complexity: O(`bytes.count`).
    @inlinable
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        update(0, bytes)
    }

    /// Continues `checksum` (the CRC of the bytes before) over `bytes`.
    /// - Complexity: O(`bytes.count`).
    public static func update(_ checksum: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return checksum }
        // Carry-less multiplication does the whole CRC, tail and final
        // reduction included, where the CPU has it (8 bytes and more); the
        // tables do the rest.
        var register: UInt32 = 0
        if _crc32_clmul(~checksum, base, bytes.count, &register) != 0 { return ~register }
        return ~tableRegister(~checksum, base, bytes.count)
    }

    /// The table code: the CRC register (not inverted) after `count` bytes at
    /// `base`, from `register`.
    static func tableRegister(_ register: UInt32, _ base: UnsafeRawPointer, _ count: Int) -> UInt32 {
        let table = CRC32Tables.shared.base
        var crc = register
        var i = 0
        while count - i >= 16 {
            let w0 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let w1 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self))
            let a = UInt32(truncatingIfNeeded: w0) ^ crc
            let b = UInt32(truncatingIfNeeded: w0 &>> 32)
            let c = UInt32(truncatingIfNeeded: w1)
            let d = UInt32(truncatingIfNeeded: w1 &>> 32)
            let ab =
                table[15 &* 256 &+ Int(a & 0xFF)] ^ table[14 &* 256 &+ Int((a &>> 8) & 0xFF)]
                ^ table[13 &* 256 &+ Int((a &>> 16) & 0xFF)] ^ table[12 &* 256 &+ Int(a &>> 24)]
                ^ table[11 &* 256 &+ Int(b & 0xFF)] ^ table[10 &* 256 &+ Int((b &>> 8) & 0xFF)]
                ^ table[9 &* 256 &+ Int((b &>> 16) & 0xFF)] ^ table[8 &* 256 &+ Int(b &>> 24)]
            let cd =
                table[7 &* 256 &+ Int(c & 0xFF)] ^ table[6 &* 256 &+ Int((c &>> 8) & 0xFF)]
                ^ table[5 &* 256 &+ Int((c &>> 16) & 0xFF)] ^ table[4 &* 256 &+ Int(c &>> 24)]
                ^ table[3 &* 256 &+ Int(d & 0xFF)] ^ table[2 &* 256 &+ Int((d &>> 8) & 0xFF)]
                ^ table[1 &* 256 &+ Int((d &>> 16) & 0xFF)] ^ table[Int(d &>> 24)]
            crc = ab ^ cd
            i &+= 16
        }
        if count - i >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let low = UInt32(truncatingIfNeeded: word) ^ crc
            let high = UInt32(truncatingIfNeeded: word &>> 32)
            crc =
                table[7 &* 256 &+ Int(low & 0xFF)]
                ^ table[6 &* 256 &+ Int((low &>> 8) & 0xFF)]
                ^ table[5 &* 256 &+ Int((low &>> 16) & 0xFF)]
                ^ table[4 &* 256 &+ Int(low &>> 24)]
                ^ table[3 &* 256 &+ Int(high & 0xFF)]
                ^ table[2 &* 256 &+ Int((high &>> 8) & 0xFF)]
                ^ table[1 &* 256 &+ Int((high &>> 16) & 0xFF)]
                ^ table[Int(high &>> 24)]
            i &+= 8
        }
        while i < count {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc &>> 8)
            i &+= 1
        }
        return crc
    }

    /// The checksum of `bytes`.
    /// - Complexity: O(`bytes.count`).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

/// The sixteen slicing tables, 16 × 256 entries, built once and never freed.
/// Immutable after `init`, so sharing the pointer across tasks is safe.
final class CRC32Tables: @unchecked Sendable {
    static let shared = CRC32Tables()
    let base: UnsafePointer<UInt32>

    private init() {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 16 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        for k in 1..<16 {
            for n in 0..<256 {
                let previous = table[(k - 1) * 256 + n]
                table[k * 256 + n] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        base = UnsafePointer(table)
    }
}
