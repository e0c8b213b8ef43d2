// `chat` against a tool that writes far too much: the next request must
// stay far below the API's 32 MB, whatever the tool wrote, and chat's own
// memory must follow the result limit, not the output. Binary output is
// described, long text is cut (to --tool-output-limit, 1 MiB by default),
// and the run goes on normally. Peak memory from GNU time (it forks, so
// the figure is chat's own), checked in the plain run only.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

/// `chat` with a tool `name=command` called once, then text; its run, the
/// result it sent, and the size of the request that sent it.
private func runWithTool(_ command: String, flags: [String] = [], measuringPeak: Bool = false) throws -> (
    run: ProgramUnderTest.Result, result: JSONValue?, requestBytes: Int?
) {
    guard let chatExecutable else { throw ServerStartError(description: "claude-stream not built") }
    let server = try ChatScript(oneCallThenText("out"))
    var environment = ProcessInfo.processInfo.environment
    environment["ANTHROPIC_API_KEY"] = chatKey
    let run = try ProgramUnderTest(
        executable: chatExecutable.path, ["chat", "Go", "--final-json", "--base-url", server.base] + flags + ["--tool", "out=\(command)"],
        environment: environment, measuringPeak: measuringPeak
    ).finish()
    let bodies = try server.bodies()
    return (run, bodies.count > 1 ? lastResults(bodies[1]).first : nil, try server.bodySizes().dropFirst().first)
}

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"), .serialized)
struct ToolOutputLimitTests {
    @Test func a100MBBinaryOutputIsDescribedAndTheRequestStaysSmall() throws {
        let (run, result, requestBytes) = try runWithTool("head -c 100000000 /dev/zero", measuringPeak: ProgramUnderTest.peakMeter != nil)
        #expect(run.status == 0, "\(run.stderr)")
        print("chat with a 100 MB tool output: peak \(run.peakResidentBytes >> 10) KiB, next request \(requestBytes ?? -1) bytes")
        #expect(result?["content"]?.stringValue == "[binary output, 100000000 bytes, not sent]", "\(String(describing: result))")
        #expect(result?["is_error"] == nil)
        #expect((requestBytes ?? .max) < 10_000, "\(String(describing: requestBytes)) bytes")
        // Bounded by the cap, not by the 100 MB written (it was 385 MiB when
        // the first 16 MiB were kept and escaped).
        if ProgramUnderTest.peakMeter != nil && !ProgramUnderTest.underAddressSanitizer {
            #expect(run.peakResidentBytes > 0 && run.peakResidentBytes < 200 << 20, "peak \(run.peakResidentBytes >> 20) MiB")
        }
    }

    @Test func longTextIsCutToTheDefaultMebibyte() throws {
        let (run, result, requestBytes) = try runWithTool("yes 'a line of text' | head -c 5000000")
        #expect(run.status == 0, "\(run.stderr)")
        let text = result?["content"]?.stringValue ?? ""
        let (size, start, end) = (text.utf8.count, String(text.prefix(15)), String(text.suffix(60)))
        #expect(size <= 1 << 20 && size > (1 << 20) - 100, "\(size)")
        #expect(start == "a line of text\n" && end.hasSuffix(" of 5000000 bytes are shown]"), "\(end)")
        #expect((requestBytes ?? .max) < (1 << 20) + 100_000, "\(String(describing: requestBytes)) bytes")
    }

    @Test func theFlagSetsTheLimit() throws {
        let (run, result, _) = try runWithTool("seq 100000", flags: ["--tool-output-limit", "2000"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = result?["content"]?.stringValue ?? ""
        let (size, start, end) = (text.utf8.count, String(text.prefix(6)), String(text.suffix(60)))
        #expect(size <= 2000 && start == "1\n2\n3\n" && end.hasSuffix(" of 588895 bytes are shown]"), "\(end)")
    }

    @Test(arguments: ["0", "-5", "abc", "1.5", "8388609", ""])
    func aBadLimitIsAUsageError(value: String) throws {
        let run = try runChat(["Go", "--tool-output-limit", value])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--tool-output-limit"), "\(run.stderr)")
    }

    /// 1 GB through the tool's pipe: chat keeps the limit, not the output.
    @Test(
        .enabled(if: ProgramUnderTest.peakMeter != nil, "/usr/bin/time (GNU time) measures the peak"),
        .disabled(if: ProgramUnderTest.underAddressSanitizer, "AddressSanitizer inflates peak memory; checked in the plain run"))
    func aGigabyteWriterCostsChatLessThan200MiB() throws {
        let (run, result, requestBytes) = try runWithTool("head -c 1000000000 /dev/zero", measuringPeak: true)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(result?["content"]?.stringValue == "[binary output, 1000000000 bytes, not sent]")
        #expect((requestBytes ?? .max) < 10_000)
        #expect(run.peakResidentBytes < 200 << 20, "peak \(run.peakResidentBytes >> 20) MiB")
        print("chat with a 1 GB tool output: peak \(run.peakResidentBytes >> 10) KiB, next request \(requestBytes ?? -1) bytes")
    }
}
