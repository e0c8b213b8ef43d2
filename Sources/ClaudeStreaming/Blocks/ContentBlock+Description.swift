// One-line readable forms of content blocks: the block's type, its size or
// its call (each kind's `detail`), and whether it is still streaming. Long text is
// counted, not printed; a tool input is shown cut to 60 characters.

extension ContentBlock: CustomStringConvertible, CustomDebugStringConvertible {
    /// `text(42 chars, 1 citation)`, `tool_use get_weather(toolu_1) {"city":"Par…" (streaming)`, ….
    public var description: String {
        "\(type)(\(visit(Detail()))\(isComplete ? "" : ", streaming"))"
    }

    public var debugDescription: String { description }
}
