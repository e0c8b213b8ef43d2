// ParseCheckpoint: the parser at one point of a streamed input, from which
// the partial value at any later point is replayed.
//
// Design
// ------
// A caller that holds a snapshot after every feed used to hold an open path
// each (two words a level), more memory than the input those paths stood
// for. A checkpoint path is shared instead by every snapshot of a stretch of
// input (OpenRoot.swift): it keeps a copy of the parser as it was, and a
// snapshot's value is found by feeding a copy of that copy the bytes between
// the checkpoint and the snapshot's end, which the snapshot holds anyway.
//
// The replay does not write the document again. A parser is deterministic,
// and chunking does not change what it writes (only when), so from the same
// state over the same bytes it would append the very nodes and bytes that
// the live parser already appended to the storages they share. It steps
// over them instead (`replaying`, `AppendOnlyArray._skipAppended`): its
// counts move, nothing is written or copied, and the value it ends with
// reads the live parser's storages, as the value of any snapshot does.
// When the live parser replaced a storage since the checkpoint (a growth
// that moved it, a new column), the new storage holds the old one's
// elements as its prefix, so the replay goes on in the storages of the
// snapshot's path instead (`rebase`): the live parser publishes a new
// path with the same checkpoint when its storages change. After `span`
// bytes it takes a new checkpoint, which bounds a replay.
//
// Worked example. A tool input streams in 40-byte deltas and the caller
// keeps every snapshot. At byte 8,200 the parser takes a checkpoint: a
// copy of itself, and the path at that moment. The snapshots at bytes
// 8,240, 8,280, ... share that path. Reading the snapshot at 8,280 copies
// the checkpoint's parser and feeds it bytes 8,200..<8,280 of the
// snapshot's text: it steps over the nodes and string bytes the live parser
// wrote for them and ends with the path at 8,280, in the same storages.
// Memory: one checkpoint per span of input rather than a path per delta.

/// The parser as it was at one point of its input (see the file comment).
final class ParseCheckpoint: Sendable {
    /// A copy of the live parser when this was taken.
    let parser: IncrementalJSONParser
    /// How many bytes of its holder's streamed text the parser had read:
    /// the text's count when this was taken.
    let streamedCount: Int

    /// The input a checkpoint spans before the parser takes the next: a
    /// replay reads at most this many bytes.
    static let defaultSpan = 8192

    init(parser: IncrementalJSONParser, streamedCount: Int) {
        self.parser = parser
        self.streamedCount = streamedCount
    }

    /// Whether a snapshot with `streamedCount` bytes of text may share
    /// this checkpoint: at most `span` bytes past it.
    func covers(streamedCount: Int, span: Int) -> Bool {
        streamedCount >= self.streamedCount && streamedCount - self.streamedCount <= span
    }

    /// The value after the parser read `streamed` (its holder's text, of
    /// which it had read `streamedCount` bytes here), reading `storages`,
    /// the live parser's when the snapshot's path was taken; nil when
    /// `streamed` ends here (the checkpoint's own path is the value).
    ///
    /// - Complexity: O(`streamed.count - streamedCount`).
    func replayedValue(through streamed: AppendOnlyText, in storages: DocumentStorages?) -> JSONValue? {
        replayed(through: streamed, in: storages)?.value
    }

    /// The root after the parser read `streamed`, as an exact path of its
    /// own (also when `streamed` ends here).
    func replayedRoot(through streamed: AppendOnlyText, in storages: DocumentStorages?) -> OpenRoot? {
        streamed.utf8Count == streamedCount ? parser.openRoot : replayed(through: streamed, in: storages)?.openRoot
    }

    /// The parser after `streamed`'s bytes past this checkpoint.
    private func replayed(through streamed: AppendOnlyText, in storages: DocumentStorages?) -> IncrementalJSONParser? {
        guard streamed.utf8Count > streamedCount else { return nil }
        var replay = parser
        replay.replaying = true
        if let storages { replay.rebase(onto: storages) }
        let start = streamedCount
        let read: Bool = streamed.withUTF8 { text in
            guard let base = text.baseAddress, start < text.count else { return false }
            do throws(JSONParseError) {
                try replay.feed(UnsafeRawBufferPointer(start: base + start, count: text.count - start))
                return true
            } catch {
                return false
            }
        }
        // The live parser read these bytes without an error, so its replay
        // does too. Were it ever to differ, the value is read again from
        // the start of the parser's input, as a fresh parse: slow, not wrong.
        if read && replay.failure == nil { return replay }
        return reparsed(streamed)
    }

    /// The parser after reading `streamed` from where the live parser began.
    private func reparsed(_ streamed: AppendOnlyText) -> IncrementalJSONParser? {
        let begin = streamedCount - parser.bytesConsumed
        guard begin >= 0 && begin <= streamed.utf8Count else { return nil }
        var fresh = IncrementalJSONParser(options: parser.options)
        let read: Bool = streamed.withUTF8 { text in
            guard let base = text.baseAddress else { return false }
            do throws(JSONParseError) {
                try fresh.feed(UnsafeRawBufferPointer(start: base + begin, count: text.count - begin))
                return true
            } catch {
                return false
            }
        }
        return read ? fresh : nil
    }
}

extension IncrementalJSONParser {
    /// Goes on in `storages`, the storages of this parser's document at a
    /// later moment, as the live parser left them (see the file comment);
    /// a storage that does not hold this parser's elements is left as it
    /// is, and the replay then forks a copy of it: slower, not wrong.
    ///
    /// - Complexity: O(depth).
    mutating func rebase(onto storages: DocumentStorages) {
        guard !_isSameObject(nodeReader.storages, storages), storages.depth >= nodeColumns.count else { return }
        var rebased = true
        for depth in 0..<storages.depth {
            let owner = storages.column(depth)?.owner
            if depth < nodeColumns.count {
                rebased = nodeColumns[depth]._rebase(onto: owner) && rebased
            } else {
                var column = AppendOnlyArray<Node>()
                rebased = column._rebase(onto: owner) && rebased
                nodeColumns.append(column)
            }
        }
        rebased = chunkBytes._rebase(onto: storages.bytes) && rebased
        // Values read the storages they were made with: these, when every
        // one was taken up; else the next feed names them anew.
        if rebased { nodeReader = NodeReader(storages: storages) } else { columnsMoved = true }
    }
}
