// How each event changes the message (WIRE.md is the reference).
//
// Events are routed by `index`; blocks may interleave. The checks here are
// the protocol: a block must start before its deltas, at the next index;
// a delta must fit its block's type; nothing but pings may follow
// `message_stop` unless the caller allowed a next message.

import IncrementalJSON

extension AccumulatorState {
    /// Applies a parsed (non-hot) event; returns true when the message changed.
    mutating func applyParsed(_ event: JSONValue) throws(EventFailure) -> Bool {
        guard event.objectValue != nil else { throw .violation("event data is not a JSON object") }
        switch event["type"]?.stringValue {
        case "message_start":
            try startMessage(event["message"])
        case "content_block_start":
            try startBlock(at: try blockIndex(event), event["content_block"])
        case "content_block_delta":
            try applyParsedDelta(event["delta"], at: try blockIndex(event))
        case "content_block_stop":
            try stopBlock(at: try blockIndex(event))
        case "message_delta":
            try applyMessageDelta(event)
        case "message_stop":
            try phase.requireStreaming("message_stop")
            message.isComplete = true
            phase = .stopped
            completed.append(message)
        case "error":
            let error = event["error"]
            throw .kind(
                .apiError(
                    APIErrorEvent(
                        type: error?["type"]?.stringValue ?? "unknown_error",
                        message: error?["message"]?.stringValue ?? "",
                        requestID: event["request_id"]?.stringValue)))
        case "completion":
            // Text Completions chunks (Bedrock claude-v2 / claude-instant), some typed "completion"…
            throw .kind(.legacyTextCompletions)
        case nil where event["completion"] != nil:
            // … most not typed at all.
            throw .kind(.legacyTextCompletions)
        default:
            return false  // ping, and event types this package does not know
        }
        return true
    }

    private func blockIndex(_ event: JSONValue) throws(EventFailure) -> Int {
        guard let number = event["index"]?.numberValue, let index = try? number.int(), index >= 0 else {
            throw .violation("\(event["type"]?.stringValue ?? "event") without a valid index")
        }
        return index
    }

    private mutating func startMessage(_ message: JSONValue?) throws(EventFailure) {
        guard let message, message.objectValue != nil else { throw .violation("message_start without a message object") }
        switch phase {
        case .streaming: throw .violation("message_start before the previous message_stop")
        case .stopped where !options.allowsSequentialMessages:
            throw .violation("message_start after message_stop (sequential messages not allowed)")
        case .beforeMessage, .stopped: break
        }
        // Blocks that arrive filled in count against the limit too (600,000
        // of them once passed a limit of 100,000); checked before any is built.
        let filled = message["content"]?.arrayValue?.count ?? 0
        guard filled <= options.maxBlocks else {
            throw .violation("message_start with \(filled) content blocks, more than \(options.maxBlocks)")
        }
        let next = hasMessage ? self.message.messageIndex + 1 : 0
        self.message = MessageSnapshot(start: message, messageIndex: next, metadata: options.responseMetadata)
        hasMessage = true
        streaming.reset()
        messageBytes = 0
        phase = .streaming
    }

    mutating func startBlock(at index: Int, _ json: JSONValue?) throws(EventFailure) {
        try phase.requireStreaming("content_block_start")
        guard let json, json.objectValue != nil else { throw .violation("content_block_start \(index) without a content_block object") }
        // A start always appends: its block is routed by its position, which
        // is what later deltas name. Recorded streams exist whose start
        // repeats an earlier index while their deltas use the right one; a
        // start that skips ahead shows up at the first delta, which then
        // finds no open block.
        _ = index
        try appendStartedBlock(ContentBlock.fromStart(json, isComplete: false))
    }

    /// Appends a block made from a valid start object.
    mutating func appendStartedBlock(_ block: consuming ContentBlock) throws(EventFailure) {
        try phase.requireStreaming("content_block_start")
        guard message.content.count < options.maxBlocks else { throw .violation("more than \(options.maxBlocks) content blocks") }
        message.content.append(block)
    }

    mutating func stopBlock(at index: Int) throws(EventFailure) {
        try phase.requireStreaming("content_block_stop")
        guard streaming.stop(at: index, in: &message) else { throw .violation("content_block_stop for index \(index), which is not open") }
    }

    private mutating func applyMessageDelta(_ event: JSONValue) throws(EventFailure) {
        try phase.requireStreaming("message_delta")
        try countMessageBytes(eventDataBytes)
        if let delta = event["delta"]?.objectValue {
            for (key, value) in delta.entries {
                switch key {
                case "stop_reason": message.stopReason = value.stringValue
                case "stop_sequence": message.stopSequence = value.stringValue
                case "stop_details": message.stopDetails = value.isNull ? nil : value
                default: message.setDeltaField(key, value)
                }
            }
        }
        if let usage = event["usage"] { message.usage.overwrite(with: usage) }
        // Beside `delta` and `usage` the API sends message-level fields
        // (beta `context_management`, `input_transformations`); anything else
        // there (a gateway's own metadata) is kept apart from the message.
        for (key, value) in event.objectValue?.entries.map({ ($0.key, $0.value) }) ?? [] {
            switch key {
            case "type", "delta", "usage": continue
            case "context_management", "input_transformations": message.setDeltaField(key, value)
            default: message.otherEventFields[key] = value
            }
        }
    }

