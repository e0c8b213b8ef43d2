// TranscriptFile on its own: private, written through links, replaced
// atomically, and a file that cannot be read is refused and left as it is.

import ClaudeSession
import ClaudeTransport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of its own per test, removed at the end.
private struct Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func conversation(_ prompt: String) -> SessionTranscript {
    var transcript = SessionTranscript(setup: RequestSetup(model: .opus5, system: "Be brief", maxTokens: 100))
    transcript.appendPrompt([.text(prompt)])
    return transcript
}

@Suite struct TranscriptFileTests {
    @Test func aMissingFileReadsAsNoConversation() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(try TranscriptFile(path: scratch.file("none.json")).read() == nil)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("dangling.json"), withDestinationPath: "none.json")
        #expect(try TranscriptFile(path: scratch.file("dangling.json")).readBytes() == nil)
        try Data(" \n".utf8).write(to: URL(fileURLWithPath: scratch.file("blank.json")))
        #expect(try TranscriptFile(path: scratch.file("blank.json")).read() == nil)
    }

    @Test func whatIsWrittenIsReadBackAndANewFileIsPrivate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = TranscriptFile(path: scratch.file("t.json"))
        try file.write(conversation("Hello"))
        #expect(mode(file.path) == 0o600)
        let read = try #require(try file.read())
        #expect(read.setup.system == "Be brief")
        #expect(read.messages.count == 1)
        #expect(try scratch.names() == ["t.json"])
    }

    @Test func anExistingFileKeepsItsMode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = TranscriptFile(path: scratch.file("shared.json"))
        try file.write(conversation("One"))
        chmod(file.path, 0o640)
        try file.write(conversation("Two"))
        #expect(mode(file.path) == 0o640)
        #expect(try file.readBytes() == conversation("Two").jsonBytes())
        #expect(try scratch.names() == ["shared.json"])
    }

    @Test func aSymlinkIsWrittenThroughToItsTarget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.json"), withDestinationPath: "real/target.json")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("outer.json"), withDestinationPath: "link.json")
        try TranscriptFile(path: scratch.file("outer.json")).write(conversation("Through"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("outer.json")) == "link.json")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file("link.json")) == "real/target.json")
        #expect(mode(scratch.file("real/target.json")) == 0o600)
        #expect(try TranscriptFile(path: scratch.file("real/target.json")).read()?.messages.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("real")) == ["target.json"])
    }

    @Test(arguments: [
        "{\"model\":\"m\",\"messages\":[",
        #"{"model":"m","messages":{"role":"user","content":"precious"}}"#,
        #"[{"role":"user","content":"precious"}]"#,
    ])
    func aFileThatIsNotATranscriptIsRefusedAndLeftAsItIs(text: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = TranscriptFile(path: scratch.file("t.json"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
        let error = try #require(throws: TranscriptFileError.self) { try file.read() }
        guard case .invalid = error.kind else {
            Issue.record("expected .invalid, got \(error.kind)")
            return
        }
        #expect(error.isReadFailure)
        #expect(error.description.contains(file.path))
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == text)
    }

    @Test func aDirectoryIsNotARegularFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let error = try #require(throws: TranscriptFileError.self) { try TranscriptFile(path: scratch.path).readBytes() }
        #expect(error.kind == .notARegularFile)
        #expect(error.description == "cannot read \(scratch.path): not a regular file")
    }

    @Test func aWriteThatCannotHappenSaysWhichStepAndLeavesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = scratch.file("missing/t.json")
        let error = try #require(throws: TranscriptFileError.self) { try TranscriptFile(path: missing).write(conversation("Hi")) }
        #expect(error.kind == .cannotWrite(step: .createTemporary(directory: scratch.file("missing")), errno: ENOENT))
        #expect(!error.isReadFailure)
        #expect(error.description.hasPrefix("cannot write the transcript \(missing): creating a temporary file in"))
        #expect(error.description.hasSuffix(String(cString: strerror(ENOENT))))
        #expect(try scratch.names().isEmpty)
    }

    @Test func aLinkLoopIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(atPath: scratch.file("a"), withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("b"), withDestinationPath: "a")
        let error = try #require(throws: TranscriptFileError.self) { try TranscriptFile(path: scratch.file("a")).write(conversation("Hi")) }
        #expect(error.kind == .tooManySymbolicLinks)
        #expect(try scratch.names() == ["a", "b"])
    }
}
