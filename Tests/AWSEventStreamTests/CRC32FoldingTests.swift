// The carry-less-multiplication CRC (C, _CRC32Acceleration) against the
// bitwise reference and the table code: random lengths and alignments, the
// constants re-derived from the polynomial, and the C path checked directly
// (every length from 8 up, every tail length, registers other than ~0) so a
// CPU without it cannot make these pass vacuously.

import FuzzProperties
import Testing
import _CRC32Acceleration

@testable import AWSEventStream

@Suite struct CRC32FoldingTests {
    /// The unreflected IEEE polynomial, x^32 + … + 1.
    static let polynomial: UInt64 = 0x1_04C1_1DB7

    /// `value` (a polynomial of degree < 64, bit d for x^d) as the C code
    /// keeps it: bit-reflected into a 64-bit lane, bit i for x^(63-i).
    static func reflected(_ value: UInt64) -> UInt64 {
        var lane: UInt64 = 0
        for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { lane |= 1 << UInt64(63 - bit) }
        return lane
    }

    /// x^m mod P.
    static func power(_ m: Int) -> UInt64 {
        var remainder: UInt64 = 1
        for _ in 0..<m {
            remainder <<= 1
            if remainder & (1 << 32) != 0 { remainder ^= polynomial }
        }
        return remainder
    }

    /// floor(x^64 / P), by long division one bit at a time.
    static func barrettQuotient() -> UInt64 {
        var quotient: UInt64 = 0
        var remainder: UInt64 = 0
        for degree in stride(from: 64, through: 0, by: -1) {
            remainder = remainder << 1 | (degree == 64 ? 1 : 0)
            quotient <<= 1
            if remainder & (1 << 32) != 0 {
                remainder ^= polynomial
                quotient |= 1
            }
        }
        return quotient
    }

    @Test func constantsAreDerivedFromThePolynomial() {
        var constants = [UInt64](repeating: 0, count: 12)
        constants.withUnsafeMutableBufferPointer { _crc32_clmul_constants($0.baseAddress) }
        // Four lanes 512 bits apart, three, two and one lane on (384, 256,
        // 128 bits), then the reduction by 96 and 64 bits; one less than each
        // distance because a reflected product comes out a bit short. Then
        // Barrett's μ and P.
        let expected =
            [575, 511, 447, 383, 319, 255, 191, 127, 95, 63].map { Self.reflected(Self.power($0)) }
            + [Self.reflected(Self.barrettQuotient()), Self.reflected(Self.polynomial)]
        #expect(constants == expected)
    }

    @Test func randomLengthsAndAlignmentsMatchTheReferenceAndTheTables() {
        var generator = SplitMix64(seed: 0xC1C)
        let storage = (0..<(4096 + 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var lengths = Array(0...130) + [255, 256, 257, 511, 512, 513, 4095, 4096]
        for _ in 0..<150 { lengths.append(Int(generator.next() % 4097)) }
        storage.withUnsafeBytes { raw in
            for length in lengths {
                let start = Int(generator.next() % 64)
                let bytes = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
                let expected = AWSEventStreamReference.crc32(storage[start..<(start + length)])
                let table = bytes.baseAddress.map { ~CRC32.tableRegister(~0, $0, length) } ?? 0
                #expect(CRC32.checksum(bytes) == expected, "length \(length) at \(start)")
                #expect(table == expected, "length \(length) at \(start)")
                let seed = UInt32(truncatingIfNeeded: generator.next())
                let continued = bytes.baseAddress.map { ~CRC32.tableRegister(~seed, $0, length) } ?? seed
                #expect(CRC32.update(seed, bytes) == continued, "length \(length) at \(start), from \(seed)")
            }
        }
    }

    @Test func theCarrylessPathIsRightWhereTheCPUHasIt() throws {
        let available = _crc32_fold_available() != 0
        try #require(available || !Self.expectsFolding, "this x86_64 CPU should have PCLMULQDQ and SSE4.1")
        guard available else { return }
        var generator = SplitMix64(seed: 64)
        let storage = (0..<(2048 + 16)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        // Every length below 8 stays with the tables; from 8 on (one lane
        // from two loads, then every tail length of 1...15 after 16, 64 and
        // more whole bytes) the C code does it all.
        let lengths = Array(0...300) + [511, 512, 513, 1023, 1024, 1025, 2047, 2048]
        try storage.withUnsafeBytes { raw in
            for length in lengths {
                for start in [0, 1, 7, 15] {
                    let register = UInt32(truncatingIfNeeded: generator.next())
                    var out: UInt32 = 0
                    let base = try #require(raw.baseAddress) + start
                    let done = _crc32_clmul(register, base, length, &out)
                    #expect(done == (length >= 8 ? 1 : 0), "length \(length)")
                    guard done == 1 else { continue }
                    #expect(out == CRC32.tableRegister(register, base, length), "length \(length) at \(start) from \(register)")
                }
            }
        }
        // The bitwise reference, not only the tables, for a few registers.
        let bytes = Array(storage[0..<77])
        var out: UInt32 = 0
        _ = bytes.withUnsafeBytes { _crc32_clmul(~0, $0.baseAddress, 77, &out) }
        #expect(~out == AWSEventStreamReference.crc32(bytes[...]))
    }

    #if arch(x86_64)
    static let expectsFolding = true
    #else
    static let expectsFolding = false
    #endif
}
