// StreamingBlocks: the one owner of the block being streamed.
//
// Most events append to one open block: text, thinking, or the JSON of a
// tool input or structured text. Writing each into the snapshot's content
// would copy its copy-on-write box once an event (every held snapshot would
// own a copy of the open blocks, for every event), so that block is
// *live*: its growing bytes, its partial JSON value and its incremental
// parser sit here, in `StreamingBlocks`, and nowhere else. After each
// append the bytes and value are published into the snapshot's
// ``ContentList`` in one place (the end of `append`), which shows them over
// the block when it is read; they are written into the block itself only
// when the block stops, another block goes live, or something else must
// change the block (`retire`). A JSON outcome (the value finished, or the
// text is not JSON) is written into the block while it stays live, in
// fields the overlay does not show over: the error, or the value once no
// live value is shown.
//
// Blocks may interleave, so a JSON block that stops being live keeps its
// parser here, parked by index, until it streams again or stops.
//
// Storage shared by blocks in turn
// --------------------------------
// A caller that holds snapshots holds every size a block's buffer had: a
// buffer that two values share is never grown in place, so each doubling
// leaves the one before alive, and a block's bytes cost about twice what
// they are, plus a page of a reserved region. Across a message of many
// blocks that was most of what holding every snapshot cost (a mixed
// stream: 4.9x its content). So a new block goes on after the bytes of the
// block that stopped last, in the same storage (`spine`), as a slice of
// it: the storage grows once for the message rather than once per block.
// Only a block whose text is final is built on (it stopped, or its
// signature came), since an open one may still grow, and never one that
// had streamed before it went live (its storage is its own); one that
// nothing else holds is given back its slack at the stop instead (no
// caller holds snapshots), after which the next block starts storage of
// its own, as every block did before. For example, with
// every snapshot held: a thinking block streams 6,000 bytes, which by then
// sit in a reserved region (a held buffer moves into one past 4 KiB), and
// stops; the text block after it starts at byte 6,000 of that region and
// streams 9,000 bytes there; a snapshot shows the thinking as bytes
// 0..<6000 and the text as bytes 6000..<15000 of the one storage. A new
// block that finds too little room grows the storage as any append does,
// copying the bytes before it once, as a doubling would.

import IncrementalJSON

/// The block being streamed and the parsers of JSON blocks streamed before.
///
/// The live block's state is flat stored properties rather than one
/// optional struct: reading `live?.index` out of an optional struct copied
/// (and retained) the whole of it once an event, a clear cost on a text
/// stream's feed (Benchmarks/RESULTS-HISTORY.md, accumulator).
struct StreamingBlocks: Sendable {
    /// The live block's index, or -1 when no block is live.
    private var liveIndex = -1
    private var liveKind = LiveKind.text
    /// JSON kinds: the live text has not failed to parse (yet).
    private var liveParses = false
    /// The storage the live block's bytes are in, which they end: from
    /// `liveStart` on, its whole text so far.
    private var liveBytes = AppendOnlyArray<UInt8>()
    /// Where the live block's bytes start in `liveBytes`: 0 unless it went
    /// on after a stopped block's (see the file comment).
    private var liveStart = 0
    /// The storage whose bytes a stopped block ends, which the next new
    /// block goes on in; empty when the next block starts storage of its own.
    private var spine = AppendOnlyArray<UInt8>()
    /// The live block's text is final (it stopped, or its signature came):
    /// when it stops being live, its storage may be built on, unless
    /// `liveStreamedBefore`.
    private var liveIsFinal = false
    /// The live block had text when it went live (it streamed before, or
    /// its start carried text). Its storage is never built on: a block
    /// streamed again after a block went on in its storage copies itself
    /// out, and that must happen once, not at every turn.
    private var liveStreamedBefore = false
    /// The live partial value, when a JSON delta changed it since the block
    /// went live (nil: the block's own value stands).
    private var liveValue: OpenRoot?
    /// The partial value published before `liveValue`, kept so that the
    /// parser can tell whether the caller keeps snapshots
    /// (IncrementalJSONParser+OpenRoot.swift).
    private var liveSpare: OpenRoot?
    /// The live JSON block's parser, fed in place. Not optional: feeding an
    /// optional's payload meant moving the whole parser out and back (or,
    /// with `??`, copying it, a large struct, on every tool-input delta).
    private var liveParser = IncrementalJSONParser()
    /// Whether `liveParser` belongs to the live block (else it is a placeholder).
    private var liveHasParser = false
    /// Parsers of open JSON blocks that are not live, by block index.
    private var parked: [Int: IncrementalJSONParser] = [:]

