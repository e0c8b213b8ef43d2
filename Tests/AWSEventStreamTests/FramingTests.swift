// Messages of our own, made by the test encoder: every header type, every
// split point, large payloads, limits, error offsets, and payloads handed
// out without a copy.

import AWSEventStream
import FuzzProperties
import Testing

@Suite struct FramingTests {
    static let stream: [UInt8] =
        AWSEventStreamEncoder.message(headers: everyHeaderType, payload: Array("payload one".utf8))
        + AWSEventStreamEncoder.message(headers: [], payload: [])
        + AWSEventStreamEncoder.bedrockChunk(event: Array(#"{"type":"ping"}"#.utf8), padding: 37)
        + AWSEventStreamEncoder.bedrockException(type: "throttlingException", message: "slow down")

    @Test func everyHeaderTypeRoundTrips() throws {
        let outcome = decode(Self.stream, sizes: [Self.stream.count])
        #expect(outcome.error == nil)
        try #require(outcome.messages.count == 4)
        #expect(outcome.messages[0].headers == everyHeaderType)
        #expect(outcome.messages[0].payload == Array("payload one".utf8))
        #expect(outcome.messages[1].headers.isEmpty && outcome.messages[1].payload.isEmpty)
        #expect(outcome.messages[2].header(":event-type") == .string("chunk"))
        #expect(outcome.messages[3].header(":exception-type") == .string("throttlingException"))
        let lengths = Self.messageLengths
        #expect(outcome.messages.map(\.streamOffset) == [0, lengths[0], lengths[0] + lengths[1], lengths[0] + lengths[1] + lengths[2]])
    }

    static var messageLengths: [Int] {
        var parser = AWSEventStreamParser()
        var lengths: [Int] = []
        Self.stream.withUnsafeBytes { raw in try? parser.feed(raw) { lengths.append($0.totalLength) } }
        return lengths
    }

    @Test func everySplitPointGivesTheSameMessages() {
        let whole = decode(Self.stream, sizes: [Self.stream.count])
        for cut in 1..<Self.stream.count {
            #expect(decode(Self.stream, sizes: [cut, Self.stream.count]) == whole, "cut at \(cut)")
        }
        for size in [1, 2, 3, 7, 13, 64] {
            #expect(decode(Self.stream, sizes: [size]) == whole, "chunks of \(size)")
        }
    }

    @Test func largePayloadSplitAtEveryByte() {
        let payload = (0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let stream =
            AWSEventStreamEncoder.message(headers: everyHeaderType, payload: payload)
            + AWSEventStreamEncoder.message(headers: [], payload: Array(payload.prefix(100)))
        let whole = decode(stream, sizes: [stream.count])
        #expect(whole.error == nil && whole.messages.count == 2 && whole.messages[0].payload == payload)
        for cut in 1..<stream.count {
            #expect(decode(stream, sizes: [cut, stream.count]) == whole, "cut at \(cut)")
        }
    }

    @Test func megabytePayloadAtEveryChunking() {
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let stream = AWSEventStreamEncoder.message(headers: [AWSEventStreamHeader(name: "n", value: .int(1))], payload: payload)
        let whole = decode(stream, sizes: [stream.count])
        #expect(whole.messages.first?.payload == payload)
        for sizes in [[16 << 10], [7], [1 << 20, 11], [4093, 3]] {
            #expect(decode(stream, sizes: sizes) == whole, "\(sizes)")
        }
    }

    @Test func payloadInsideOneChunkIsNotCopied() {
        Self.stream.withUnsafeBytes { raw in
            var parser = AWSEventStreamParser()
            var insideChunk: [Bool] = []
            try? parser.feed(raw) { message in
                guard let base = raw.baseAddress, let payload = message.payload.baseAddress else { return }
                insideChunk.append(payload >= base && payload + message.payload.count <= base + raw.count)
            }
            #expect(insideChunk.count == 4)
            #expect(insideChunk.allSatisfy { $0 })
        }
    }

    @Test func stringHeaderLookupReadsWithoutCopying() {
        var eventTypes: [String] = []
        Self.stream.withUnsafeBytes { raw in
            var parser = AWSEventStreamParser()
            try? parser.feed(raw) { message in
                eventTypes.append(message.stringHeader(":event-type").map { String(decoding: $0, as: UTF8.self) } ?? "-")
            }
        }
        #expect(eventTypes == ["-", "-", "chunk", "-"])
    }

    @Test func corruptBytesAreRejectedAtTheirOffset() {
        let message = AWSEventStreamEncoder.message(headers: everyHeaderType, payload: Array("abc".utf8))
        let second = Self.stream.count
        // A payload byte flipped: the message CRC fails, at the CRC field.
        var corrupt = Self.stream + message
        corrupt[second + message.count - 5] ^= 1
        let error = decode(corrupt, sizes: [5]).error
        #expect(error?.offset == second + message.count - 4)
        if case .messageChecksumMismatch = error?.reason {} else { Issue.record("\(String(describing: error))") }
        // A length byte flipped: the prelude CRC fails, at the prelude CRC field.
        corrupt = Self.stream + message
        corrupt[second + 2] ^= 0x40
        #expect(decode(corrupt, sizes: [1]).error?.offset == second + 8)
    }

    @Test func headerFaultsNameTheHeader() {
        // Valid CRCs around a header block whose second header has type 42.
        let block: [UInt8] = [1, 0x61, 0, 1, 0x62, 42]
        let stream = Self.stream + AWSEventStreamEncoder.message(headerBlock: block, payload: [])
        let error = decode(stream, sizes: [3]).error
        #expect(error == AWSEventStreamError(reason: .unknownHeaderValueType(42), offset: Self.stream.count + 12 + 3))
        let overrun = AWSEventStreamEncoder.message(headerBlock: [1, 0x61, 7, 0, 9, 0x62], payload: [])
        #expect(decode(overrun, sizes: [1]).error == AWSEventStreamError(reason: .headerOverrun, offset: 12))
        let empty = AWSEventStreamEncoder.message(headerBlock: [0, 0], payload: [])
        #expect(decode(empty, sizes: [1]).error == AWSEventStreamError(reason: .emptyHeaderName, offset: 12))
    }

    @Test func limitsApplyAtThePrelude() {
        let big = AWSEventStreamEncoder.message(headers: everyHeaderType, payload: [UInt8](repeating: 1, count: 1000))
        var parser = AWSEventStreamParser(limits: AWSEventStreamLimits(maxMessageBytes: 500))
        var thrown: AWSEventStreamError?
        big.withUnsafeBytes { raw in
            do throws(AWSEventStreamError) { try parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<12])) { _ in } } catch { thrown = error }
        }
        #expect(thrown == AWSEventStreamError(reason: .messageTooLarge(length: big.count, limit: 500), offset: 0))
        let headers = decode(big, sizes: [12], limits: AWSEventStreamLimits(maxHeaderBytes: 20)).error
        if case .headersTooLarge(_, 20) = headers?.reason {} else { Issue.record("\(String(describing: headers))") }
        #expect(headers?.offset == 4)
    }

