// What one block type knows about itself.
//
// Every block type is a struct that conforms to `ContentBlockKind`, in a
// file of its own: how it is typed from its start object, which non-hot
// deltas it takes, what stopping does to it, its API JSON and its one-line
// description. `ContentBlock` names the types in three lines each, all in
// ContentBlock.swift: the public case (what users switch on), its line in
// `visit` (the one switch from a case to its kind) and its entry in
// `kinds` (what `fromStart` asks). Everything else goes through the kind.
//
// Worked example: a made-up `widget` block whose `widget_delta`s each add a
// part (Tests/ClaudeStreamingTests/Blocks/AddingABlockTypeTests.swift
// builds a copy of the package with exactly this and counts the edits):
//
//     // Blocks/WidgetBlock.swift, the one new file
//     public struct WidgetBlock: Sendable, Hashable {
//         public var start: JSONValue
//         public internal(set) var parts: [String]
//         public internal(set) var isComplete: Bool
//     }
//     extension WidgetBlock: ContentBlockKind {
//         static let types: Set<String> = ["widget"]
//         static let deltas: [String: Delta<Self>] = ["widget_delta": Delta(addPart)]
//         init(_start start: JSONValue, type: String, isComplete: Bool) { … }
//         var wrapped: ContentBlock { .widget(self) }
//         var detail: String { "\(parts.count) parts" }
//         private static func addPart(_ block: inout WidgetBlock, _ delta: JSONValue) { … }
//     }
//
//     // ContentBlock.swift: the case, its `visit` line, its `kinds` entry
//     case widget(WidgetBlock)
//     case .widget(let b): reader.read(b)
//     WidgetBlock.self,
//
// The dispatch is generic, not existential: `visit` calls a reader's
// generic method with the concrete block, which the optimiser specialises,
// so `isComplete` costs what a plain switch costs and no block is boxed.

import IncrementalJSON

/// One block type: a struct in its own file, registered in `ContentBlock`.
protocol ContentBlockKind: Sendable, Hashable {
    /// The `type`s this kind types. Checked before `takes` (the catch-all
    /// kinds leave it empty and decide in `takes`).
    static var types: Set<String> { get }
    /// For types not in any kind's `types`: whether this kind takes the
    /// block (asked in `kinds` order). Defaults to false.
    static func takes(type: String, start: JSONValue) -> Bool
    /// The non-hot deltas this kind applies, by delta `type`.
    static var deltas: [String: Delta<Self>] { get }

    /// The block typed from its start object.
    init(_start start: JSONValue, type: String, isComplete: Bool)

    var start: JSONValue { get }
    var isComplete: Bool { get set }
    /// The block's `type` as sent.
    var apiType: String { get }
    /// The block in its `ContentBlock` case.
    var wrapped: ContentBlock { get }
    /// Ends the block: finishes any JSON its parser was building.
    mutating func finishStreaming(parser: IncrementalJSONParser?)
    /// A delta whose type no kind registered; true when kept.
    mutating func keepUnknownDelta(_ delta: JSONValue) -> Bool
    /// The API JSON (`start` with what deltas built written over it).
    var blockJSON: JSONValue { get }
    /// What ``ContentBlock/description`` shows between the parentheses.
    var detail: String { get }
}

extension ContentBlockKind {
    static func takes(type: String, start: JSONValue) -> Bool { false }
    static var deltas: [String: Delta<Self>] { [:] }
    var apiType: String { start["type"]?.stringValue ?? "" }
    mutating func finishStreaming(parser: IncrementalJSONParser?) {}
    mutating func keepUnknownDelta(_ delta: JSONValue) -> Bool { false }
    var blockJSON: JSONValue { start }
}

/// How one delta type changes a block of kind `Block`: one table entry in
/// the kind's `deltas`, and the function it names.
struct Delta<Block: ContentBlockKind>: Sendable {
    let apply: @Sendable (inout Block, JSONValue) -> Void
    init(_ apply: @escaping @Sendable (inout Block, JSONValue) -> Void) { self.apply = apply }
}

