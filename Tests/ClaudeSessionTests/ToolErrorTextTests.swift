// A tool that throws a Foundation error sends the model (and the
// transcript) a sentence, not "Error Domain=NSCocoaErrorDomain Code=260".

import ClaudeTransport
import Foundation
import IncrementalJSON
import Testing

@testable import ClaudeSession

private struct ReadsAFile: ClientTool {
    struct Arguments: Decodable, Sendable { var path: String }
    var name: String { "read" }
    var description: String { "Reads a file" }
    var inputSchema: JSONValue { JSONSchema.object([.init("path", .string())]).jsonValue }
    func call(_ arguments: Arguments) async throws -> ToolOutput {
        .text(String(decoding: try Data(contentsOf: URL(fileURLWithPath: arguments.path)), as: UTF8.self))
    }
}

@Suite struct ToolErrorTextTests {
    @Test func aFoundationErrorBecomesASentence() async throws {
        let missing = "/nonexistent-\(UUID().uuidString)"
        let input = try JSONValue.parse(Array(#"{"path":"\#(missing)"}"#.utf8))
        let (content, isError) = await ErasedTool(ReadsAFile()).run(input)
        #expect(isError)
        guard case .text(let text) = content else {
            Issue.record("expected text, got \(content)")
            return
        }
        #expect(text == "no such file (Cocoa error 260): \(missing)")
        #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("Error Domain"))
    }
}