    /// Forgets every block (a new message starts).
    mutating func reset() {
        self = StreamingBlocks()
    }

    /// Appends a delta's payload to the open block at `index`, streamed as
    /// `kind`; false when that block is not an open block of that kind (the
    /// caller then reports the violation). Text that is not JSON records the
    /// error on the block and stops its parsing; the text itself keeps growing.
    ///
    /// - Complexity: Amortised O(`payload.count`), plus O(depth) for a JSON
    ///   value and O(open blocks) when another block was live.
    @inline(__always)
    mutating func append(
        _ payload: UnsafeBufferPointer<UInt8>, at index: Int, as kind: LiveKind,
        to snapshot: inout MessageSnapshot, options: JSONParserOptions
    ) -> Bool {
        if liveIndex == index {
            guard liveKind == kind else { return false }
        } else {
            guard goLive(at: index, as: kind, in: &snapshot) else { return false }
        }
        // The snapshot's copy of the live bytes is the accumulator's own.
        // Growing a buffer that two values hold moves it into a reserved
        // region (a mapping, its pages faulted in fresh, and unmapped when
        // the message goes: system calls and faults for every such block);
        // growing one that only this value holds reallocs it in place (see
        // Benchmarks/RESULTS-HISTORY.md, accumulator). So the snapshot lets
        // go before a growth, and the buffer stays shared (and goes to a
        // region) only when a caller really holds an older snapshot.
        // `showLive` below publishes it again.
        liveBytes._append(contentsOf: payload) { snapshot.content.releaseLiveBytes() }
        published(payload, at: index, to: &snapshot, options: options)
        return true
    }

    /// The least room worth claiming: a delta rarely needs more, and a
    /// scan that runs out of room is wasted.
    private static let minimumRoom = 256

    /// Claims the room past the live block's bytes for a delta of `kind`
    /// at `index` to be written into in place: nil unless that block is
    /// live as `kind`. A buffer short of room grows first, as the append
    /// after the scan would have (a young block's buffer, or one about to
    /// double, was a third of a mixed stream's deltas), and is published
    /// again in `snapshot` at once, so a claim given back leaves the
    /// snapshot whole. Once claimed, ``appendClaimed(_:to:options:)`` or
    /// ``abandonLiveRoom()`` must come before anything else changes the
    /// live block.
    ///
    /// - Complexity: O(1), or amortised O(1) per byte when it grows.
    @inline(__always)
    mutating func claimLiveRoom(
        at index: Int, as kind: LiveKind, publishedIn snapshot: inout MessageSnapshot
    ) -> UnsafeMutableBufferPointer<UInt8>? {
        guard liveIndex == index, liveKind == kind else { return nil }
        var grew = false
        // As in `append`: the snapshot lets go first, so the buffer grows
        // unshared (in place) unless a caller holds an older snapshot.
        let room = liveBytes._claimRoom(minimum: Self.minimumRoom) {
            snapshot.content.releaseLiveBytes()
            grew = true
        }
        if grew { snapshot.content.showLive(bytes: liveBytes, value: liveValue) }
        return room
    }

    /// Gives back the room ``claimLiveRoom(at:as:publishedIn:)`` claimed, unused.
    @inline(__always)
    mutating func abandonLiveRoom() {
        liveBytes._commitRoom(0)
    }

