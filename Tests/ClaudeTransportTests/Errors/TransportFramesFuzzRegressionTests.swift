// Replays the transport-frames fuzz target's seeds and every input that ever
// failed it (Fuzz/transport-frames) through the property the fuzzer checks
// (Fuzz/FuzzProperties/TransportFrameProperties.swift).

import ClaudeTransport
import Foundation
import FuzzProperties
import Testing

@Suite struct TransportFramesFuzzRegressionTests {
    @Test func corpusIsPresent() {
        #expect(FuzzCorpus.seeds("transport-frames").count >= 5)
    }

    @Test(arguments: FuzzCorpus.inputs("transport-frames"))
    func propertyHolds(input: String) throws {
        let failure = try FuzzCorpus.failure("transport-frames", input) { TransportFrameFuzzProperty.check($0) }
        #expect(failure == nil, "\(input): \(failure ?? "")")
    }

    /// A key echoed right before a combining mark: the default (canonical)
    /// string search does not see it, so the bytes of the key stayed in the
    /// message. The mapping without redaction shows what the check catches.
    @Test func keyBeforeCombiningMarkIsRedacted() {
        let key = TransportFrameFuzzProperty.apiKey
        let body = Array(#"{"type":"error","error":{"type":"\#(key)","message":"bad key \#(key)\#u{301}"},"request_id":"\#(key)"}"#.utf8)
        let raw = HTTPFailure(status: 401, headers: ["request-id": key], body: body)
        #expect(TransportFrameFuzzProperty.containsKey(raw.description))
        let reported = HTTPFailure(status: 401, headers: ["request-id": key], body: body, redacting: [key])
        #expect(!TransportFrameFuzzProperty.containsKey(reported.description))
        #expect(reported.message == "bad key <redacted>\u{301}")
        #expect(TransportFrameFuzzProperty.check(status: 401, headers: ["request-id": key], body: body) == nil)
    }

    /// Header values are redacted before they are read, so a
    /// `retry-after-ms` holding eight bytes of the key (here its digits
    /// "12345678") is no number: the client keeps to its own backoff
    /// (regressions/retry_after_ms_huge).
    @Test func aRetryAfterHoldingAPieceOfTheKeyIsNotRead() {
        let key = TransportFrameFuzzProperty.apiKey
        let headers = ["retry-after-ms": "123456780"]
        #expect(HTTPFailure(status: 429, headers: headers, body: []).retryAfter == 123456.78)
        #expect(HTTPFailure(status: 429, headers: headers, body: [], redacting: [key]).retryAfter == nil)
        #expect(TransportFrameFuzzProperty.check(status: 429, headers: headers, body: []) == nil)
    }

    @Test(arguments: [
        "12", " 1.5 ", "0", "Wed, 21 Oct 2026 07:28:00 GMT", "", "-1", "nan", "inf", "1e999", "0x1p3", "\u{0}", "Ж", "t\u{301}", "t\u{301}'qsues tmid:1e308 1",
    ])
    func retryAfterIsTotal(value: String) {
        #expect(TransportFrameFuzzProperty.checkRetryAfter(value) == nil)
    }
}
