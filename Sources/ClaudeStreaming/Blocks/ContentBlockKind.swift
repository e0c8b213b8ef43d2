// What one block type knows about itself.
//
// Every block type is a struct that conforms to `_ContentBlockKind`, in a
// file of its own: how it is typed from its start object, which non-hot
// deltas it takes, what stopping does to it, its API JSON and its one-line
// description. `ContentBlock` names the types in three lines each, all in
// ContentBlock.swift: the public case (what users switch on), its line in
// `_visit` (the one switch from a case to its kind) and its entry in
// `_kinds` (what `fromStart` asks). Everything else goes through the kind.
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
//     extension WidgetBlock: _ContentBlockKind {
//         static let _types: Set<String> = ["widget"]
//         static let _deltas: [String: _Delta<Self>] = ["widget_delta": _Delta(_addPart)]
//         init(_start start: JSONValue, type: String, isComplete: Bool) { … }
//         var _wrapped: ContentBlock { .widget(self) }
//         var _detail: String { "\(parts.count) parts" }
//         private static func _addPart(_ block: inout WidgetBlock, _ delta: JSONValue) { … }
//     }
//
//     // ContentBlock.swift: the case, its `_visit` line, its `_kinds` entry
//     case widget(WidgetBlock)
//     case .widget(let b): reader.read(b)
//     WidgetBlock.self,
//
// The dispatch is generic, not existential: `_visit` calls a reader's
// generic method with the concrete block, which the optimiser specialises,
// so `isComplete` costs what a plain switch costs and no block is boxed.

import IncrementalJSON

/// One block type: a struct in its own file, registered in `ContentBlock`.
protocol _ContentBlockKind: Sendable, Hashable {
    /// The `type`s this kind types. Checked before `_takes` (the catch-all
    /// kinds leave it empty and decide in `_takes`).
    static var _types: Set<String> { get }
    /// For types not in any kind's `_types`: whether this kind takes the
    /// block (asked in `_kinds` order). Defaults to false.
    static func _takes(type: String, start: JSONValue) -> Bool
    /// The non-hot deltas this kind applies, by delta `type`.
    static var _deltas: [String: _Delta<Self>] { get }

    /// The block typed from its start object.
    init(_start start: JSONValue, type: String, isComplete: Bool)

    var start: JSONValue { get }
    var isComplete: Bool { get set }
    /// The block's `type` as sent.
    var _type: String { get }
    /// The block in its `ContentBlock` case.
    var _wrapped: ContentBlock { get }
    /// Ends the block: finishes any JSON its parser was building.
    mutating func _finish(parser: IncrementalJSONParser?)
    /// A delta whose type no kind registered; true when kept.
    mutating func _keepUnknownDelta(_ delta: JSONValue) -> Bool
    /// The API JSON (`start` with what deltas built written over it).
    var _json: JSONValue { get }
    /// What ``ContentBlock/description`` shows between the parentheses.
    var _detail: String { get }
}

extension _ContentBlockKind {
    static func _takes(type: String, start: JSONValue) -> Bool { false }
    static var _deltas: [String: _Delta<Self>] { [:] }
    var _type: String { start["type"]?.stringValue ?? "" }
    mutating func _finish(parser: IncrementalJSONParser?) {}
    mutating func _keepUnknownDelta(_ delta: JSONValue) -> Bool { false }
    var _json: JSONValue { start }
}

/// How one delta type changes a block of kind `Block`: one table entry in
/// the kind's `_deltas`, and the function it names.
struct _Delta<Block: _ContentBlockKind>: Sendable {
    let apply: @Sendable (inout Block, JSONValue) -> Void
    init(_ apply: @escaping @Sendable (inout Block, JSONValue) -> Void) { self.apply = apply }
}

/// Something to do with a block, whatever its kind: `ContentBlock._visit`
/// calls `read` with the concrete block.
protocol _BlockReader {
    associatedtype Result
    func read<Block: _ContentBlockKind>(_ block: Block) -> Result
}

