// OpenRoot: the partial value of a document still open at its top level,
// in the one reference a held snapshot pays for it.
//
// A holder that takes the value after every feed (a message snapshot's
// streaming tool input) keeps one `OpenRoot` per snapshot, so what a root
// costs beyond its reference is what holding every snapshot costs. It is
// one of two things:
//
// - an exact path: the open containers and the open string at one moment
//   (`OpenPath`, two words a level). Written over in place when no one else
//   holds it, which is the usual case: a caller that lets each snapshot go
//   before the next one allocates nothing per feed.
// - a checkpoint path: a path with a `ParseCheckpoint`, shared by every
//   snapshot of a stretch of input. A snapshot's value is then replayed from
//   the checkpoint over the input the snapshot holds anyway (the holder's
//   streamed text), when it is read. Held snapshots then cost nothing each
//   for their partial values, where an exact path each cost more than the
//   input it stood for (Benchmarks/RESULTS.md, "Memory").
//
// Which one a feed publishes is the parser's choice
// (IncrementalJSONParser+OpenRoot.swift): exact paths while the caller holds
// at most the latest snapshot, checkpoint paths once it holds more.

/// A partial value whose parser is still inside its top-level container,
/// held as the one reference its snapshot is made of (see the file comment).
package struct OpenRoot: @unchecked Sendable {
    // @unchecked: see `OpenContainer`.
    var elementPath: OpenPath

    /// The value when the path was taken. A root that
    /// ``IncrementalJSONParser/refreshOpenRoot(_:spare:streamedCount:checkpointSpan:)``
    /// published may stand for later input too: read it with
    /// ``value(streamed:)``.
    ///
    /// - Complexity: O(1).
    package var value: JSONValue { elementPath.value(at: 0) }

    /// The value after the parser had read `streamed`, the holder's whole
    /// input so far (the text whose count was given as `streamedCount` when
    /// this root was published, or a longer one that the parser read since).
    ///
    /// - Complexity: O(1) for an exact path; for a checkpoint path,
    ///   O(bytes read since its checkpoint), at most the checkpoint span.
    package func value(streamed: AppendOnlyText) -> JSONValue {
        // Nil at the checkpoint itself, where the path's own levels are the
        // value. The replay and, failing it, the parse from the start read
        // input the live parser read without an error, so neither fails;
        // were one to, the path's earlier value would stand. No trap here:
        // the bytes came from outside. Tests and the fuzzers compare held
        // values with an unheld run's, and would see it.
        if let checkpoint = elementPath.checkpoint,
            let value = checkpoint.replayedValue(through: streamed, in: elementPath.reader.storages)
        {
            return value
        }
        return value
    }

    /// This root as an exact path for the input `streamed`: for a holder
    /// whose input goes on growing while the root must keep standing for
    /// this much of it (its parser failed on the next bytes).
    ///
    /// - Complexity: as ``value(streamed:)``.
    package func settled(streamed: AppendOnlyText) -> OpenRoot {
        guard let checkpoint = elementPath.checkpoint,
            let root = checkpoint.replayedRoot(through: streamed, in: elementPath.reader.storages)
        else { return self }
        return root
    }
}
