// The one switch (CLAUDE_STREAMING_GENERAL_PATH, read as the library
// loads) turns the parser's one-step reading of usual blocks off. CI runs
// the suites once with it and once without; this says which run this is,
// and that the parser follows it, so a switch that is not read fails here.

import Foundation
import Testing
import _ScanAcceleration

@testable import ServerSentEvents

/// Whether this process was started with the general path asked for.
let generalPathRequested: Bool = {
    guard let value = ProcessInfo.processInfo.environment["CLAUDE_STREAMING_GENERAL_PATH"] else { return false }
    return !value.isEmpty && value != "0"
}()

@Suite struct GeneralPathSwitchTests {
    @Test func theSwitchIsReadAsTheEnvironmentSays() {
        #expect((_scan_general_path() != 0) == generalPathRequested)
        #expect(SSEParser().readsWholeBlocks == !generalPathRequested)
    }

    /// With either setting, the usual block is the same event.
    @Test func theUsualBlockIsOneEventEitherWay() throws {
        var parser = SSEParser()
        let events = try parser.feed(Array("event: ping\ndata: {}\n\nevent: ping\ndata: {}\n\n".utf8))
        #expect(events.map(\.eventType) == ["ping", "ping"])
        #expect(events.map(\.streamOffset) == [21, 43])
    }
}
