// A self-check for fuzzing: the fast readers (the hot-delta scanner, the
// boundary events, the tool call starts built without a parser) must read
// an event exactly as the full parser does, or decline it.

import IncrementalJSON

extension MessageAccumulator {
    /// For fuzzers and tests: nil when the hot-delta scanner declines `data`
    /// or reads the same index, delta type and payload as the full JSON
    /// parser, and the boundary-event reader declines it or reads what the
    /// parser reads; otherwise what differs. A test hook, not API: behind the
    /// `FuzzTesting` SPI because the fuzz package (Fuzz/Package.swift) is a
    /// package of its own, where `package` access does not reach.
    @_spi(FuzzTesting) public static func _checkHotPathAgreement(_ data: UnsafeRawBufferPointer) -> String? {
        if let boundary = BoundaryEvent.read(data), let differs = checkAgreement(boundary, data) { return differs }
        var scanner = HotDeltaScanner()
        guard let delta = scanner.scanCanonical(data) else { return nil }
        let payload: [UInt8] =
            delta.place == .data
            ? Array(UnsafeRawBufferPointer(rebasing: data[delta.payloadRange]))
            : scanner.unescaped
        let parsed: JSONValue
        do throws(JSONParseError) {
            parsed = try JSONValue.parse(data)
        } catch {
            return "scanner accepted what the parser rejects (\(error))"
        }
        let field = delta.kind.payloadField.description
        guard parsed["type"]?.stringValue == "content_block_delta",
            (try? parsed["index"]?.numberValue?.int()) == delta.index,
            parsed["delta"]?["type"]?.stringValue == delta.kind.wireName.description,
            let text = parsed["delta"]?[field]?.stringValue
        else { return "scanner read a different event than the parser: \(parsed.compactJSON)" }
        return Array(text.utf8) == payload ? nil : "payload differs: parser \(text.debugDescription)"
    }

    /// A boundary event against the full parser. A start's block is
    /// checked as the accumulator uses it: when its range parses alone, the
    /// event must parse, with exactly these three members.
    private static func checkAgreement(_ event: BoundaryEvent, _ data: UnsafeRawBufferPointer) -> String? {
        var block: JSONValue?
        if case .start(_, let range) = event {
            let bytes = UnsafeRawBufferPointer(rebasing: data[range])
            block = try? JSONValue.parse(bytes)
            // A tool call's start built without the parser: the block it
            // makes must be the one the parsed object makes.
            if let built = UsualBlockStarts.toolCall(for: bytes, maxStringBytes: .max) {
                guard let block else { return "tool call start built from what the parser rejects" }
                let parsed = ContentBlock.fromStart(block, isComplete: false)
                if built != parsed || built.start.compactJSON != parsed.start.compactJSON {
                    return "tool call start built as \(built.start.compactJSON), parsed as \(parsed.start.compactJSON)"
                }
            }
            if block == nil { return nil }  // left to the full parser
        }
        let parsed: JSONValue
        do throws(JSONParseError) {
            parsed = try JSONValue.parse(data)
        } catch {
            return "boundary reader accepted what the parser rejects (\(error))"
        }
        let type = parsed["type"]?.stringValue
        let index = try? parsed["index"]?.numberValue?.int()
        let keys = parsed.objectValue?.entries.map(\.key) ?? []
        let agrees: Bool
        switch event {
        case .ping: agrees = type == "ping" && keys == ["type"]
        case .stop(let stop): agrees = type == "content_block_stop" && index == stop && keys == ["type", "index"]
        case .start(let start, _):
            agrees =
                type == "content_block_start" && index == start && keys == ["type", "index", "content_block"]
                && parsed["content_block"] == block
        }
        return agrees ? nil : "boundary reader read a different event than the parser: \(parsed.compactJSON)"
    }
}