/// Something to do with a block, whatever its kind: `ContentBlock.visit`
/// calls `read` with the concrete block.
protocol BlockReader {
    associatedtype Result
    func read<Block: ContentBlockKind>(_ block: Block) -> Result
}

extension ContentBlock {
    /// The block typed from its start object (or an entry of
    /// `message_start`'s content, which arrives `complete`).
    static func fromStart(_ start: JSONValue, isComplete: Bool) -> ContentBlock {
        let type = start["type"]?.stringValue ?? ""
        let kind = kindsByType[type] ?? kinds.first { $0.takes(type: type, start: start) } ?? OpaqueBlock.self
        return makeBlock(kind, start: start, type: type, isComplete: isComplete)
    }

    private static func makeBlock<Kind: ContentBlockKind>(
        _ kind: Kind.Type, start: JSONValue, type: String, isComplete: Bool
    ) -> ContentBlock {
        Kind(_start: start, type: type, isComplete: isComplete).wrapped
    }

    /// Each registered `type`, and the kind that types it.
    private static let kindsByType: [String: any ContentBlockKind.Type] = {
        var table: [String: any ContentBlockKind.Type] = [:]
        for kind in kinds { for type in kind.types { table[type] = kind } }
        return table
    }()

    /// What a non-hot delta did to a block.
    enum DeltaOutcome {
        /// Applied, or kept for a block type this package does not know.
        case applied
        /// An unknown delta type for a known block: skipped, never fatal.
        case skipped
        /// A known delta type sent to a block of another kind.
        case wrongBlock
    }

    /// Applies a delta of `type` that the hot path did not take.
    mutating func applyKindDelta(delta type: String, _ delta: JSONValue) -> DeltaOutcome {
        let outcome = visit(ApplyDelta(type: type, delta: delta))
        if let block = outcome.block { self = block }
        return outcome.result
    }

    /// Marks the block stopped, finishing any JSON it was parsing.
    mutating func markComplete(finishing parser: IncrementalJSONParser?) {
        self = visit(Complete(parser: parser))
    }

    /// Whether any kind registered `type` as a delta.
    static func isRegisteredDelta(_ type: String) -> Bool { deltaTypes.contains(type) }

    private static let deltaTypes: Set<String> = Set(kinds.flatMap { deltaNames($0) })

    private static func deltaNames<Kind: ContentBlockKind>(_ kind: Kind.Type) -> [String] { Array(Kind.deltas.keys) }
}

private struct ApplyDelta: BlockReader {
    let type: String
    let delta: JSONValue

    func read<Block: ContentBlockKind>(_ block: Block) -> (block: ContentBlock?, result: ContentBlock.DeltaOutcome) {
        var changed = block
        if let entry = Block.deltas[type] {
            entry.apply(&changed, delta)
            return (changed.wrapped, .applied)
        }
        if ContentBlock.isRegisteredDelta(type) { return (nil, .wrongBlock) }
        return changed.keepUnknownDelta(delta) ? (changed.wrapped, .applied) : (nil, .skipped)
    }
}

private struct Complete: BlockReader {
    let parser: IncrementalJSONParser?

    func read<Block: ContentBlockKind>(_ block: Block) -> ContentBlock {
        var done = block
        done.finishStreaming(parser: parser)
        done.isComplete = true
        return done.wrapped
    }
}

struct IsComplete: BlockReader {
    func read<Block: ContentBlockKind>(_ block: Block) -> Bool { block.isComplete }
}

struct Start: BlockReader {
    func read<Block: ContentBlockKind>(_ block: Block) -> JSONValue { block.start }
}

struct TypeName: BlockReader {
    func read<Block: ContentBlockKind>(_ block: Block) -> String { block.apiType }
}

struct JSON: BlockReader {
    func read<Block: ContentBlockKind>(_ block: Block) -> JSONValue { block.blockJSON }
}

struct Detail: BlockReader {
    func read<Block: ContentBlockKind>(_ block: Block) -> String { block.detail }
}
