// Reading a command's whole input: a file, or standard input when no file is
// named. Commands work on the bytes in memory; the chunk plan then decides
// how they are fed, which is what the streaming core must not care about.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum InputFile {
    /// The bytes of `path`, or of standard input when `path` is nil.
    static func read(_ path: String?) throws(InputError) -> [UInt8] {
        let descriptor: Int32
        if let path {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw InputError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        } else {
            descriptor = 0
        }
        defer { if path != nil { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(message: "read failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }
}

struct InputError: Error {
    var message: String
}

/// `read(2)`, named apart from `InputFile.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
