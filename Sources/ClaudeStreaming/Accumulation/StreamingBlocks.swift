// StreamingBlocks: the one owner of the block being streamed.
//
// Most events append to one open block: text, thinking, or the JSON of a
// tool input or structured text. Writing each into the snapshot's content
// would copy its copy-on-write box once an event (every held snapshot would
// own a copy of the open blocks, ~200 bytes an event), so that block is
// *live*: its growing bytes, its partial JSON value and its incremental
// parser sit here, in `_LiveBlock`, and nowhere else. After each append the
// bytes and value are published into the snapshot's ``ContentList`` in one
// place (`_publish`), which shows them over the block when it is read; they
// are written into the block itself only when the block stops, another block
// goes live, or something else must change the block (`retire`).
//
// Blocks may interleave, so a JSON block that stops being live keeps its
// parser here, parked by index, until it streams again or stops.

import IncrementalJSON

/// The block being streamed and the parsers of JSON blocks streamed before.
struct _StreamingBlocks: Sendable {
    private var live: _LiveBlock?
    /// Parsers of open JSON blocks that are not live, by block index.
    private var parked: [Int: IncrementalJSONParser] = [:]

    /// Forgets every block (a new message starts).
    mutating func reset() {
        live = nil
        parked.removeAll()
    }

    /// Appends a delta's payload to the open block at `index`, streamed as
    /// `kind`; false when that block is not an open block of that kind (the
    /// caller then reports the violation). Text that is not JSON records the
    /// error on the block and stops its parsing; the text itself keeps growing.
    ///
    /// - Complexity: Amortised O(`payload.count`), plus O(depth) for a JSON
    ///   value and O(open blocks) when another block was live.
    mutating func append(
        _ payload: UnsafeBufferPointer<UInt8>, at index: Int, as kind: _LiveKind,
        to snapshot: inout MessageSnapshot?, options: JSONParserOptions
    ) -> Bool {
        // Read fields, never `if let` the whole live block: that copy would
        // retain every buffer of its parser once an event.
        if live?.index == index {
            guard live?.kind == kind else { return false }
        } else {
            guard let block = snapshot?.content._openBlock(at: index), let streamed = block._streamed(kind) else {
                return false
            }
            retire(into: &snapshot)
            live = _LiveBlock(
                index: index, kind: kind, parses: streamed.parses, bytes: streamed.text.utf8,
                value: nil, parser: parked.removeValue(forKey: index))
            snapshot?.content._beginLive(_LiveMarker(index: index, kind: kind))
        }
        switch live?.append(payload, options: options) {
        case .grew, nil:
            _publish(into: &snapshot)
        case .settled(let outcome):
            // A parse error, a top-level scalar or a finished value: rare
            // enough to write into the block itself.
            _ = update(at: index, in: &snapshot) { $0._setParsedJSON(outcome) }
        }
        return true
    }

    /// Stops the open block at `index`, finishing any JSON it was parsing;
    /// false when there is no open block there.
    mutating func stop(at index: Int, in snapshot: inout MessageSnapshot?) -> Bool {
        if live?.index == index { retire(into: &snapshot) }
        let parser = parked.removeValue(forKey: index)
        let stopped: Bool? = snapshot?.content.update(at: index) { block in
            guard !block.isComplete else { return false }
            block.markComplete(finishing: parser)
            return true
        }
        return stopped == true
    }

    /// Changes the block at `index` (writing its live state into it first
    /// when it is live); nil when there is no such unsettled block.
    mutating func update<R>(
        at index: Int, in snapshot: inout MessageSnapshot?, _ body: (inout ContentBlock) -> R
    ) -> R? {
        if live?.index == index { retire(into: &snapshot) }
        return snapshot?.content.update(at: index, body)
    }

    /// Writes the live block's state into the block and parks its parser.
    private mutating func retire(into snapshot: inout MessageSnapshot?) {
        guard let retired = live else { return }
        live = nil
        if let parser = retired.parser { parked[retired.index] = parser }
        snapshot?.content._endLive(bytes: retired.bytes, value: retired.value)
    }

    /// The one place the live state reaches the snapshot.
    @inline(__always)
    private func _publish(into snapshot: inout MessageSnapshot?) {
        guard let bytes = live?.bytes else { return }
        snapshot?.content._showLive(bytes: bytes, value: live?.value)
    }
}

/// The block being streamed: where it is, what it streams, and its newest
/// bytes, partial value and parser.
struct _LiveBlock: Sendable {
    let index: Int
    let kind: _LiveKind
    /// JSON kinds: the text has not failed to parse (yet).
    var parses: Bool
    /// The streamed field's whole text so far.
    var bytes: AppendOnlyArray<UInt8>
    /// The partial value, when a JSON delta changed it since the block went
    /// live (nil: the block's own value stands).
    var value: _OpenRoot?
    var parser: IncrementalJSONParser?

    /// What an append did to the block.
    enum Outcome {
        /// The bytes (and maybe the live value) grew.
        case grew
        /// The JSON failed, or its value is no longer open: for the block itself.
        case settled(Result<JSONValue, JSONParseError>)
    }

    @inline(__always)
    mutating func append(_ payload: UnsafeBufferPointer<UInt8>, options: JSONParserOptions) -> Outcome {
        bytes.append(contentsOf: payload)
        guard parses, payload.count > 0 else { return .grew }
        var active = parser ?? IncrementalJSONParser(options: options)
        parser = nil  // unique while it is fed: no copy of its buffers
        let parsed: JSONValue?
        do throws(JSONParseError) {
            try active.feed(UnsafeRawBufferPointer(payload))
            parsed = active.value
        } catch {
            parses = false
            return .settled(.failure(error))
        }
        parser = active
        guard let parsed else { return .grew }
        guard let root = parsed._openRoot else { return .settled(.success(parsed)) }
        value = root
        return .grew
    }
}
