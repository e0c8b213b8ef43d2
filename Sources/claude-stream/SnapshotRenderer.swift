// SnapshotRenderer: draws a response as it builds up (`replay`, `chat`).
//
// Snapshots only ever extend earlier ones, so the renderer keeps how much of
// the front block it has drawn and draws only the rest. Blocks are drawn in
// order, so per snapshot it looks at the front block only (and moves past
// it when it is done), never at finished or waiting ones: a message of
// 10,000 blocks, all open at once or not, or 500 server-tool calls renders
// in time linear in its size.
// A server-tool call waits for its result by `tool_use_id` in a table, so
// the result block finds it in O(1).
//
// Layout: consecutive text blocks flow on as one paragraph; a cited block
// ends in `[1]`-style markers and the sources are listed in `finish`. Every
// other block is its own line. On a terminal a server-tool call is one line
// redrawn in place as its input streams, cut to the terminal's width so it
// never wraps (a wrapped line cannot be redrawn); thinking and notes are
// dimmed. Plain output (a pipe, a file) has no escape codes and no redraws.
//
// Every byte from outside passes ``TerminalText`` before it is written,
// terminal or not (a file is read on a terminal later): model text as
// `.lines`, every other field (names, URLs, titles, ids, types, the stop
// reason) as `.singleLine`, which ``line(_:at:dimmed:note:)``, the activity
// lines and ``finish(_:note:)`` apply to the whole text they are given. The
// renderer's own styling (dim, reset, `\r` + erase line) is added after,
// so it is the only control sequence in the output.

import ClaudeStreaming
import CommandLineDisplay
import IncrementalJSON

struct SnapshotRenderer {
    let isTerminal: Bool
    var out: OutputWriter
    /// Terminal width for in-place redraws.
    private let columns: Int

    private enum Cursor: Equatable {
        /// At the start of a line.
        case lineStart
        /// Inside the output of the block at this index.
        case inBlock(Int)
        /// Right after a finished text block: the next text block flows on.
        case afterText
    }

    /// The message being drawn (block indices restart with each message).
    private var message: (index: Int, id: String)?
    private var cursor = Cursor.lineStart
    /// The first block not fully drawn; blocks after it wait their turn.
    private var front = 0
    /// UTF-8 bytes of text drawn so far, per open text or thinking block.
    private var written: [Int: Int] = [:]
    /// The activity line drawn for an open server-tool call (terminal only),
    /// and whether it was cut to the terminal's width.
    private var activityLines: [Int: (text: String, wasCut: Bool)] = [:]
    /// Calls waiting for their result, by `id`.
    private var awaitingResult: [String: Int] = [:]
    private var sources = CitationSources()

    init(isTerminal: Bool, fileDescriptor: Int32 = 1) {
        self.isTerminal = isTerminal
        out = OutputWriter(fileDescriptor: fileDescriptor)
        columns = isTerminal ? (TerminalText.columns(ofTerminal: 1) ?? 80) : Int.max
    }

    /// Draws what `snapshot` adds to the previous one.
    ///
    /// Blocks are drawn in content order: the front block as it streams,
    /// and each later one once the blocks before it are done (the API sends
    /// blocks one after another; when it interleaves them, a later block's
    /// text appears, whole so far, when its turn comes). So a snapshot
    /// costs its new output plus O(1), however many blocks are open.
    ///
    /// - Complexity: O(new output) amortised.
    mutating func render(_ snapshot: MessageSnapshot) {
        startMessageIfNew(snapshot)
        drawFromFront(snapshot.content, includingOpen: false)
        out.flush()
    }

    /// Draws from the front block on; stops at the first block still open
    /// unless `includingOpen` (the message is over: draw what there is).
    private mutating func drawFromFront(_ content: ContentList, includingOpen: Bool) {
        while let block = content.block(at: front) {
            if !draw(block, at: front) {
                guard includingOpen else { return }
                drawUnfinished(block, at: front)
            }
            front += 1
        }
    }

