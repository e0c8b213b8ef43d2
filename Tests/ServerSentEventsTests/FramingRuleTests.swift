// One test per rule of the WHATWG event-stream algorithm, each also checked
// under byte-by-byte and odd chunkings where a split could matter.

import ServerSentEvents
import Testing

private let splitChunkings: [Chunking] = [.whole, .every(1), .every(2), .every(3), .every(7)]

/// Parses `input` in every chunking and checks all agree with the whole-chunk run.
private func parseEverywhere(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ParseOutcome {
    let whole = parse(input)
    for chunking in splitChunkings {
        let outcome = parse(input, chunking)
        #expect(outcome == whole, "chunking \(chunking)", sourceLocation: sourceLocation)
    }
    return whole
}

private func parseEverywhere(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ParseOutcome {
    parseEverywhere(Array(text.utf8), sourceLocation: sourceLocation)
}

@Suite struct FramingRuleTests {
    @Test func lineEndingsLFCRAndCRLFAreAllOneLineEnd() {
        for ending in ["\n", "\r", "\r\n"] {
            let text = "event: a\(ending)data: 1\(ending)data: 2\(ending)\(ending)data: 3\(ending)\(ending)"
            let outcome = parseEverywhere(text)
            #expect(outcome.events.map(\.dataString) == ["1\n2", "3"], "ending \(ending.debugDescription)")
            #expect(outcome.events.map(\.eventType) == ["a", nil])
        }
    }

    @Test func crAtChunkEndAndLFAtNextStartIsOneLineEnd() {
        let outcome = parse("data: x\r\n\r\ndata: y\r\n\r\n", .sizes([8, 1, 1, 1]))
        #expect(outcome.events.map(\.dataString) == ["x", "y"])
        // Had the LF counted as a second line end, "x" would be dispatched
        // by it; instead the dispatching line end is the third CR.
        #expect(outcome.events.first?.streamOffset == 9)
    }

    @Test func crThenCrIsTwoLineEnds() {
        let outcome = parseEverywhere("data: a\r\rdata: b\r\r")
        #expect(outcome.events.map(\.dataString) == ["a", "b"])
    }

    @Test func bomSkippedOnceEvenWhenSplitBytewise() {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)
        for chunking in splitChunkings {
            #expect(parse(input, chunking).events.map(\.dataString) == ["x"], "\(chunking)")
        }
    }

    @Test func bomOnlyAtStreamStart() {
        // A second BOM is part of the field name, so that line is an unknown field.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let input = bom + bom + Array("data: x\n\ndata: y\n\n".utf8)
        #expect(parseEverywhere(input).events.map(\.dataString) == ["y"])
        let middle = Array("data: a\n\n".utf8) + bom + Array("data: b\n\n".utf8)
        #expect(parseEverywhere(middle).events.map(\.dataString) == ["a"])
    }

    @Test func partialBomIsOrdinaryBytes() {
        // EF BB then 'x': not a BOM, so the line's field name is EF BB 'x'...
        let input: [UInt8] = [0xEF, 0xBB] + Array("data: x\n\ndata: y\n\n".utf8)
        #expect(parseEverywhere(input).events.map(\.dataString) == ["y"])
        // The held-back BOM bytes count once, whatever the split.
        #expect(parseEverywhere([0xEF] + Array("data".utf8)).discarded == 5)
        #expect(parseEverywhere([0xEF, 0xBB, 0x3A]).discarded == 3)
        let lone: [UInt8] = [0xEF, 0x0A] + Array("data: z\n\n".utf8)
        #expect(parseEverywhere(lone).events.map(\.dataString) == ["z"])
    }

    @Test func multiByteCharacterSplitAcrossChunks() {
        let text = "data: Blåbær 😶‍🌫️ ok\n\n"
        for chunking in splitChunkings {
            #expect(parse(text, chunking).events.map(\.dataString) == ["Blåbær 😶‍🌫️ ok"], "\(chunking)")
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacterButBytesStayExact() {
        let input = Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8)
        let event = parseEverywhere(input).events.first
        #expect(event?.data == Array("a".utf8) + [0xFF, 0xC3] + Array("b".utf8))
        #expect(event?.dataString == "a\u{FFFD}\u{FFFD}b")
    }

    @Test func idWithNULIsIgnoredAndIdPersists() {
        let outcome = parseEverywhere("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\ndata: c\n\nid\ndata: d\n\n")
        #expect(outcome.events.map(\.lastEventID) == ["1", "1", "1", ""])
        #expect(outcome.lastEventID == "")
    }

    @Test func idOnlyBlockSetsLastEventIDWithoutDispatch() {
        let outcome = parseEverywhere("id: 7\n\ndata: a\n\n")
        #expect(outcome.events.count == 1)
        #expect(outcome.events.first?.lastEventID == "7")
    }

    @Test func retryOnlyWhenAllDigits() {
        let outcome = parseEverywhere(
            "retry: 100\ndata: a\n\nretry: 1x\ndata: b\n\nretry:\ndata: c\n\nretry: 30\nretry: -5\nretry:  4\ndata: d\n\nretry: 99999999999999999999999\ndata: e\n\n"
        )
        #expect(outcome.events.map(\.retry) == [100, nil, nil, 30, Int.max])
    }

    @Test func retryDoesNotLeakIntoTheNextBlock() {
        let outcome = parseEverywhere("retry: 5\n\ndata: a\n\n")
        #expect(outcome.events.map(\.retry) == [nil])
    }

    @Test func fieldWithoutColonHasEmptyValue() {
        let outcome = parseEverywhere("data\n\ndata\ndata\n\nevent\ndata: x\n\n")
        #expect(outcome.events.map(\.dataString) == ["", "\n", "x"])
        #expect(outcome.events.map(\.eventType) == [nil, nil, nil])
    }

    @Test func onlyOneLeadingSpaceIsStripped() {
        let outcome = parseEverywhere("data:  two\n\ndata:none\n\nevent:  t\ndata: x \n\n")
        #expect(outcome.events.map(\.dataString) == [" two", "none", "x "])
        #expect(outcome.events.last?.eventType == " t")
    }

    @Test func commentsAndUnknownFieldsAreIgnored() {
        let outcome = parseEverywhere(": ping\n:\nfoo: bar\nDATA: no\ndata : no\ndata: yes\n: more\n\n")
        #expect(outcome.events.map(\.dataString) == ["yes"])
    }

    @Test func emptyDataBufferDispatchesNothing() {
        let outcome = parseEverywhere("event: e\n\nid: 1\nretry: 3\n\n\n\n: c\n\n")
        #expect(outcome.events.isEmpty)
        #expect(outcome.lastEventID == "1")
    }

    @Test func eventTypeResetsAfterDispatchAndEmptyIsNil() {
        let outcome = parseEverywhere("event: a\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\nevent: x\nevent: y\ndata: 4\n\n")
        #expect(outcome.events.map(\.eventType) == ["a", nil, nil, "y"])
    }

    @Test func unfinishedEventAtEndIsDiscardedAndCounted() {
        let outcome = parseEverywhere("data: a\n\ndata: b\n")
        #expect(outcome.events.map(\.dataString) == ["a"])
        #expect(outcome.discarded == 8)
        let partialLine = parseEverywhere("data: a\n\ndata: b")
        #expect(partialLine.discarded == 7)
        let clean = parseEverywhere("data: a\n\n: trailing comment\n")
        #expect(clean.discarded == 0)
    }

    @Test func streamOffsetIsTheDispatchingLineEnd() {
        let outcome = parseEverywhere("data: a\n\ndata: b\r\n\r\n")
        #expect(outcome.events.map(\.streamOffset) == [8, 18])
    }

    @Test func nulInDataIsKept() {
        let outcome = parseEverywhere("data: a\u{0}b\n\n")
        #expect(outcome.events.first?.data == [0x61, 0, 0x62])
    }

    @Test func finishStartsANewStreamKeepingLastEventID() {
        var parser = SSEParser()
        _ = try? parser.feed(Array("id: 9\ndata: partial".utf8))
        #expect(parser.finish() == 19)  // the whole unfinished block, id line included
        let events = (try? parser.feed([0xEF, 0xBB, 0xBF] + Array("data: next\n\n".utf8))) ?? []
        #expect(events.map(\.dataString) == ["next"])
        #expect(events.first?.lastEventID == "9")
        #expect(parser.bytesConsumed == 19 + 15)
    }

    @Test func viewExposesBorrowedFields() throws {
        var parser = SSEParser()
        var seen: [String] = []
        let bytes = Array("event: t\nid: 5\nretry: 12\ndata: hi\n\n".utf8)
        try bytes.withUnsafeBytes { raw in
            try parser.feed(raw) { view in
                seen.append(
                    "\(view.eventType.map { String(decoding: $0, as: UTF8.self) } ?? "nil") \(view.dataString) \(String(decoding: view.lastEventID, as: UTF8.self)) \(view.retry ?? -1) \(view.streamOffset)"
                )
            }
        }
        #expect(seen == ["t hi 5 12 34"])
    }
}