    /// A `content_block_delta` the hot scanner did not take.
    private mutating func applyParsedDelta(_ delta: JSONValue?, at index: Int) throws(EventFailure) {
        guard let delta, let type = delta["type"]?.stringValue else {
            throw .violation("content_block_delta \(index) without a delta type")
        }
        if let kind = HotDeltaKind(deltaType: type) {
            let field = kind.payloadField.description
            guard let text = delta[field]?.stringValue else { throw .violation("\(type) without a \(field) string") }
            var bytes = Array(text.utf8)
            try bytes.withUnsafeMutableBufferPointer { (buffer) throws(EventFailure) in
                try applyDelta(kind, payload: UnsafeBufferPointer(buffer), at: index)
            }
            return
        }
        try phase.requireStreaming("content_block_delta")
        // Kept (or, for a known block, skipped) whole: the event's bytes count.
        try countMessageBytes(eventDataBytes)
        // The block's kind applies it (its `deltas` table); see Blocks/ContentBlockKind.swift.
        try updateOpenBlock(at: index) { (block) throws(EventFailure) in
            if block.applyKindDelta(delta: type, delta) == .wrongBlock {
                throw .violation("\(type) for a \(block.type) block at index \(index)")
            }
        }
    }

    /// How a delta of `kind` at `index` streams into its block; nil for a
    /// signature, which is not streamed. Mutating only so that calling it
    /// does not copy the state (see `Phase.requireStreaming`).
    @inline(__always)
    mutating func liveKind(of kind: HotDeltaKind, at index: Int) -> LiveKind? {
        switch kind {
        // Only text deltas can be structured output; the others skip the
        // lookup, and so do all when no block is (the usual case).
        case .text: parsesStructuredOutput && options.structuredOutput.includes(index) ? .structuredText : .text
        case .thinking: .thinking
        case .inputJSON: .toolInput
        case .signature: nil
        }
    }

    /// Applies a text, JSON, thinking or signature delta.
    mutating func applyDelta(_ kind: HotDeltaKind, payload: UnsafeBufferPointer<UInt8>, at index: Int) throws(EventFailure) {
        try phase.requireStreaming("content_block_delta")
        try countMessageBytes(payload.count)
        if let live = liveKind(of: kind, at: index) {
            if streaming.append(payload, at: index, as: live, to: &message, options: options.json) { return }
        } else {
            streaming.finishText(at: index, in: &message)
            var applied = false
            try updateOpenBlock(at: index) { (block) throws(EventFailure) in
                guard case .thinking(var thinking) = block else { return }
                thinking.signature = String(decoding: payload, as: UTF8.self)
                block = .thinking(thinking)
                applied = true
            }
            if applied { return }
        }
        // Not an open block of the delta's kind: say which it is.
        try updateOpenBlock(at: index) { (block) throws(EventFailure) in
            throw .violation("\(kind.wireName) for a \(block.type) block at index \(index)")
        }
    }

    /// Applies a delta the scanner wrote into the live block's claimed room
    /// (`scanHotBlock`), `payload` at the room's start: `applyDelta`'s
    /// checks, then the payload counted as the block's. The block is the
    /// live one, of the delta's kind: the room was claimed for that.
    @inline(__always)
    mutating func applyDeltaInRoom(_ payload: UnsafeBufferPointer<UInt8>) throws(EventFailure) {
        do throws(EventFailure) {
            try phase.requireStreaming("content_block_delta")
            try countMessageBytes(payload.count)
        } catch {
            streaming.abandonLiveRoom()
            throw error
        }
        streaming.appendClaimed(payload, to: &message, options: options.json)
    }

    /// Adds a delta's bytes to the message's total; past
    /// ``MessageAccumulatorOptions/maxMessageBytes`` that is a violation.
    @inline(__always)
    private mutating func countMessageBytes(_ count: Int) throws(EventFailure) {
        messageBytes += count
        guard messageBytes <= options.maxMessageBytes else { throw Self.tooManyMessageBytes(options.maxMessageBytes) }
    }

    @inline(never)
    private static func tooManyMessageBytes(_ limit: Int) -> EventFailure {
        .violation("the message's deltas exceed \(limit) bytes")
    }

    private mutating func updateOpenBlock(
        at index: Int, _ body: (inout ContentBlock) throws(EventFailure) -> Void
    ) throws(EventFailure) {
        var failure: EventFailure?
        let found: Bool? = streaming.update(at: index, in: &message) { block in
            guard !block.isComplete else { return false }
            do throws(EventFailure) { try body(&block) } catch { failure = error }
            return true
        }
        if let failure { throw failure }
        guard found == true else { throw .violation("content_block_delta for index \(index), which is not open") }
    }
}

extension AccumulatorState.Phase {
    /// Throws unless a message is streaming. A method of the phase, not of
    /// the state: a non-mutating method of the whole state, called from a
    /// mutating one, copied all of it (648 bytes) on every delta.
    @inline(__always)
    func requireStreaming(_ what: String) throws(EventFailure) {
        switch self {
        case .streaming: return
        case .beforeMessage: throw .violation("\(what) before message_start")
        case .stopped: throw .violation("\(what) after message_stop")
        }
    }
}
