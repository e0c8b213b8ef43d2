// RunInterruption's deadline: a run that ends in time says it was not
// stopped; one that does not is cancelled, its shell tool killed with its
// group, and it returns soon after, saying why. The runs here leave the
// test process's signals alone (Ctrl-C still stops `swift test`); the
// signals are checked end to end on `claude-stream chat`, in
// ChatCommandTests.

#if os(Linux) || os(macOS)

import ClaudeSession
import ClaudeShellTools
import IncrementalJSON
import Testing

@Suite struct RunInterruptionTests {
    @Test func aRunThatEndsInTimeIsNotStopped() async {
        let (value, stoppedBy) = await RunInterruption.run(deadline: .now + .seconds(600), handlingSignals: false) { 42 }
        #expect(value == 42)
        #expect(stoppedBy == nil)
        let (_, withoutDeadline) = await RunInterruption.run(deadline: nil, handlingSignals: false) { "done" }
        #expect(withoutDeadline == nil)
    }

    @Test func theDeadlineCancelsTheRunAndKillsItsTool() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let tool = ShellTool(
            name: "t", command: "sleep 600",
            options: ShellToolOptions(environment: ["PATH": "/usr/bin:/bin"], limits: ShellToolLimits(timeout: .seconds(600))))
        let (result, stoppedBy) = await RunInterruption.run(deadline: .now + .milliseconds(300), handlingSignals: false) {
            await tool.run(id: "toolu_1", input: .object([]))
        }
        #expect(stoppedBy == .timeout)
        #expect(stoppedBy?.exitStatus == 3)
        #expect(result.isError)
        #expect(result.content.stringValue?.contains("interrupted") == true, "\(result.content)")
        // Before the command could have ended by itself (600 s, and the
        // tool's own limit 600 s): it was killed at the deadline. Loose: under
        // AddressSanitizer on a busy machine the whole test process was seen
        // starved of CPU for 330 s.
        #expect(clock.now - start < .seconds(590))
        // A deadline stops its own run only.
        let (_, next) = await RunInterruption.run(deadline: nil, handlingSignals: false) { 1 }
        #expect(next == nil)
        #expect(RunInterruption.signalReceived == nil)
    }

    @Test func aSignalsExitStatusFollowsTheShell() {
        #expect(RunInterruption.Reason.signal(2).exitStatus == 130)
        #expect(RunInterruption.Reason.signal(15).exitStatus == 143)
    }
}

#endif