    /// Writes the closing summary (stop reason, refusal, usage) and the sources cited.
    mutating func finish(_ snapshot: MessageSnapshot, note: String? = nil) {
        startMessageIfNew(snapshot)
        drawFromFront(snapshot.content, includingOpen: true)
        endLine()
        let usage = snapshot.usage
        var parts: [String] = []
        if let reason = snapshot.stopReason { parts.append("stop: \(reason)") }
        if let details = snapshot.stopDetails, let refusal = Self.describeStopDetails(details) { parts.append(refusal) }
        if let input = usage.inputTokens { parts.append("in \(input)") }
        if let output = usage.outputTokens { parts.append("out \(output) tokens") }
        if snapshot.model != snapshot.requestedModel { parts.append("served by \(snapshot.model)") }
        if let note { parts.append(note) }
        if !sources.lines.isEmpty {
            write("\nSources:\n")
            for (offset, line) in sources.lines.enumerated() { write("[\(offset + 1)] \(TerminalText.sanitized(line))\n") }
        }
        write(dim("\n── " + TerminalText.sanitized(parts.joined(separator: " · "))) + "\n")
        out.flush()
    }

    /// Ends what was drawn of a message that will not be finished (its
    /// stream broke and it is sent again) with `note`, dimmed; a new
    /// renderer draws the next attempt.
    mutating func abandon(note: String) {
        endLine()
        write(dim("── " + TerminalText.sanitized(note)) + "\n")
        out.flush()
    }

    private mutating func startMessageIfNew(_ snapshot: MessageSnapshot) {
        if let message, message.index == snapshot.messageIndex, message.id == snapshot.id { return }
        if message != nil { endLine() }
        message = (snapshot.messageIndex, snapshot.id)
        front = 0
        written = [:]
        activityLines = [:]
        awaitingResult = [:]
        sources = CitationSources()
    }

    // MARK: Drawing one block

    /// Draws what is new in `block`; returns true when it is finished.
    private mutating func draw(_ block: ContentBlock, at index: Int) -> Bool {
        switch block {
        case .text(let text):
            stream(text.text, at: index, prefix: nil)
            guard text.isComplete else { return false }
            let markers = sources.markers(for: text.citations)
            if !markers.isEmpty { write(markers) }
            finishStream(at: index, isText: true)
        case .thinking(let thinking):
            stream(thinking.thinking, at: index, prefix: "thinking: ")
            guard thinking.isComplete else { return false }
            finishStream(at: index, isText: false)
        case .toolUse(let call) where call.kind == .serverToolUse:
            return drawServerCall(call, at: index)
        case .toolUse(let call):
            guard call.isComplete else { return false }
            line(Self.describeClientCall(call), at: index)
            if call.kind == .mcpToolUse { awaitingResult[call.id] = index }
        case .toolResult(let result):
            guard result.isComplete else { return false }
            if awaitingResult.removeValue(forKey: result.toolUseID) != nil {
                line("  " + Self.describe(result), at: index)
            } else {
                // The call was in an earlier response (or never seen).
                line("  " + Self.describe(result), at: index, note: " (result of \(result.toolUseID))")
            }
        case .fallback(let fallback):
            line(
                "↪ \(fallback.fromModel ?? "a model") declined; \(fallback.toModel ?? "another model") continued"
                    + (fallback.trigger.map { " (\(Self.short($0)))" } ?? ""), at: index, dimmed: true)
        case .redactedThinking:
            guard block.isComplete else { return false }
            line("[redacted thinking]", at: index, dimmed: true)
        case .containerUpload(let upload):
            guard block.isComplete else { return false }
            line("[container upload \(upload.start["file_id"]?.stringValue ?? "?")]", at: index, dimmed: true)
        case .compaction(let compaction):
            guard compaction.isComplete else { return false }
            let summary = compaction.content.map { ": " + Self.firstLine($0, limit: 120) } ?? ""
            line("[compaction\(summary)]", at: index, dimmed: true)
        default:
            // Unknown types, and any type added without a line here.
            guard block.isComplete else { return false }
            line("[\(block.type) block]", at: index, dimmed: true)
        }
        return true
    }

