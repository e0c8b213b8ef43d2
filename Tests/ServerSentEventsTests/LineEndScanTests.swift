// The line-end scan in C (`_scan_line_end`, which the usual-block read
// finds both line ends with) against a byte-by-byte oracle, on the path
// this CPU takes and on the byte loop, at every start in buffers of every
// length 0…64 and a few longer ones: line ends fall on every window
// boundary, in the first 32 bytes, in the 64-byte steps and in the last
// window that ends at the buffer's end. Buffers are allocated at exactly
// their length, so a load past the end shows under AddressSanitizer.

import Testing
import _ScanAcceleration

@Suite struct LineEndScanTests {
    typealias Scan = (UnsafePointer<UInt8>, Int, Int) -> Int

    static func oracle(_ bytes: [UInt8], from i: Int) -> Int {
        bytes[i...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
    }

    /// Checks both paths at every start in `bytes`.
    static func check(_ bytes: [UInt8], _ comment: @autoclosure () -> String) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        defer { buffer.deallocate() }
        buffer.initialize(from: bytes, count: bytes.count)
        for i in 0...bytes.count {
            let expected = oracle(bytes, from: i)
            #expect(_scan_line_end(buffer, i, bytes.count) == expected, "vector, from \(i): \(comment())")
            #expect(_scan_line_end_bytes(buffer, i, bytes.count) == expected, "bytes, from \(i): \(comment())")
        }
    }

    static let lengths = Array(0...64) + [65, 79, 95, 96, 97, 127, 128, 129, 150, 200]

    @Test func noLineEnd() {
        // Bytes next to LF and CR, and the same with the high bit set, are not line ends.
        let filler: [UInt8] = [0x61, 0x09, 0x0B, 0x0C, 0x0E, 0x8A, 0x8D, 0x00, 0xFF]
        for n in Self.lengths {
            Self.check((0..<n).map { filler[$0 % filler.count] }, "length \(n), none")
        }
    }

    @Test(arguments: [UInt8(0x0A), 0x0D])
    func oneLineEndAtEveryPosition(end: UInt8) {
        for n in Self.lengths where n > 0 {
            for k in 0..<n {
                var bytes = [UInt8](repeating: 0x61, count: n)
                bytes[k] = end
                Self.check(bytes, "length \(n), \(end) at \(k)")
            }
        }
    }

    @Test func twoLineEnds() {
        // A CR before an LF, and an LF before a CR, in every pair of positions of short buffers.
        for n in 2...48 {
            for k in 0..<n {
                for l in (k + 1)..<n {
                    var bytes = [UInt8](repeating: 0x20, count: n)
                    bytes[k] = 0x0D
                    bytes[l] = 0x0A
                    Self.check(bytes, "length \(n), CR at \(k), LF at \(l)")
                    bytes[k] = 0x0A
                    bytes[l] = 0x0D
                    Self.check(bytes, "length \(n), LF at \(k), CR at \(l)")
                }
            }
        }
    }

    @Test func randomBytes() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for round in 0..<200 {
            let n = Int(next() % 300)
            // Sparse line ends: one byte in 64 on average.
            let bytes = (0..<n).map { _ -> UInt8 in
                let r = next()
                return r % 64 == 0 ? (r & 64 == 0 ? 0x0A : 0x0D) : UInt8(truncatingIfNeeded: r >> 8) | 0x10
            }
            Self.check(bytes, "round \(round), length \(n)")
        }
    }
}
