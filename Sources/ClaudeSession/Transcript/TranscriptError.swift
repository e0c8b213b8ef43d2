public import ClaudeTransport
public import IncrementalJSON

/// Why transcript bytes could not be read or written, and where.
public struct TranscriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The bytes are not one JSON text (the error has the byte offset).
        case notJSON(JSONParseError)
        /// The JSON is not a request body this reads (the error names the field).
        case notARequestBody(RequestBodyError)
        /// The `session_metadata` key (``SessionTranscript/metadataKey``) is malformed at `path`.
        case invalidMetadata(path: String, reason: String)
        /// The messages break the API's tool rules (the error names the turn).
        case breaksToolRules(RequestError)
        /// Writing would nest deeper than ``SessionTranscript/maxDepth``, which
        /// the reader refuses: nothing is written.
        case tooDeep(depth: Int, offset: Int)
        /// Writing would exceed ``SessionTranscript/maxBytes``, which the reader refuses.
        case tooLarge(bytes: Int)
        /// The setup cannot be written as API JSON.
        case unwritableSetup(RequestError)
    }

    /// What went wrong.
    public var kind: Kind

    /// An error of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// The byte offset in the input, where the failure has one.
    public var offset: Int? {
        switch kind {
        case .notJSON(let error): error.offset
        case .tooDeep(_, let offset): offset
        default: nil
        }
    }

    public var description: String {
        switch kind {
        case .notJSON(let error): "the transcript is not JSON: \(error)"
        case .notARequestBody(let error): "the transcript is not a request body: \(error)"
        case .invalidMetadata(let path, let reason): "\(SessionTranscript.metadataKey)\(path): \(reason)"
        case .breaksToolRules(let error): "the transcript breaks the API's tool rules: \(error)"
        case .tooDeep(let depth, let offset):
            "the transcript would nest \(depth) levels deep at byte \(offset), deeper than the \(SessionTranscript.maxDepth) a transcript may"
        case .tooLarge(let bytes): "the transcript would be \(bytes) bytes, more than the \(SessionTranscript.maxBytes) a transcript may"
        case .unwritableSetup(let error): "the transcript's setup cannot be written: \(error)"
        }
    }
}
