// Publishing the partial value after each feed, for a holder that keeps one.
//
// A holder (a message snapshot's streaming tool input) publishes the
// parser's open root after every feed and hands it out in a snapshot. What
// it costs depends on what the caller keeps:
//
// - the caller lets each snapshot go before the next feed: the root's path
//   is written over in place, no allocation;
// - the caller keeps the latest snapshot only (a view showing it while the
//   next event is read): two paths take turns, the one published and the
//   `spare`, the one before, written over once the caller let it go;
// - the caller keeps more (every snapshot, for a history): both are held,
//   so the parser publishes a checkpoint path (ParseCheckpoint.swift),
//   shared by the snapshots of the next `checkpointSpan` bytes, whose
//   values are replayed when read (a new path with the same checkpoint
//   when a storage moves). At the end of a span it tries exact paths
//   again, so a caller that stopped keeping snapshots gets them back.
//   While a key or number cut by the feed is longer than the parser keeps
//   inline, it publishes exact paths instead: a checkpoint would hold a
//   copy of that token.
//
// For example, a caller that appends every snapshot to an array: feed 1
// publishes path A; at feed 2 the caller holds A, there is no spare, so B
// is made and A becomes the spare; at feed 3 the caller holds B and A, so
// the parser takes a checkpoint and publishes its path C, which feeds 4, 5,
// ... publish again until 8 KiB of input later.

extension IncrementalJSONParser {
    /// ``value`` while the parser is inside its top-level array or object,
    /// as the one reference it is made of; nil otherwise, and then
    /// ``value`` is the value. For a holder that keeps the partial value
    /// of every delta: it skips making the ``JSONValue`` only to take it
    /// apart again.
    ///
    /// - Complexity: O(depth).
    package var openRoot: OpenRoot? {
        guard parserState != .done, !frameStack.isEmpty else { return nil }
        return exactRoot()
    }

    /// Sets `root` to ``openRoot`` as of `streamedCount` bytes of the
    /// holder's text (which this parser read, after any it began at), or
    /// returns false (leaving `root` as it is) when that is nil. `root` is
    /// the one published last and `spare` the one before it, both the
    /// holder's to keep between calls; the file comment says which paths
    /// are written over, made, or shared. A path that anything else still
    /// holds is never written.
    ///
    /// `mutating` only for how it is called, not for what it does (it
    /// changes nothing in the parser): a holder keeps its parser in a
    /// stored property, and borrowing the parser (a struct of a few
    /// hundred bytes) from there to call a non-mutating method copied it
    /// to the stack on every feed, where an `inout` self is passed by
    /// address.
    ///
    /// - Complexity: O(depth).
    package mutating func refreshOpenRoot(
        _ root: inout OpenRoot?, spare: inout OpenRoot?, streamedCount: Int,
        checkpointSpan: Int = ParseCheckpoint.defaultSpan
    ) -> Bool {
        guard parserState != .done, !frameStack.isEmpty else { return false }
        guard var existing = root else {
            root = exactRoot()
            return true
        }
        // Moved out, so that `existing` is the one reference if no one
        // else holds the path.
        root = nil
        let unique = isKnownUniquelyReferenced(&existing.elementPath)
        if unique && rewrite(existing.elementPath) {
            root = existing
            return true
        }
        root = publishBeside(existing, heldElsewhere: !unique, spare: &spare, streamedCount: streamedCount, span: checkpointSpan)
        return true
    }

    /// The root to publish when the last one, `published`, could not be
    /// written over: the caller holds it (`heldElsewhere`), or it had no
    /// room for the path.
    @inline(never)
    private func publishBeside(
        _ published: OpenRoot, heldElsewhere: Bool, spare: inout OpenRoot?, streamedCount: Int, span: Int
    ) -> OpenRoot {
        guard heldElsewhere else { return exactRoot() }
        if let checkpoint = published.elementPath.checkpoint {
            if checkpoint.covers(streamedCount: streamedCount, span: span) {
                if _isSameObject(published.elementPath.reader.storages, nodeReader.storages) { return published }
                // A storage moved: the same checkpoint, read in the new ones.
                return exactRoot(checkpoint: checkpoint)
            }
            // The span ended: exact paths again, to see what the caller
            // holds now.
            spare = nil
            return exactRoot()
        }
        guard var turn = spare else {
            spare = published
            return exactRoot()
        }
        spare = nil
        if isKnownUniquelyReferenced(&turn.elementPath) {
            // The caller let the one before go: the two take turns.
            spare = published
            return rewrite(turn.elementPath) ? turn : exactRoot()
        }
        // The caller holds both: it keeps snapshots. Not while a key or
        // number cut by the feed has spilled into an array: each checkpoint
        // would share it, the parser's next append would copy it whole,
        // and a token of L bytes would cost about L² / span bytes across
        // its checkpoints. Exact paths until it ends.
        if holdsLongCutToken { return exactRoot() }
        return exactRoot(checkpoint: ParseCheckpoint(parser: self, streamedCount: streamedCount))
    }

    /// Whether a key or number is open across the feed's end and has
    /// spilled into its array (a token's array stays until the next one of
    /// its kind begins, so the state says whether it is still open).
    var holdsLongCutToken: Bool {
        switch parserState {
        case .string: stringIsKey && keyBytes.isSpilled
        case .number: tokenBytes.isSpilled
        default: false
        }
    }

    /// Writes the current path over `path`, which no one else holds; false
    /// when it has no room (a checkpoint path never has).
    @inline(__always)
    private func rewrite(_ path: OpenPath) -> Bool {
        // The arrays, not `self`: a closure over a method of this struct
        // would copy the whole parser.
        let (stack, columns) = (frameStack, nodeColumns)
        return path.rewrite(reader: nodeReader, leaf: visibleLeaf, depth: frameStack.count) { Self.openLevel($0, stack, columns) }
    }

    /// The current path, in a block of its own; with `checkpoint`, a path
    /// for the snapshots to come to share (its levels this moment's, its
    /// storages the current ones).
    private func exactRoot(checkpoint: ParseCheckpoint? = nil) -> OpenRoot {
        let header = OpenPathHeader(reader: nodeReader, leaf: visibleLeaf, depth: frameStack.count, checkpoint: checkpoint)
        let (stack, columns) = (frameStack, nodeColumns)
        return OpenRoot(elementPath: OpenPath.make(header) { Self.openLevel($0, stack, columns) })
    }

    /// Level `level` of the open path: its frame, and its finished children.
    @inline(__always)
    private static func openLevel(_ level: Int, _ stack: [Frame], _ columns: [AppendOnlyArray<Node>]) -> OpenLevel {
        let frame = stack[level]
        let count = level < columns.count ? columns[level].count &- frame.start : 0
        return OpenLevel(start: frame.start, count: count, key: frame.key, isObject: frame.isObject)
    }

    /// The string being read, as a slice of the document's bytes, when it
    /// is a value and partial strings are shown.
    var visibleLeaf: (start: Int, count: Int)? {
        guard parserState == .string && !stringIsKey && options.partialStrings == .visible else { return nil }
        return (stringStart, chunkBytes.count - stringStart)
    }
}
