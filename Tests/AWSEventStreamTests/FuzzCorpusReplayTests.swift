// Replays the aws-eventstream fuzz target's seeds and regressions through
// the same property the fuzzer checks (split invariance, agreement with the
// reference decoder), so a fixed crash stays fixed without libFuzzer.

import AWSEventStream
import ClaudeStreaming
import Foundation
import FuzzProperties
import Testing

@Suite struct FuzzCorpusReplayTests {
    @Test(arguments: FuzzCorpus.inputs("aws-eventstream"))
    func inputHoldsTheProperty(_ input: String) throws {
        let failure = try FuzzCorpus.failure("aws-eventstream", input, of: AWSEventStreamFuzzProperty.check)
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    @Test func seedsReachMessagesAndErrors() throws {
        #expect(FuzzCorpus.seeds("aws-eventstream").count >= 6)
        let seed = Array(try FuzzCorpus.bytes("aws-eventstream", "seeds/all_header_types"))
        let outcome = AWSEventStreamReference.decode(Array(seed.dropFirst(5)))
        #expect(outcome.error == nil && outcome.messages.count == 2 && outcome.messages[0].headers.count == 10)
        let truncated = Array(try FuzzCorpus.bytes("aws-eventstream", "seeds/truncated"))
        guard case .truncatedMessage? = AWSEventStreamReference.decode(Array(truncated.dropFirst(5))).error?.reason else {
            Issue.record("the truncated seed is not truncated")
            return
        }
    }

    /// The re-framing mode wraps arbitrary header blocks in valid CRCs, so
    /// the header walker is reached, not only the prelude check.
    @Test func reframingReachesTheHeaderChecks() throws {
        let seed = Array(try FuzzCorpus.bytes("aws-eventstream", "seeds/reframed_headers"))
        #expect(seed.withUnsafeBytes { AWSEventStreamFuzzProperty.check($0) } == nil)
        let stream = AWSEventStreamEncoder.message(headerBlock: [1, 0x61, 2, 7, 1, 0x62], payload: Array("xyz".utf8))
        #expect(AWSEventStreamReference.decode(stream).error?.reason == .headerOverrun)
    }

    /// The Bedrock mode reaches a complete message through raw and wrapped chunks.
    @Test func bedrockSeedBuildsAMessage() throws {
        let seed = Array(try FuzzCorpus.bytes("aws-eventstream", "seeds/bedrock_events"))
        #expect(seed[0] & 4 != 0)
        let (body, _, allWrapped) = AWSEventStreamFuzzProperty.bedrockBodies(Array(seed.dropFirst(5)))
        #expect(!allWrapped)
        var accumulator = MessageAccumulator(options: MessageAccumulatorOptions(framing: .awsEventStream))
        _ = try accumulator.feed(body)
        let message = try accumulator.finish()
        #expect(message.text == "hi é")
    }
}