    /// Appends `payload`, the start of the claimed room, which the caller
    /// wrote, to the live block: as ``append(_:at:as:to:options:)`` with
    /// the bytes already in place.
    ///
    /// - Complexity: O(`payload.count`), plus O(depth) for a JSON value.
    @inline(__always)
    mutating func appendClaimed(_ payload: UnsafeBufferPointer<UInt8>, to snapshot: inout MessageSnapshot, options: JSONParserOptions) {
        liveBytes._commitRoom(payload.count)
        published(payload, at: liveIndex, to: &snapshot, options: options)
    }

    /// After `payload` joined the live block's bytes: feeds a JSON block's
    /// parser with it, and shows the live state in the snapshot.
    @inline(__always)
    private mutating func published(
        _ payload: UnsafeBufferPointer<UInt8>, at index: Int, to snapshot: inout MessageSnapshot, options: JSONParserOptions
    ) {
        // The partial value goes the way of the bytes (`append`): with the
        // snapshot's reference gone, the parser writes the new open path
        // over the old one unless a caller holds an older snapshot
        // (`refreshOpenRoot`).
        if liveParses { snapshot.content.liveValue = nil }
        if liveParses && payload.count > 0, let outcome = parse(payload, options: options) {
            // A parse error, a top-level scalar or a finished value: written
            // into the block itself, which stays live, so its parser stays
            // here rather than going to `parked` and out again at the stop
            // (a dictionary's insert and removal for every tool call). A
            // value shows from the block (no live value over it); after an
            // error the last partial value stays live, as `retire` would
            // have written it into the block.
            if case .success = outcome {
                liveValue = nil
                liveSpare = nil
            }
            snapshot.content.showLive(bytes: liveBytes, value: liveValue)
            _ = snapshot.content.update(at: index) { $0.setParsedJSON(outcome) }
            return
        }
        // The one place the live state reaches the snapshot.
        snapshot.content.showLive(bytes: liveBytes, value: liveValue)
    }

    /// Makes the open block at `index` the live one, streamed as `kind`;
    /// false when there is no such block of that kind. Once a block, not
    /// once a delta: kept out of `append`, which is inlined in the event loop.
    @inline(never)
    private mutating func goLive(at index: Int, as kind: LiveKind, in snapshot: inout MessageSnapshot) -> Bool {
        guard let streamed = snapshot.content.streamedText(at: index, kind) else {
            return false
        }
        retire(into: &snapshot)
        liveIndex = index
        liveKind = kind
        liveParses = streamed.parses
        if streamed.text.isEmpty {
            // A new block: on after the last stopped block's bytes. Moved
            // out of `spine`, so that the storage is as unshared as it was.
            liveStart = spine.count
            liveBytes = spine
            spine = AppendOnlyArray()
            liveStreamedBefore = false
        } else {
            // A block that streamed before: in storage of its own (a slice
            // is copied into one, once). One whose text was final and is
            // streamed again (a thinking delta after the signature) grows
            // its storage in place, so no new block may build on that.
            if streamed.text.storageIdentity != nil,
                streamed.text.storageIdentity == spine._storage.map(ObjectIdentifier.init)
            {
                spine = AppendOnlyArray()
            }
            liveStart = 0
            liveBytes = streamed.text.utf8
            liveStreamedBefore = true
        }
        if !parked.isEmpty, let parser = parked.removeValue(forKey: index) {
            liveParser = parser
            liveHasParser = true
        }
        snapshot.content.beginLive(LiveMarker(index: index, kind: kind, start: liveStart))
        return true
    }

