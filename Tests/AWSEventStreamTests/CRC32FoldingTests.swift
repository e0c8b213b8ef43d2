// The carry-less-multiplication CRC (C, _CRC32Acceleration) against the
// bitwise reference and the table code: random lengths and alignments, the
// folding constants re-derived from the polynomial, and the fold itself
// checked directly so a CPU without it cannot make these pass vacuously.

@testable import AWSEventStream
import _CRC32Acceleration
import FuzzProperties
import Testing

@Suite struct CRC32FoldingTests {
    /// x^m mod P (P = 0x104C11DB7, the unreflected IEEE polynomial), as the
    /// C code keeps it: bit-reflected into the top 32 bits of a 64-bit lane.
    static func foldConstant(_ m: Int) -> UInt64 {
        var remainder: UInt64 = 1
        for _ in 0..<m {
            remainder <<= 1
            if remainder & (1 << 32) != 0 { remainder ^= 0x1_04C1_1DB7 }
        }
        var reflected: UInt64 = 0
        for bit in 0..<32 where remainder & (1 << UInt64(bit)) != 0 { reflected |= 1 << UInt64(63 - bit) }
        return reflected
    }

    @Test func foldingConstantsAreDerivedFromThePolynomial() {
        var constants = [UInt64](repeating: 0, count: 4)
        constants.withUnsafeMutableBufferPointer { _crc32_fold_constants($0.baseAddress) }
        // Four lanes 512 bits apart, then one lane 128 bits on; one less
        // than each distance because a reflected product comes out a bit short.
        #expect(constants == [575, 511, 191, 127].map(Self.foldConstant))
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
                let table = bytes.baseAddress.map { ~CRC32._tableRegister(~0, $0, length) } ?? 0
                #expect(CRC32.checksum(bytes) == expected, "length \(length) at \(start)")
                #expect(table == expected, "length \(length) at \(start)")
                let seed = UInt32(truncatingIfNeeded: generator.next())
                let continued = bytes.baseAddress.map { ~CRC32._tableRegister(~seed, $0, length) } ?? seed
                #expect(CRC32.update(seed, bytes) == continued, "length \(length) at \(start), from \(seed)")
            }
        }
    }

    @Test func theFoldAloneIsRightWhereTheCPUHasIt() throws {
        try #require(_foldAvailable || !Self.expectsFolding, "this x86_64 CPU should have PCLMULQDQ")
        guard _foldAvailable else { return }
        var generator = SplitMix64(seed: 64)
        for length in [64, 65, 79, 80, 127, 128, 129, 200, 1000, 4096] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var lane = [UInt8](repeating: 0, count: 16)
            let folded = lane.withUnsafeMutableBufferPointer { out in
                bytes.withUnsafeBufferPointer { _crc32_fold(~0, $0.baseAddress, length, out.baseAddress) }
            }
            #expect(folded == length - length % 16, "length \(length)")
            let register = lane.withUnsafeBytes { raw in raw.baseAddress.map { CRC32._tableRegister(0, $0, 16) } } ?? 0
            let tail = bytes.withUnsafeBytes { raw in
                raw.baseAddress.map { CRC32._tableRegister(register, $0 + folded, length - folded) }
            }
            #expect(tail.map { ~$0 } == AWSEventStreamReference.crc32(bytes[...]), "length \(length)")
        }
        #expect(bytes63Folds() == 0)
    }

    /// Fewer than 64 bytes are left to the tables.
    func bytes63Folds() -> Int {
        let bytes = [UInt8](repeating: 0xA5, count: 63)
        var lane = [UInt8](repeating: 0, count: 16)
        return lane.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { _crc32_fold(0, $0.baseAddress, 63, out.baseAddress) }
        }
    }

    #if arch(x86_64)
    static let expectsFolding = true
    #else
    static let expectsFolding = false
    #endif
}
