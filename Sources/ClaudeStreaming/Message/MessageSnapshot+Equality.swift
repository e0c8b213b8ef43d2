// When two snapshots are the same: when they say the same thing, not when
// they happen to be built the same way. A snapshot decoded from its Codable
// form is rebuilt from the message's API JSON, so its internal parts (the
// `message_start` object, which fields came from deltas, how blocks were
// split between settled and open storage) differ from the streamed one it
// was encoded from. Equality is therefore what the coded form holds: the
// message's API JSON, whether it is complete, which blocks are still open,
// and its place in the stream.

extension MessageSnapshot {
    /// True when both encode to the same message: equal API JSON
    /// (``messageJSON()``), completeness, open blocks and message index.
    ///
    /// - Complexity: O(1) for two copies of one snapshot; otherwise
    ///   O(size of the messages).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.isComplete == rhs.isComplete, lhs.messageIndex == rhs.messageIndex,
            lhs.content.count == rhs.content.count
        else { return false }
        if lhs.header === rhs.header && lhs.content == rhs.content { return true }
        return lhs.openBlocks == rhs.openBlocks && lhs.messageJSON() == rhs.messageJSON()
    }

    /// Hashes what ``==(_:_:)`` compares.
    ///
    /// - Complexity: O(size of the message).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isComplete)
        hasher.combine(messageIndex)
        hasher.combine(messageJSON())
    }

    /// Indices of the blocks still streaming.
    var openBlocks: [Int] { content.indices.filter { !content[$0].isComplete } }
}
