// The usual Bedrock chunk read in one step (HotChunks.swift,
// `_AWSUsualMessage`): the message it takes, the near misses it must leave
// to the event-stream parser, and bodies whose outcome (messages, errors
// with their event index and offset, snapshot count) is the same whether
// a message is read in one step or the general way.

import AWSEventStream
import ClaudeTestSupport
import FuzzProperties
import Testing

@testable @_spi(FuzzTesting) import ClaudeStreaming

private typealias F = StreamFixture

@Suite struct HotChunksTests {
    static let events = [F.messageStart, F.textStart(0), F.text(0, "Hel"), F.text(0, #"lo \"x\" \u00e9"#), F.stop(0), F.messageDelta(), F.messageStop]

    static func usual(_ event: String, padding: Int = 3) -> [UInt8] {
        AWSEventStreamEncoder.bedrockChunk(event: Array(event.utf8), padding: padding)
    }

    func read(_ bytes: [UInt8], from start: Int = 0, limits: AWSEventStreamLimits = AWSEventStreamLimits()) -> (payload: Range<Int>, end: Int)? {
        bytes.withUnsafeBytes { _AWSUsualMessage.read($0, from: start, headerBlock: BedrockEventDecoder.usualHeaderBlock, limits: limits) }
    }

    @Test func theUsualMessageIsReadWhole() throws {
        let first = Self.usual(F.text(0, "Hi"))
        let body = first + Self.usual(F.text(0, "there"), padding: 0)
        let one = try #require(read(body))
        #expect(one.end == first.count)
        // The payload is what the encoder wrote between the headers and the CRC.
        #expect(Array(body[one.payload]).starts(with: Array(#"{"bytes":""#.utf8)) && body[one.payload.upperBound - 1] == UInt8(ascii: "}"))
        #expect(one.payload.upperBound == first.count - 4)
        let two = try #require(read(body, from: one.end))
        #expect(two.end == body.count)
    }

    /// Each differs from the form in one way; the parser must read it.
    @Test func nearMissesAreLeftToTheParser() {
        let message = Self.usual(F.text(0, "Hi"))
        for place in [0, 3, 5, 9, 11, 12, 40, 98, message.count - 30, message.count - 1] {
            var damaged = message
            damaged[place] ^= 0x10
            #expect(read(damaged) == nil, "a bit flipped at \(place)")
        }
        for cut in 0..<message.count {
            #expect(read(Array(message[..<cut])) == nil, "cut at \(cut)")
        }
        let otherHeaders = AWSEventStreamEncoder.message(
            headers: [
                AWSEventStreamHeader(name: ":event-type", value: .string("chunk")),
                AWSEventStreamHeader(name: ":message-type", value: .string("event")),
            ], payload: Array(#"{"bytes":"e30="}"#.utf8))
        #expect(read(otherHeaders) == nil)
    }

    /// Over the limits, the parser must see the message to report them.
    @Test func messagesOverTheLimitsAreLeftToTheParser() {
        let message = Self.usual(F.text(0, "Hi"))
        let headers = BedrockEventDecoder.usualHeaderBlock.count
        #expect(read(message, limits: AWSEventStreamLimits(maxMessageBytes: message.count - 1)) == nil)
        #expect(read(message, limits: AWSEventStreamLimits(maxHeaderBytes: headers - 1)) == nil)
        #expect(read(message, limits: AWSEventStreamLimits(maxMessageBytes: message.count, maxHeaderBytes: headers)) != nil)
    }

    /// The reader applies a run of usual messages itself, and stops at
    /// the first other one.
    @Test func theAccumulatorReadsARunOfUsualChunks() {
        let usual = Self.events.flatMap { Self.usual($0) }
        let ping = AWSEventStreamEncoder.message(
            headers: [AWSEventStreamHeader(name: ":event-type", value: .string("ping"))], payload: [])
        let body = usual + ping + Self.usual(F.messageStart)
        var state = AccumulatorState(options: bedrockOptions, readsUsualEvents: true)
        var event: [UInt8] = []
        var snapshots = 0
        let taken = body.withUnsafeBytes { state.readHotChunks($0, at: 0, event: &event, emitsSnapshots: true) { _ in snapshots += 1 } }
        #expect(taken.bytes == usual.count && taken.messages == Self.events.count)
        #expect(state.completed.count == 1 && state.completed.first?.text == #"Hello "x" é"#)
        #expect(snapshots == Self.events.count)
    }

    /// Bodies with one message damaged in each way, over the limits, or cut
    /// short: whole (read in one step) and one byte a feed (never a whole
    /// message at a boundary) give the same outcome, and so does the
    /// general path alone.
    @Test func damagedBodiesGiveTheGeneralPathsOutcome() {
        let messages = Self.events.map { Self.usual($0) }
        let body = messages.flatMap { $0 }
        var bodies: [(String, [UInt8], MessageAccumulatorOptions)] = [("intact", body, bedrockOptions)]
        let third = messages[0].count + messages[1].count
        for (name, place) in [("length", 2), ("prelude CRC", 9), ("header", 20), ("payload", 120), ("message CRC", messages[2].count - 2)] {
            var damaged = body
            damaged[third + place] ^= 0x04
            bodies.append(("\(name) of the third message", damaged, bedrockOptions))
        }
        bodies.append(("cut inside the last message", Array(body.dropLast(7)), bedrockOptions))
        var small = bedrockOptions
        small.eventStreamLimits = AWSEventStreamLimits(maxMessageBytes: messages[2].count - 1)
        bodies.append(("a limit below the third message", body, small))
        for (name, bytes, options) in bodies {
            let failed = expectTheGeneralPathsOutcome(bytes, options: options, name)
            #expect((name == "intact") != failed, "\(name)")
        }
    }

    /// Each event is decoded into the buffer the one before it used, so the
    /// bytes past a short event are the end of a longer one. The delta's
    /// scan may read past the event (`scanCanonicalDelta`'s `readable`) but
    /// must take nothing from there: an event cut inside its payload, its
    /// closing braces or its head fails as the general path fails it, and a
    /// whole short event reads as itself. A delta the lane reads and cannot
    /// apply fails with the general path's event index and offset.
    @Test func anEventEndsWhereItEndsNotWhereTheOneBeforeDid() {
        let long = F.text(0, "Hello there, this is a long delta that fills the buffer well past the short ones")
        let lead = [F.messageStart, F.textStart(0), long]
        let cuts = [
            ("cut inside the payload", String(long.prefix(long.count - 20))),
            ("one closing brace short", String(long.dropLast())),
            ("cut inside the head", String(long.prefix(30))),
            // The lane applies it and fails: the same event index and offset.
            ("a delta to a block that is not open", F.text(3, "Hi")),
            ("a whole short delta", F.text(0, "Hi")),
        ]
        for (name, event) in cuts {
            let body = (lead + [event, F.stop(0), F.messageDelta(), F.messageStop]).flatMap { Self.usual($0) }
            let failed = expectTheGeneralPathsOutcome(body, options: bedrockOptions, name)
            #expect(failed == (name != "a whole short delta"), "\(name)")
        }
    }

    /// Expects `bytes` to give the outcome the general path alone gives
    /// (error, snapshot count, messages); returns whether it failed.
    func expectTheGeneralPathsOutcome(_ bytes: [UInt8], options: MessageAccumulatorOptions, _ name: String) -> Bool {
        let outcome = runStream(bytes, options: options)
        var general = MessageAccumulator._generalPathOnly(options: options)
        var generalSnapshots = 0
        var generalError: MessageStreamError?
        bytes.withUnsafeBytes { raw in
            do throws(MessageStreamError) {
                try general.feed(raw) { _ in generalSnapshots += 1 }
                _ = try general.finish()
            } catch {
                generalError = error
            }
        }
        #expect(outcome.error.map { "\($0)" } == generalError.map { "\($0)" }, "\(name)")
        #expect(outcome.snapshots == generalSnapshots, "\(name)")
        #expect(outcome.completed.map { $0.messageJSON() } == general.completedMessages.map { $0.messageJSON() }, "\(name)")
        return outcome.error != nil
    }
}
