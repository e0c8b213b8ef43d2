// How streaming text and JSON grow inside a block.
//
// The bytes of text, thinking, tool input and structured text deltas go to
// the message's live block (StreamingBlocks.swift), JSON once through the
// block's incremental parser; these are the block's side of it: what it
// streams, and taking back the live state. Nothing is ever re-parsed from
// the start. Input that turns out not to be JSON records the error on the
// block and stops parsing; the raw text keeps growing.

import IncrementalJSON

extension ContentBlock {
    /// The text this block streams as `kind`, and whether its JSON still
    /// parses; nil when the block does not stream that kind.
    func streamedText(_ kind: LiveKind) -> (text: AppendOnlyText, parses: Bool)? {
        switch (kind, self) {
        case (.text, .text(let b)): (b.text, false)
        case (.structuredText, .text(let b)): (b.text, b.structuredError == nil)
        case (.thinking, .thinking(let b)): (b.thinking, false)
        case (.toolInput, .toolUse(let b)): (b.inputJSON, b.inputError == nil)
        default: nil
        }
    }

    /// Takes back the state its live copy streamed: the bytes from `start`
    /// on (a slice when blocks before it share the storage), and the
    /// partial value when a delta changed it.
    ///
    /// The block is consumed and rebuilt: a payload copied out of `self`
    /// would retain each of its references, and the old value release them.
    mutating func adoptLive(_ kind: LiveKind, _ bytes: AppendOnlyArray<UInt8>, from start: Int, _ value: OpenRoot?) {
        let text =
            start == 0
            ? AppendOnlyText(_sharing: bytes)
            : AppendOnlyText(_slice: bytes._storage, start: start, count: bytes.count &- start)
        switch consume self {
        case .text(var b) where kind == .text || kind == .structuredText:
            b.text = text
            if let value { b.structuredValue = value.value(streamed: text) }  // structured text only
            self = .text(b)
        case .thinking(var b) where kind == .thinking:
            b.thinking = text
            self = .thinking(b)
        case .toolUse(var b) where kind == .toolInput:
            b.inputJSON = text
            if let value { b.input = value.value(streamed: text) }
            self = .toolUse(b)
        case let other:
            self = other
        }
    }

    /// Sets the partial value of a tool input or structured text block, or
    /// records that its text is not valid JSON.
    mutating func setParsedJSON(_ outcome: Result<JSONValue, JSONParseError>) {
        switch self {
        case .text(var b):
            switch outcome {
            case .success(let value): b.structuredValue = value
            case .failure(let error): b.structuredError = error
            }
            self = .text(b)
        case .toolUse(var b):
            switch outcome {
            case .success(let value): b.input = value
            case .failure(let error): b.inputError = error
            }
            self = .toolUse(b)
        default:
            break
        }
    }
}
