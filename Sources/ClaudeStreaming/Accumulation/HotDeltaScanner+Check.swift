// A self-check for fuzzing: the fast scanner must read an event exactly as
// the full parser does, or decline it.

import IncrementalJSON

extension MessageAccumulator {
    /// For fuzzers and tests: nil when the hot-delta scanner declines `data`
    /// or reads the same index, delta type and payload as the full JSON
    /// parser; otherwise what differs. A test hook, not API: behind the
    /// `FuzzTesting` SPI because the fuzz package (Fuzz/Package.swift) is a
    /// package of its own, where `package` access does not reach.
    @_spi(FuzzTesting) public static func _checkHotPathAgreement(_ data: UnsafeRawBufferPointer) -> String? {
        var scanner = HotDeltaScanner()
        guard let delta = scanner.scan(data) else { return nil }
        let payload: [UInt8] =
            delta.payloadIsInData
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
}
