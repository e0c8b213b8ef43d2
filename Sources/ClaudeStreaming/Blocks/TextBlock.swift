// A `text` block: its text, its citations, and (for structured output) the
// JSON value the text is building. The text itself streams live
// (Accumulation/StreamingBlocks.swift); `citations_delta` is its one
// non-hot delta.

public import IncrementalJSON

/// A text block: text, its citations, and (when the caller asked for it)
/// the JSON value the text is building up (structured output).
public struct TextBlock: Sendable, Hashable {
    /// The `content_block_start` JSON (or the block's entry in `message_start`), verbatim.
    public var start: JSONValue
    /// The text so far: `start`'s `text` followed by every `text_delta`.
    /// Read its bytes with `withUTF8` (never a copy): while a caller holds
    /// snapshots, it may be a slice of storage shared with the blocks
    /// before it, which `utf8` copies out.
    public internal(set) var text: AppendOnlyText
    /// Citations from `start` followed by every `citations_delta`, in order.
    public internal(set) var citations: AppendOnlyArray<Citation>
    /// True when `citations_delta`s arrived (the block's JSON then carries the list).
    public internal(set) var hasCitationDeltas: Bool
    /// The partial value parsed from the text so far, when this block was
    /// selected for structured output (``MessageAccumulatorOptions/structuredOutput``).
    public internal(set) var structuredValue: JSONValue?
    /// Why the text is not valid JSON, when it was selected and turned out not to be.
    public internal(set) var structuredError: JSONParseError?
    /// False until the block's `content_block_stop` arrived.
    public internal(set) var isComplete: Bool
}

extension TextBlock: ContentBlockKind {
    static let types: Set<String> = ["text"]
    static let deltas: [String: Delta<Self>] = ["citations_delta": Delta(addCitation)]

    init(_start start: JSONValue, type: String, isComplete: Bool) {
        var citations = AppendOnlyArray<Citation>()
        if let list = start["citations"]?.arrayValue {
            for item in list { citations.append(Citation(json: item)) }
        }
        self.init(
            start: start, text: AppendOnlyText(start["text"]?.stringValue ?? ""),
            citations: citations, hasCitationDeltas: false,
            structuredValue: nil, structuredError: nil, isComplete: isComplete)
    }

    var apiType: String { "text" }
    var wrapped: ContentBlock { .text(self) }

    private static func addCitation(_ block: inout TextBlock, _ delta: JSONValue) {
        block.citations.append(Citation(json: delta["citation"] ?? .null))
        block.hasCitationDeltas = true
    }

    mutating func finishStreaming(parser: IncrementalJSONParser?) {
        guard structuredError == nil, var active = parser else { return }
        do throws(JSONParseError) {
            structuredValue = try active.finish()
        } catch {
            structuredError = error
        }
    }

    var blockJSON: JSONValue {
        // The text's own bytes, shared: they are valid UTF-8 (every delta
        // came through the JSON scanner or parser, the start's text is a
        // String), so encoding them writes what decoding them to a String
        // first would, without the decode and the copy.
        var fields: [(String, JSONValue)] = [("text", JSONValue(.string(text)))]
        // Streamed fields are written over the start object only when
        // they differ from what it already says: a start with the key
        // twice (different values, the last one counting) then encodes
        // the same before and after a round trip through this JSON.
        if hasCitationDeltas {
            let citations = JSONValue.array(citations.map(\.json))
            if start["citations"] != citations { fields.append(("citations", citations)) }
        }
        return start.replacingFields(fields)
    }

    var detail: String {
        "\(text.string.count) chars"
            + (citations.isEmpty ? "" : ", \(citations.count) citation\(citations.count == 1 ? "" : "s")")
            + (structuredError.map { ", not JSON: \($0)" } ?? "")
    }
}
