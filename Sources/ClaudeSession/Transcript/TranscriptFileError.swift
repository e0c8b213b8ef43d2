#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``TranscriptFile`` could not be read or written, with its path.
///
/// The description is one sentence that names the file and the step, with
/// the system's reason (`strerror`) where there is one, for example
/// `cannot write the transcript /tmp/t.json: creating a temporary file in /tmp failed: Permission denied`.
public struct TranscriptFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step of a write that failed.
    public enum WriteStep: Sendable, Hashable {
        /// Creating the temporary file beside the target, in `directory`.
        case createTemporary(directory: String)
        /// Writing, fsyncing or closing the temporary file.
        case write
        /// Renaming the temporary file over the target.
        case rename
    }

    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The file exists but cannot be opened or read (`errno` says why).
        case cannotRead(errno: Int32)
        /// The path names a directory, a device or another file that is not regular.
        case notARegularFile
        /// The file has more than ``SessionTranscript/maxBytes`` bytes.
        case tooLarge(bytes: Int)
        /// The bytes are not a transcript or request body (the error has the offset or field).
        case invalid(TranscriptError)
        /// The transcript cannot be written as JSON; the file was not touched.
        case unwritable(TranscriptError)
        /// A write failed at `step` (`errno` says why); the target is unchanged.
        case cannotWrite(step: WriteStep, errno: Int32)
        /// The symlinks at the path nest more than 40 levels, or loop.
        case tooManySymbolicLinks
    }

    /// The file's path, as given to ``TranscriptFile``.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// An error of `kind` for the file at `path`.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// Whether the failure was reading (the file is left as it is) rather than writing.
    public var isReadFailure: Bool {
        switch kind {
        case .cannotRead, .notARegularFile, .tooLarge, .invalid: true
        case .unwritable, .cannotWrite, .tooManySymbolicLinks: false
        }
    }

    /// The failure as one sentence with the path.
    public var description: String {
        switch kind {
        case .cannotRead(let code): "cannot read \(path): \(Self.reason(code))"
        case .notARegularFile: "cannot read \(path): not a regular file"
        case .tooLarge(let bytes): "\(path) is too large: \(bytes) bytes, more than the \(SessionTranscript.maxBytes) a transcript may have"
        case .invalid(let error): "\(path) is not a transcript (a request body): \(error)"
        case .unwritable(let error): "cannot write the transcript \(path): \(error); the file was left as it is"
        case .cannotWrite(let step, let code):
            switch step {
            case .createTemporary(let directory):
                "cannot write the transcript \(path): creating a temporary file in \(directory) failed: \(Self.reason(code))"
            case .write: "cannot write the transcript \(path): writing the temporary file failed: \(Self.reason(code))"
            case .rename: "cannot write the transcript \(path): replacing the file failed: \(Self.reason(code))"
            }
        case .tooManySymbolicLinks: "cannot write the transcript \(path): too many levels of symbolic links"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