extension ContentBlock {
    /// The block typed from its start object (or an entry of
    /// `message_start`'s content, which arrives `complete`).
    static func fromStart(_ start: JSONValue, isComplete: Bool) -> ContentBlock {
        let type = start["type"]?.stringValue ?? ""
        let kind = _kindsByType[type] ?? _kinds.first { $0._takes(type: type, start: start) } ?? OpaqueBlock.self
        return _make(kind, start: start, type: type, isComplete: isComplete)
    }

    private static func _make<Kind: _ContentBlockKind>(
        _ kind: Kind.Type, start: JSONValue, type: String, isComplete: Bool
    ) -> ContentBlock {
        Kind(_start: start, type: type, isComplete: isComplete)._wrapped
    }

    /// Each registered `type`, and the kind that types it.
    private static let _kindsByType: [String: any _ContentBlockKind.Type] = {
        var table: [String: any _ContentBlockKind.Type] = [:]
        for kind in _kinds { for type in kind._types { table[type] = kind } }
        return table
    }()

    /// What a non-hot delta did to a block.
    enum _DeltaOutcome {
        /// Applied, or kept for a block type this package does not know.
        case applied
        /// An unknown delta type for a known block: skipped, never fatal.
        case skipped
        /// A known delta type sent to a block of another kind.
        case wrongBlock
    }

    /// Applies a delta of `type` that the hot path did not take.
    mutating func _apply(delta type: String, _ delta: JSONValue) -> _DeltaOutcome {
        let outcome = _visit(_ApplyDelta(type: type, delta: delta))
        if let block = outcome.block { self = block }
        return outcome.result
    }

    /// Marks the block stopped, finishing any JSON it was parsing.
    mutating func markComplete(finishing parser: IncrementalJSONParser?) {
        self = _visit(_Complete(parser: parser))
    }

    /// Whether any kind registered `type` as a delta.
    static func _isRegisteredDelta(_ type: String) -> Bool { _deltaTypes.contains(type) }

    private static let _deltaTypes: Set<String> = Set(_kinds.flatMap { _deltaNames($0) })

    private static func _deltaNames<Kind: _ContentBlockKind>(_ kind: Kind.Type) -> [String] { Array(Kind._deltas.keys) }
}

private struct _ApplyDelta: _BlockReader {
    let type: String
    let delta: JSONValue

    func read<Block: _ContentBlockKind>(_ block: Block) -> (block: ContentBlock?, result: ContentBlock._DeltaOutcome) {
        var changed = block
        if let entry = Block._deltas[type] {
            entry.apply(&changed, delta)
            return (changed._wrapped, .applied)
        }
        if ContentBlock._isRegisteredDelta(type) { return (nil, .wrongBlock) }
        return changed._keepUnknownDelta(delta) ? (changed._wrapped, .applied) : (nil, .skipped)
    }
}

private struct _Complete: _BlockReader {
    let parser: IncrementalJSONParser?

    func read<Block: _ContentBlockKind>(_ block: Block) -> ContentBlock {
        var done = block
        done._finish(parser: parser)
        done.isComplete = true
        return done._wrapped
    }
}

struct _IsComplete: _BlockReader {
    func read<Block: _ContentBlockKind>(_ block: Block) -> Bool { block.isComplete }
}

struct _Start: _BlockReader {
    func read<Block: _ContentBlockKind>(_ block: Block) -> JSONValue { block.start }
}

struct _TypeName: _BlockReader {
    func read<Block: _ContentBlockKind>(_ block: Block) -> String { block._type }
}

struct _JSON: _BlockReader {
    func read<Block: _ContentBlockKind>(_ block: Block) -> JSONValue { block._json }
}

struct _Detail: _BlockReader {
    func read<Block: _ContentBlockKind>(_ block: Block) -> String { block._detail }
}