    private mutating func stream(_ text: AppendOnlyText, at index: Int, prefix: String?) {
        let done = written[index] ?? 0
        let count = text.utf8Count
        guard count > done || written[index] == nil else { return }
        if cursor != .inBlock(index) {
            // A text block that follows a finished text block flows on.
            if !(prefix == nil && cursor == .afterText) { endLine() }
            cursor = .inBlock(index)
            if let prefix { write(dim(prefix)) }
        }
        if count > done {
            let dimmed = prefix != nil && isTerminal
            if dimmed { write("\u{1B}[2m") }
            text.withUTF8 { bytes in
                let new = UnsafeBufferPointer(rebasing: bytes[done..<bytes.count])
                // Control characters in the model's text (an escape
                // sequence, a carriage return, a C1 CSI) would move the
                // cursor or restyle the screen: they are drawn escaped.
                if let escaped = TerminalText.sanitized(utf8: new, layout: .lines) {
                    out.write(bytes: escaped)
                } else {
                    out.write(bytes: new)
                }
            }
            if dimmed { write("\u{1B}[0m") }
        }
        written[index] = count
    }

    private mutating func finishStream(at index: Int, isText: Bool) {
        written[index] = nil
        if isText && cursor == .inBlock(index) { cursor = .afterText }
    }

    /// A call the stream cut off before its input was complete: drawn with
    /// the input so far, marked, so a truncated stream still shows it.
    private mutating func drawUnfinished(_ block: ContentBlock, at index: Int) {
        guard case .toolUse(let call) = block else { return }
        let text = call.kind == .serverToolUse ? "⚙ " + Self.describeServerCall(call) : Self.describeClientCall(call)
        endActivity(text, at: index, note: " (input incomplete)")
    }

    /// A server tool call: one line while its input streams (redrawn on a
    /// terminal), final when complete; then it waits for its result.
    private mutating func drawServerCall(_ call: ToolUseBlock, at index: Int) -> Bool {
        if call.isComplete {
            endActivity("⚙ " + Self.describeServerCall(call), at: index)
            awaitingResult[call.id] = index
            return true
        }
        // Once cut, later input is off screen: nothing to redraw.
        guard isTerminal, activityLines[index]?.wasCut != true else { return false }
        let drawn = TerminalText.fitted(TerminalText.sanitized("⚙ " + Self.describeServerCall(call)), columns: columns)
        guard drawn.text != activityLines[index]?.text else { return false }
        if cursor == .inBlock(index) {
            write("\r\u{1B}[K")
        } else {
            endLine()
            cursor = .inBlock(index)
        }
        write(drawn.text)
        activityLines[index] = drawn
        return false
    }

    /// The last line of the block at `index`, cut to fit beside `note`: it
    /// replaces the block's activity line when that is the line being drawn.
    private mutating func endActivity(_ text: String, at index: Int, note: String? = nil) {
        if activityLines.removeValue(forKey: index) != nil, cursor == .inBlock(index) {
            write("\r\u{1B}[K")
            cursor = .lineStart
        }
        line(TerminalText.fitted(TerminalText.sanitized(text), columns: columns - (note?.count ?? 0)).text, at: index, note: note)
    }

    /// A whole line for the block at `index`: `text` (dimmed or not) and a
    /// dimmed `note`, both made one safe line first.
    private mutating func line(_ text: String, at index: Int, dimmed: Bool = false, note: String? = nil) {
        endLine()
        let shown = TerminalText.sanitized(text)
        write((dimmed ? dim(shown) : shown) + (note.map { dim(TerminalText.sanitized($0)) } ?? "") + "\n")
        cursor = .lineStart
    }

    private mutating func endLine() {
        if cursor != .lineStart { write("\n") }
        cursor = .lineStart
    }

    private mutating func write(_ text: String) { out.write(text) }

    private func dim(_ text: String) -> String { isTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}