    /// Feeds the live block's parser; nil while its value stays open (the
    /// live value then holds it), else what the block itself must record.
    private mutating func parse(
        _ payload: UnsafeBufferPointer<UInt8>, options: JSONParserOptions
    ) -> Result<JSONValue, JSONParseError>? {
        if !liveHasParser {
            liveParser = IncrementalJSONParser(options: options)
            liveHasParser = true
        }
        do throws(JSONParseError) {
            try liveParser.feed(UnsafeRawBufferPointer(payload))
        } catch {
            liveParses = false
            liveParser = IncrementalJSONParser()
            liveHasParser = false
            // The last partial value stays, for the text before `payload`;
            // one shared with later text is replayed to that end now.
            let streamed = AppendOnlyText(
                _slice: liveBytes._storage, start: liveStart, count: liveBytes.count &- payload.count &- liveStart)
            liveValue = liveValue?.settled(streamed: streamed)
            liveSpare = nil
            return .failure(error)
        }
        // Inside the input's top-level container (nearly always): the live
        // value is that open root, taken without making a JSONValue.
        // Through a local: passing the stored `liveValue` inout beside a
        // read of `liveParser` made Swift copy the parser to keep the two
        // accesses apart.
        var root = liveValue
        liveValue = nil
        let open = liveParser.refreshOpenRoot(&root, spare: &liveSpare, streamedCount: liveBytes.count &- liveStart)
        liveValue = root
        if open { return nil }
        return liveParser.value.map { .success($0) }
    }

    /// Stops the open block at `index`, finishing any JSON it was parsing;
    /// false when there is no open block there.
    mutating func stop(at index: Int, in snapshot: inout MessageSnapshot) -> Bool {
        var parser: IncrementalJSONParser? = nil
        if liveIndex == index {
            // The live block's parser goes straight to the block rather
            // than through `parked`, where `retire` would put it only for
            // this to take it out again.
            if liveHasParser {
                parser = liveParser
                liveHasParser = false
            }
            releaseSlack(in: &snapshot)
            liveIsFinal = true
            retire(into: &snapshot)
        } else if !parked.isEmpty {
            parser = parked.removeValue(forKey: index)
        }
        let stopped: Bool? = snapshot.content.update(at: index) { block in
            guard !block.isComplete else { return false }
            block.markComplete(finishing: parser)
            return true
        }
        return stopped == true
    }

    /// Gives back the doubling's slack of the live text when `index` is the
    /// live block and no caller holds the text: for a delta after which the
    /// text is final, a thinking block's signature (sent just before its
    /// stop, which then finds the block no longer live).
    mutating func finishText(at index: Int, in snapshot: inout MessageSnapshot) {
        guard liveIndex == index else { return }
        releaseSlack(in: &snapshot)
        liveIsFinal = true
        snapshot.content.showLive(bytes: liveBytes, value: liveValue)
    }

    /// A stopped block keeps the text it has, so the doubling's slack goes
    /// back. Only at a stop (or a signature): a block that merely stops
    /// being live may grow again, and giving back its slack at every switch
    /// between interleaved blocks would make each switch a reallocation and
    /// copy. The snapshot's copy is dropped first so that the accumulator's
    /// own reference does not count as a holder.
    private mutating func releaseSlack(in snapshot: inout MessageSnapshot) {
        snapshot.content.releaseLiveBytes()
        liveBytes._releaseUnusedCapacity()
    }

    /// Changes the block at `index` (writing its live state into it first
    /// when it is live); nil when there is no such unsettled block.
    mutating func update<R>(
        at index: Int, in snapshot: inout MessageSnapshot, _ body: (inout ContentBlock) -> R
    ) -> R? {
        if liveIndex == index { retire(into: &snapshot) }
        return snapshot.content.update(at: index, body)
    }

    /// Writes the live block's state into the block and parks its parser.
    private mutating func retire(into snapshot: inout MessageSnapshot) {
        guard liveIndex >= 0 else { return }
        if liveHasParser { parked[liveIndex] = liveParser }
        snapshot.content.endLive(bytes: liveBytes, value: liveValue)
        // A final text's storage is built on only when it kept room: one
        // given back its slack would be copied whole by the next block's
        // first byte. An open block's is not: it may grow again.
        if liveIsFinal && !liveStreamedBefore, let storage = liveBytes._storage, storage._capacity > liveBytes.count {
            spine = liveBytes
        }
        liveIndex = -1
        liveBytes = AppendOnlyArray()
        liveStart = 0
        liveIsFinal = false
        liveValue = nil
        liveSpare = nil
        liveParser = IncrementalJSONParser()
        liveHasParser = false
    }
}