    @Test func failedParserKeepsFailing() {
        var corrupt = Self.stream
        corrupt[8] ^= 1
        var parser = AWSEventStreamParser()
        var errors: [AWSEventStreamError] = []
        for _ in 0..<2 {
            corrupt.withUnsafeBytes { raw in
                do throws(AWSEventStreamError) { try parser.feed(raw) { _ in } } catch { errors.append(error) }
            }
        }
        #expect(errors.count == 2 && errors[0] == errors[1])
    }

    @Test func truncationIsReportedAtFinish() {
        for cut in [5, 12, 30] {
            let outcome = decode(Array(Self.stream.prefix(cut)), sizes: [4])
            guard case .truncatedMessage(let missing) = outcome.error?.reason else {
                Issue.record("cut \(cut): \(String(describing: outcome.error))")
                continue
            }
            #expect(missing == (cut < 12 ? 16 : Self.messageLengths[0]) - cut)
            #expect(outcome.error?.offset == 0)
        }
        var parser = AWSEventStreamParser()
        #expect(parser.finish() == nil)
    }

    @Test func preludeDetection() {
        Self.stream.withUnsafeBytes { raw in
            #expect(AWSEventStreamParser.startsWithPrelude(raw) == true)
            #expect(AWSEventStreamParser.startsWithPrelude(UnsafeRawBufferPointer(rebasing: raw[0..<3])) == nil)
        }
        for text in ["event: message_start\ndata: {}\n\n", "data: x", "{\"type\":\"error\"}", ": comment"] {
            Array(text.utf8).withUnsafeBytes { #expect(AWSEventStreamParser.startsWithPrelude($0) == false, "\(text)") }
        }
        var corrupt = Self.stream
        corrupt[9] ^= 1
        corrupt.withUnsafeBytes { #expect(AWSEventStreamParser.startsWithPrelude($0) == false) }
    }

    @Test func slicingCRCMatchesTheBitwiseOne() {
        var generator = SplitMix64(seed: 17)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(CRC32.checksum(bytes) == AWSEventStreamReference.crc32(bytes[...]), "length \(length)")
            let half = length / 2
            let piecewise = bytes.withUnsafeBytes { raw in
                CRC32.update(CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<half])), UnsafeRawBufferPointer(rebasing: raw[half...]))
            }
            #expect(piecewise == CRC32.checksum(bytes))
        }
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
