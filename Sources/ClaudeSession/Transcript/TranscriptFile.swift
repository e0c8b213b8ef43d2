public import ClaudeTransport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A conversation is private and must never be lost, so the file is:
//
//   * created 0600 when new; an existing file keeps its mode;
//   * written through a symlink: the link's final target is replaced, the
//     link stays a link;
//   * replaced, never rewritten in place: the new bytes go to a temporary
//     file beside the target, created with O_EXCL and mode 0600, written,
//     fsynced and renamed over the target (atomic on one file system), then
//     the directory is fsynced; on every failure the temporary file is
//     removed, and `removeUnfinishedTemporaryFiles()` removes it for an exit
//     that cannot wait;
//   * read whole, and only when it is a regular file within
//     `SessionTranscript.maxBytes`. Nothing here writes a file that failed
//     to read: a caller that stops at the error leaves it as it is.

/// The file a ``SessionTranscript`` is saved in: private, replaced
/// atomically, written through symlinks.
///
/// ```swift
/// let file = TranscriptFile(path: "conversation.json")
/// let transcript = try file.read() ?? SessionTranscript(setup: setup)
/// // … after every complete round (SessionConfiguration.onRoundCompleted):
/// try file.write(session.transcript)
/// ```
///
/// A new file is created with mode 0600 and an existing one keeps its
/// mode. A write goes to a temporary file beside the target (O_EXCL, 0600),
/// is fsynced and renamed over it, so a reader or a crash sees the old
/// conversation or the new one, never a mix.
public struct TranscriptFile: Sendable, Hashable {
    /// The file's path, as given (a symlink is resolved at each write).
    public var path: String

    /// The file at `path`.
    public init(path: String) { self.path = path }

    /// The transcript in the file, or nil when there is no such file (a
    /// dangling link included) or it holds only whitespace.
    ///
    /// - Parameters:
    ///   - resolveModel: the model (and capabilities) a `model` string names.
    ///   - defaultModel: the model of a body without `model` (nil: such a body is not a transcript).
    /// - Throws: ``TranscriptFileError`` with the path: the file cannot be
    ///   read, is not a regular file, is too large, or is not a transcript
    ///   (``TranscriptFileError/Kind/invalid(_:)``, with the byte offset or field).
    /// - Complexity: O(size of the file).
    public func read(
        resolveModel: (String) -> ClaudeModel = ClaudeModel.resolving, defaultModel: ClaudeModel? = nil
    ) throws(TranscriptFileError) -> SessionTranscript? {
        guard let bytes = try readBytes(), !bytes.allSatisfy(Self.isWhitespace) else { return nil }
        do throws(TranscriptError) {
            return try SessionTranscript(jsonBytes: bytes, resolveModel: resolveModel, defaultModel: defaultModel)
        } catch {
            throw TranscriptFileError(path: path, kind: .invalid(error))
        }
    }

    /// The file's bytes, or nil when there is no such file (a dangling link included).
    ///
    /// - Throws: ``TranscriptFileError``: ``TranscriptFileError/Kind/cannotRead(errno:)``,
    ///   ``TranscriptFileError/Kind/notARegularFile`` or ``TranscriptFileError/Kind/tooLarge(bytes:)``
    ///   (more than ``SessionTranscript/maxBytes``).
    /// - Complexity: O(size of the file).
    public func readBytes() throws(TranscriptFileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure(.cannotRead(errno: errno))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(.cannotRead(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw failure(.notARegularFile) }
        let limit = SessionTranscript.maxBytes
        guard Int(info.st_size) <= limit else { throw failure(.tooLarge(bytes: Int(info.st_size))) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = retryingInterruptions { buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) } }
            if count == 0 { break }
            if count < 0 { throw failure(.cannotRead(errno: errno)) }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { throw failure(.tooLarge(bytes: bytes.count)) }
        }
        return bytes
    }

    /// Replaces the file with `transcript`'s JSON (``SessionTranscript/jsonBytes()``),
    /// which ``read(resolveModel:defaultModel:)`` always reads back.
    ///
    /// - Throws: ``TranscriptFileError``: ``TranscriptFileError/Kind/unwritable(_:)``
    ///   when the transcript cannot be written as JSON (the file is left as
    ///   it is), else as ``replace(with:)``.
    /// - Complexity: O(size of the transcript).
    public func write(_ transcript: SessionTranscript) throws(TranscriptFileError) {
        let bytes: [UInt8]
        do throws(TranscriptError) { bytes = try transcript.jsonBytes() } catch {
            throw failure(.unwritable(error))
        }
        try replace(with: bytes)
    }

    /// Replaces the file's content with `bytes`, atomically: through any
    /// symlinks, keeping an existing file's mode (0600 for a new one).
    ///
    /// - Throws: ``TranscriptFileError/Kind/cannotWrite(step:errno:)`` naming
    ///   the step that failed, or ``TranscriptFileError/Kind/tooManySymbolicLinks``;
    ///   the target is then unchanged and no temporary file is left.
    /// - Complexity: O(`bytes.count`).
    public func replace(with bytes: [UInt8]) throws(TranscriptFileError) {
        func cannot(_ step: TranscriptFileError.WriteStep) -> TranscriptFileError { failure(.cannotWrite(step: step, errno: errno)) }
        let target = try resolveLinks()
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
        guard fd >= 0 else { throw cannot(.createTemporary(directory: directory)) }
        Self.temporaries.withLock { _ = $0.insert(temporaryPath) }
        var done = false
        defer {
            if !done { unlink(temporaryPath) }
            Self.temporaries.withLock { _ = $0.remove(temporaryPath) }
        }
        var offset = 0
        while offset < bytes.count {
            let count = retryingInterruptions { bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) } }
            if count < 0 {
                let error = cannot(.write)
                close(fd)
                throw error
            }
            offset += count
        }
        guard fchmod(fd, mode) == 0, fsync(fd) == 0 else {
            let error = cannot(.write)
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw cannot(.write) }
        guard rename(temporaryPath, target) == 0 else { throw cannot(.rename) }
        done = true
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    // MARK: Exits that cannot wait

    /// The temporary files being written now, by every ``TranscriptFile``.
    private static let temporaries = Mutex<Set<String>>([])

    /// Removes the temporary file of every write still in progress, for an
    /// exit that cannot wait for it (a second Ctrl-C); the targets are
    /// unchanged.
    public static func removeUnfinishedTemporaryFiles() {
        for path in temporaries.withLock({ $0 }) { unlink(path) }
    }

    // MARK: Parts

    /// The file a chain of symlinks at `path` ends at (which may not exist yet).
    private func resolveLinks() throws(TranscriptFileError) -> String {
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
        throw failure(.tooManySymbolicLinks)
    }

    private func failure(_ kind: TranscriptFileError.Kind) -> TranscriptFileError { TranscriptFileError(path: path, kind: kind) }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}

// The C calls, which a member named `read` or `write` would shadow.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
