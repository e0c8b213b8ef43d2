// Limits: the error names the first byte past the limit, the same offset
// under every chunking, and a failed parser stays failed.

import ServerSentEvents
import Testing

@Suite struct LimitTests {
    private let chunkings: [Chunking] = [.whole, .every(1), .every(2), .every(3), .every(7)]

    @Test func lineTooLongNamesOffsetUnderEveryChunking() {
        let input = "data: ok\n\n" + "data: " + String(repeating: "x", count: 30) + "\n\n"
        let limits = SSELimits(maxLineBytes: 20)
        for chunking in chunkings {
            let outcome = parse(input, chunking, limits: limits)
            #expect(outcome.events.map(\.dataString) == ["ok"], "\(chunking)")
            #expect(outcome.error == SSEError(reason: .lineTooLong(limit: 20), offset: 10 + 20), "\(chunking)")
        }
    }

    @Test func unterminatedLongLineAlsoFails() {
        let outcome = parse(String(repeating: ":", count: 50), .every(7), limits: SSELimits(maxLineBytes: 10))
        #expect(outcome.error?.offset == 10)
    }

    @Test func lineExactlyAtLimitIsAccepted() {
        let outcome = parse("data: 12345\n\n", limits: SSELimits(maxLineBytes: 11))
        #expect(outcome.error == nil)
        #expect(outcome.events.map(\.dataString) == ["12345"])
    }

    @Test func partialBomBytesCountOnceTowardTheLineLimit() {
        // EF then "ab": a 3-byte line, not a BOM; exactly at a 3-byte limit.
        let input: [UInt8] = [0xEF, 0x61, 0x62, 0x0A]
        for chunking in chunkings {
            #expect(parse(input, chunking, limits: SSELimits(maxLineBytes: 3)).error == nil, "\(chunking)")
            #expect(parse(input, chunking, limits: SSELimits(maxLineBytes: 2)).error?.offset == 2, "\(chunking)")
        }
    }

    @Test func eventTooLargeAcrossLines() {
        // data buffer: "aaaa" (4) + LF + "bbbb" would be 9 > 8; the first byte
        // past the limit is the 4th 'b' at offset 11 + 6 + 3 = 20.
        let input = "data: aaaa\ndata: bbbb\n\n"
        let limits = SSELimits(maxEventBytes: 8)
        for chunking in chunkings {
            let outcome = parse(input, chunking, limits: limits)
            #expect(outcome.error == SSEError(reason: .eventTooLarge(limit: 8), offset: 20), "\(chunking)")
        }
    }

    @Test func eventAtLimitIsAccepted() {
        let outcome = parse("data: aaa\ndata: bbbb\n\n", limits: SSELimits(maxEventBytes: 8))
        #expect(outcome.events.map(\.dataString) == ["aaa\nbbbb"])
    }

    @Test func tinyLimitsStillFailCleanly() {
        let zero = parse("data: x\n\n", .every(1), limits: SSELimits(maxLineBytes: 0, maxEventBytes: 0))
        #expect(zero.error == SSEError(reason: .lineTooLong(limit: 0), offset: 0))
        let blankOnly = parse("\n\n\r\n", .every(1), limits: SSELimits(maxLineBytes: 0))
        #expect(blankOnly.error == nil)
        let emptyData = parse("data\n\n", limits: SSELimits(maxEventBytes: 0))
        #expect(emptyData.error == nil)
        #expect(emptyData.events.count == 1)
        let oneByte = parse("data: x\n\n", limits: SSELimits(maxEventBytes: 0))
        #expect(oneByte.error == SSEError(reason: .eventTooLarge(limit: 0), offset: 6))
    }

    @Test func failedParserRethrowsAndDescribesOffset() {
        var parser = SSEParser(limits: SSELimits(maxLineBytes: 4))
        #expect(throws: SSEError(reason: .lineTooLong(limit: 4), offset: 4)) {
            _ = try parser.feed(Array("data: long".utf8))
        }
        #expect(throws: SSEError.self) {
            _ = try parser.feed(Array("\n\n".utf8))
        }
        #expect(SSEError(reason: .lineTooLong(limit: 4), offset: 4).description == "offset 4: line longer than 4 bytes")
        #expect(SSEError(reason: .eventTooLarge(limit: 9), offset: 12).description == "offset 12: event data larger than 9 bytes")
    }
}
