// SnapshotRenderer: draws a response as it builds up.
//
// Snapshots only ever extend earlier ones, so the renderer keeps, per block,
// how many bytes of text it has written and writes only the rest: the cost
// per snapshot is the new text plus O(open blocks). A server-tool activity is
// one line that fills in as its input streams (redrawn in place on a
// terminal) and gets its outcome on the next line when the result arrives.
// Thinking is dimmed on a terminal; plain output has no escape codes.

import ClaudeStreaming
import IncrementalJSON

struct SnapshotRenderer {
    let isTerminal: Bool
    var out: OutputWriter
    /// UTF-8 bytes of text already written, per block index.
    private var written: [Int: Int] = [:]
    /// Index of the block whose output is at the end of the screen.
    private var currentBlock: Int?
    /// Blocks fully handled (everything before this index is done).
    private var doneBlocks = 0
    /// The activity line currently drawn (to redraw it in place).
    private var activityLine: String?

    init(isTerminal: Bool, fileDescriptor: Int32 = 1) {
        self.isTerminal = isTerminal
        out = OutputWriter(fileDescriptor: fileDescriptor)
    }

    mutating func render(_ snapshot: MessageSnapshot) {
        var index = doneBlocks
        let content = snapshot.content
        while let block = content.block(at: index) {
            draw(block, at: index, in: snapshot)
            // A server tool call stays in view until its outcome is drawn.
            let awaitsOutcome: Bool
            if case .toolUse(let call) = block, call.kind == .serverToolUse { awaitsOutcome = written[index] != -1 } else { awaitsOutcome = false }
            if block.isComplete && !awaitsOutcome && index == doneBlocks { doneBlocks += 1 }
            index += 1
        }
        out.flush()
    }

    /// Writes the closing summary (stop reason and usage).
    mutating func finish(_ snapshot: MessageSnapshot, note: String? = nil) {
        endLine()
        let usage = snapshot.usage
        var parts: [String] = []
        if let reason = snapshot.stopReason { parts.append("stop: \(reason)") }
        if let input = usage.inputTokens { parts.append("in \(input)") }
        if let output = usage.outputTokens { parts.append("out \(output) tokens") }
        if snapshot.model != snapshot.requestedModel { parts.append("served by \(snapshot.model)") }
        if let note { parts.append(note) }
        write(dim("\n── " + parts.joined(separator: " · ") + "\n"))
        out.flush()
    }

    // MARK: Drawing one block

    private mutating func draw(_ block: ContentBlock, at index: Int, in snapshot: MessageSnapshot) {
        switch block {
        case .text(let text):
            stream(text.text, at: index, prefix: "")
        case .thinking(let thinking):
            stream(thinking.thinking, at: index, prefix: dim("thinking: "), dimmed: true)
        case .toolUse(let call) where call.kind == .serverToolUse:
            let activity = snapshot.serverToolActivities.first { $0.contentIndex == index }
            drawActivity(call, outcome: activity?.outcome, at: index)
        case .toolUse(let call):
            guard call.isComplete, written[index] == nil else { return }
            written[index] = 0
            begin(index)
            write("→ \(call.name)(\(call.finalInput.compactJSON))\n")
            currentBlock = nil
        case .fallback(let fallback):
            guard written[index] == nil else { return }
            written[index] = 0
            begin(index)
            write(dim("↪ \(fallback.fromModel ?? "?") handed over to \(fallback.toModel ?? "?")\n"))
            currentBlock = nil
        case .toolResult, .redactedThinking, .containerUpload, .compaction, .unknown:
            guard block.isComplete, written[index] == nil else { return }
            written[index] = 0
            if case .toolResult = block { return }  // shown on its call's line
            begin(index)
            write(dim("[\(block.type)]\n"))
            currentBlock = nil
        }
    }

    private mutating func stream(_ text: AppendOnlyText, at index: Int, prefix: String, dimmed: Bool = false) {
        let done = written[index] ?? 0
        guard text.utf8Count > done || written[index] == nil else { return }
        if currentBlock != index {
            begin(index)
            write(prefix)
        }
        if dimmed && isTerminal { write("\u{1B}[2m") }
        text.utf8.withUnsafeBufferPointer { bytes in
            out.write(bytes: UnsafeBufferPointer(rebasing: bytes[done..<bytes.count]))
        }
        if dimmed && isTerminal { write("\u{1B}[0m") }
        written[index] = text.utf8Count
    }

    private mutating func drawActivity(_ call: ToolUseBlock, outcome: ServerToolOutcome?, at index: Int) {
        if written[index] == -1 { return }  // finished with its outcome
        let line = "⚙ " + Self.describe(call)
        if isTerminal {
            if currentBlock != index { begin(index) } else { write("\r\u{1B}[K") }
            write(line)
            activityLine = line
        } else if call.isComplete && written[index] == nil {
            begin(index)
            write(line)
            written[index] = 0
        }
        if let outcome {
            write("\n  " + Self.describe(outcome) + "\n")
            written[index] = -1
            currentBlock = nil
            activityLine = nil
        }
    }

    private mutating func begin(_ index: Int) {
        endLine()
        currentBlock = index
    }

    private mutating func endLine() {
        if currentBlock != nil { write("\n") }
        currentBlock = nil
    }

    private mutating func write(_ text: String) { out.write(text) }

    private func dim(_ text: String) -> String { isTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    // MARK: Text for activities

    static func describe(_ call: ToolUseBlock) -> String {
        switch ServerToolRequest(name: call.name, input: call.input) {
        case .webSearch(let query): return "web search: \(query ?? "…")"
        case .webFetch(let url): return "web fetch: \(url ?? "…")"
        case .codeExecution(let code): return "code: \(code?.split(separator: "\n").first.map(String.init) ?? "…")"
        case .bash(let command): return "bash: \(command ?? "…")"
        case .textEditor(let command, let path): return "editor: \(command ?? "…") \(path ?? "")"
        case .other(let name, let input): return "\(name): \(input.compactJSON)"
        }
    }

    static func describe(_ outcome: ServerToolOutcome) -> String {
        switch outcome {
        case .webSearchResults(let results):
            let titles = results.prefix(3).map { "\($0.title ?? "untitled") <\($0.url ?? "")>" }
            return "→ \(results.count) results: " + titles.joined(separator: "; ")
        case .webFetch(let url, let retrievedAt, _):
            return "→ fetched \(url ?? "?")" + (retrievedAt.map { " at \($0)" } ?? "")
        case .execution(let stdout, let stderr, let code, _):
            let output = (stdout ?? "").split(separator: "\n").prefix(3).joined(separator: " ⏎ ")
            return "→ exit \(code.map(String.init) ?? "?")" + (output.isEmpty ? "" : ": \(output)")
                + ((stderr ?? "").isEmpty ? "" : " (stderr: \(stderr ?? ""))")
        case .error(let type, let code): return "→ error \(code ?? type)"
        case .other(let block): return "→ \(block.type)"
        }
    }
}
