// Buffered writes to stdout/stderr. Commands print many small lines (one per
// event or per prefix); going through `print` per line costs a lock and a
// flush decision each time, so lines are collected and written in blocks.

import ClaudeStreaming
import CommandLineDisplay
import IncrementalJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum CLIOutput {
    /// Writes `text` and a line feed to stderr, through ``TerminalText``
    /// (`.lines`): error texts quote server words (an API error's type and
    /// message, a tool name, an id), and stderr is usually a terminal.
    static func standardError(_ text: String) {
        var line = TerminalText.sanitized(text, layout: .lines)
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
    /// Lines of JSON bound for a terminal: ``write(bytes:)`` passes them
    /// through ``TerminalText/sanitized(jsonLines:)`` (same values, no DEL or
    /// C1 control left raw). Off for a pipe or a file, which get the bytes
    /// exactly.
    private let escapesJSONForTerminal: Bool
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32, jsonLinesForTerminal: Bool = false) {
        self.fileDescriptor = fileDescriptor
        escapesJSONForTerminal = jsonLinesForTerminal && isatty(fileDescriptor) == 1
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(bytes: some Sequence<UInt8>) {
        if escapesJSONForTerminal {
            let start = buffer.count
            buffer.append(contentsOf: bytes)
            let escaped = buffer.withUnsafeBufferPointer { all in
                TerminalText.sanitized(jsonLines: UnsafeBufferPointer(rebasing: all[start...]))
            }
            if let escaped { buffer.replaceSubrange(start..., with: escaped) }
        } else {
            buffer.append(contentsOf: bytes)
        }
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
