// Errors of the JSON parser: where (absolute byte offset in the whole input,
// across all chunks) and what. The offset is that of the first byte that made
// the input invalid, or the input length for an unexpected end.

/// Why and where a JSON text is invalid.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// A byte that cannot appear here (outside a string).
        case unexpectedByte(UInt8)
        /// The input ended before the value did (or held no value).
        case unexpectedEnd
        /// A byte sequence inside a string that is not valid UTF-8 (including
        /// overlong forms, UTF-8-encoded surrogates and values above U+10FFFF).
        case invalidUTF8
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\uD800`–`\uDFFF` escape that is not part of a high-low pair.
        case loneSurrogate
        /// A raw control character (U+0000–U+001F) inside a string.
        case controlCharacter(UInt8)
        /// A number that breaks the grammar (`-`, `1.`, `01`, `1e`).
        case invalidNumber
        /// Containers nested deeper than the limit.
        case depthLimitExceeded(Int)
        /// More input than `maxBytes`.
        case sizeLimitExceeded(Int)
        /// A string longer (in UTF-8 bytes) than `maxStringBytes`.
        case stringLimitExceeded(Int)
        /// Something other than whitespace after the complete top-level value.
        case trailingContent
    }

    /// Byte offset in the whole input.
    public var offset: Int
    /// What is wrong there.
    public var reason: Reason

    /// An error at byte `offset` of the whole input.
    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// `offset N: <reason>`.
    public var description: String { "offset \(offset): \(reason)" }
}

extension JSONParseError.Reason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unexpectedByte(let b): "unexpected byte \(describe(b))"
        case .unexpectedEnd: "unexpected end of input"
        case .invalidUTF8: "invalid UTF-8"
        case .invalidEscape: "invalid escape sequence"
        case .loneSurrogate: "unpaired UTF-16 surrogate escape"
        case .controlCharacter(let b): "unescaped control character \(describe(b)) in string"
        case .invalidNumber: "invalid number"
        case .depthLimitExceeded(let limit): "nesting deeper than \(limit)"
        case .sizeLimitExceeded(let limit): "input longer than \(limit) bytes"
        case .stringLimitExceeded(let limit): "string longer than \(limit) bytes"
        case .trailingContent: "content after the JSON value"
        }
    }
}

private func describe(_ b: UInt8) -> String {
    let hex = "0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))' (\(hex))" }
    return hex
}
