// Foundation errors described in words: what failed and why, never
// "The operation could not be completed. (NSCocoaErrorDomain error 256.)".

import Foundation
import Testing

@testable import ClaudeTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct SystemErrorDescriptionTests {
    /// What `Process.run()` throws when the environment is too large (a
    /// 300 KB tool-use id in `CLAUDE_TOOL_USE_ID`): a Cocoa error 256 whose
    /// cause, E2BIG, is only in its userInfo.
    @Test func anUnderlyingPOSIXErrorIsNamed() {
        let error = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.fileReadUnknown.rawValue,
            userInfo: [
                NSFilePathErrorKey: "/bin/sh",
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(E2BIG)),
            ])
        #expect(error.localizedDescription.contains("NSCocoaErrorDomain error 256"), "the text this replaces")
        #expect(SystemErrorDescription.phrase(for: error) == "argument list too long (POSIX error 7): /bin/sh")
    }

    @Test func cocoaFileErrorsAreWords() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-file-for-a-test"))
            Issue.record("read a file that does not exist")
        } catch {
            #expect(SystemErrorDescription.phrase(for: error) == "no such file (Cocoa error 260): /nonexistent-file-for-a-test")
        }
        #expect(
            SystemErrorDescription.phrase(for: CocoaError(.fileReadCorruptFile))
                == "the file is damaged or not in the expected format (Cocoa error 259)")
    }

    @Test func decodingErrorsNameThePath() {
        struct Inner: Decodable { var x: Int }
        struct Outer: Decodable { var a: [Inner] }
        do {
            _ = try JSONDecoder().decode(Outer.self, from: Data(#"{"a":[{"x":1},{"y":2}]}"#.utf8))
            Issue.record("decoded without x")
        } catch {
            #expect(SystemErrorDescription.phrase(for: error) == #"the key "x" is missing at .a[1]"#)
        }
    }

    @Test func aSwiftErrorDescribesItself() {
        struct Broken: Error, CustomStringConvertible { var description: String { "the service is down" } }
        #expect(SystemErrorDescription.phrase(for: Broken()) == "the service is down")
    }

    /// Before, the reason was libcurl's text alone (or, for some codes,
    /// Foundation's "The operation could not be completed").
    @Test func aRefusedConnectionNamesTheServer() async throws {
        let client = MessagesClient(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "http://127.0.0.1:9")), credentials: .apiKey("sk-ant-test-0123456789"), idleTimeout: 5))
        do throws(TransportError) {
            _ = try await client.send(MessageRequest(model: .opus5, messages: [.user("Hello")]))
            Issue.record("expected a network error")
        } catch {
            guard case .network(let reason) = error else {
                Issue.record("expected .network, got \(error)")
                return
            }
            #expect(reason.hasPrefix("could not connect to 127.0.0.1:9"), "\(reason)")
            #expect(!reason.contains("The operation could not be completed"), "\(reason)")
        }
    }

    @Test func urlErrorsWithoutATextStillSayWhatHappened() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/messages"))
        let lost = URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: url])
        #expect(SystemErrorDescription.phrase(for: lost).hasPrefix("the connection to api.example.com was lost"))
        #expect(!SystemErrorDescription.phrase(for: lost).contains("The operation could not be completed"))
    }
}
