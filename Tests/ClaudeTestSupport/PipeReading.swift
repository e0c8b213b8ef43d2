// Reading a child's pipe to its end, whatever signals arrive meanwhile.
//
// Foundation's `readDataToEndOfFile()` traps (a `try!` inside Foundation)
// when a `read` is interrupted by a signal (EINTR), and a test process
// that runs children gets signals. This reads the descriptor itself and
// reads again when interrupted.

import Foundation

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

extension FileHandle {
    /// Every byte up to the end of the file or pipe, read again after an
    /// interruption; what was read before an error, on any other error.
    ///
    /// - Complexity: O(bytes read).
    package func readToEndRetryingInterruptions() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}
