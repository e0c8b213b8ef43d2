// The file of `chat --transcript FILE`: read once at the start, replaced
// after every complete round. A conversation is private and must never be
// lost, so:
//
//   * a new file is created 0600; an existing file keeps its mode;
//   * a symlink is written through: its final target is replaced, the link
//     stays a link;
//   * the new text goes to a temporary file beside the target, created with
//     O_EXCL and mode 0600, written, fsynced, renamed over the target (atomic
//     on one file system) and the directory fsynced; on every failure the
//     temporary file is removed, and an exit that cannot wait (a second
//     Ctrl-C) removes it too;
//   * a file that exists but cannot be read exits 66 (one that is not a
//     conversation exits 65, ChatSetup), and neither is ever written; a
//     file that cannot be written exits 73. What is written is
//     SessionTranscript's text, which its reader always reads back.

import IncrementalJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum TranscriptFile {
    struct Failure: Error {
        var message: String
        /// 65 not a conversation, 66 cannot be read, 73 cannot be written.
        var status: Int32
    }

    /// Largest file read.
    static let maxBytes = 1 << 30

    /// The bytes of `path`; nil when it does not exist (a dangling link included).
    static func contents(_ path: String) throws(Failure) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))", status: 66)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))", status: 66) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(message: "cannot read \(path): not a regular file", status: 66) }
        guard Int(info.st_size) <= maxBytes else { throw Failure(message: "\(path) is larger than \(maxBytes) bytes", status: 65) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))", status: 66)
            }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > maxBytes { throw Failure(message: "\(path) is larger than \(maxBytes) bytes", status: 65) }
        }
        return bytes
    }

    // MARK: Writing

    /// The temporary file being written, removed by an exit that cannot wait.
    private static let temporary = Mutex<String?>(nil)

    /// Removes the temporary file if one is being written (for signal exits).
    static func removeTemporary() {
        if let path = temporary.withLock({ $0 }) { unlink(path) }
    }

    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        func failure(_ what: String) -> Failure {
            Failure(message: "cannot write the transcript \(path): \(what): \(String(cString: strerror(errno)))", status: 73)
        }
        let target = try resolveLinks(path)
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var info = stat()
        let mode: mode_t = stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o600

        var temporaryPath = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporaryPath = "\(directory)/.\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(directory)") }
        temporary.withLock { $0 = temporaryPath }
        var done = false
        defer {
            if !done { unlink(temporaryPath) }
            temporary.withLock { $0 = nil }
        }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure("writing failed")
                close(fd)
                throw error
            }
            offset += count
        }
        guard fchmod(fd, mode) == 0, fsync(fd) == 0 else {
            let error = failure("writing failed")
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw failure("writing failed") }
        guard rename(temporaryPath, target) == 0 else { throw failure("replacing the file failed") }
        done = true
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// The file a chain of symlinks at `path` ends at (which may not exist yet).
    static func resolveLinks(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        throw Failure(message: "cannot write the transcript \(path): too many levels of symbolic links", status: 73)
    }
}

// The C calls, which the enum's own `read` and `write` would shadow.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
