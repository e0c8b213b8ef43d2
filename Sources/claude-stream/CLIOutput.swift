// Buffered writes to stdout/stderr. Commands print many small lines (one per
// event or per prefix); going through `print` per line costs a lock and a
// flush decision each time, so lines are collected and written in blocks.

import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum CLIOutput {
    static func standardError(_ text: String) {
        var line = text
        if !line.hasSuffix("\n") { line += "\n" }
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    static func standardOutput(_ text: String) {
        var writer = OutputWriter(fileDescriptor: 1)
        writer.write(text)
        if !text.hasSuffix("\n") { writer.write("\n") }
        writer.flush()
    }
}

/// Collects output bytes and writes them to a file descriptor in large blocks.
struct OutputWriter {
    let fileDescriptor: Int32
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// The value as compact JSON and a newline, encoded straight into the
    /// buffer (a 16 MiB tool input is not first made a String, then copied).
    /// The buffer is written out whenever it holds 64 KiB, also inside a
    /// long string, so a message of any size passes through the one buffer.
    mutating func writeJSONLine(_ value: JSONValue) {
        let descriptor = fileDescriptor
        value.encodeCompact(into: &buffer, drainingAt: 1 << 16) { Self.writeAll(descriptor, &$0) }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        Self.writeAll(fileDescriptor, &buffer)
    }

    /// Writes `bytes` to `descriptor` and empties them.
    private static func writeAll(_ descriptor: Int32, _ bytes: inout [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, pointer, count)
}
