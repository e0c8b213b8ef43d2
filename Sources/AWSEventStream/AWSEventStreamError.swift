/// Why the bytes are not a valid AWS event stream.
///
/// After an `AWSEventStreamError` the parser is unusable: every later `feed`
/// throws the same error again (the stream is no longer framed in a known place).
public struct AWSEventStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the bytes at ``offset``.
    public enum Reason: Sendable, Hashable {
        /// The prelude's CRC (bytes 8..<12) does not match its first 8 bytes.
        case preludeChecksumMismatch(declared: UInt32, computed: UInt32)
        /// The message's trailing CRC does not match its bytes.
        case messageChecksumMismatch(declared: UInt32, computed: UInt32)
        /// The total length is below the 16 bytes of prelude and trailing CRC.
        case totalLengthTooSmall(Int)
        /// The headers length does not fit inside the declared total length.
        case headersLengthTooLarge(headers: Int, total: Int)
        /// The message is larger than ``AWSEventStreamLimits/maxMessageBytes``.
        case messageTooLarge(length: Int, limit: Int)
        /// The header block is larger than ``AWSEventStreamLimits/maxHeaderBytes``.
        case headersTooLarge(length: Int, limit: Int)
        /// A header has a zero-length name.
        case emptyHeaderName
        /// A header's name or value runs past the end of the header block.
        case headerOverrun
        /// A header value type byte outside 0...9.
        case unknownHeaderValueType(UInt8)
        /// The stream ended inside a message (`missing` more bytes were declared).
        case truncatedMessage(missing: Int)
    }

    /// What is wrong.
    public var reason: Reason
    /// Byte offset in the whole stream of the faulty field (for a checksum,
    /// the CRC field; for a header, the header's first byte; for a
    /// truncated message, the message's first byte).
    public var offset: Int

    /// An error for `reason` at the stream offset `offset`.
    public init(reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `offset N: ` and the reason in words, e.g.
    /// `offset 57: header runs past the end of the header block`.
    public var description: String {
        "offset \(offset): "
            + {
                switch reason {
                case .preludeChecksumMismatch(let declared, let computed):
                    "prelude CRC \(hexText(declared)) does not match computed \(hexText(computed))"
                case .messageChecksumMismatch(let declared, let computed):
                    "message CRC \(hexText(declared)) does not match computed \(hexText(computed))"
                case .totalLengthTooSmall(let total): "total length \(total) is below the 16-byte minimum"
                case .headersLengthTooLarge(let headers, let total):
                    "headers length \(headers) does not fit in a message of \(total) bytes"
                case .messageTooLarge(let length, let limit): "message of \(length) bytes exceeds the \(limit)-byte limit"
                case .headersTooLarge(let length, let limit): "headers of \(length) bytes exceed the \(limit)-byte limit"
                case .emptyHeaderName: "header with an empty name"
                case .headerOverrun: "header runs past the end of the header block"
                case .unknownHeaderValueType(let type): "unknown header value type \(type)"
                case .truncatedMessage(let missing): "stream ended \(missing) bytes before the end of the message"
                }
            }()
    }
}

func hexText(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
