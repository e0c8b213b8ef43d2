import ClaudeStreaming
import Foundation
import FuzzProperties
import Testing

@testable import ClaudeTransport

// Every piece of a credential of 8 bytes or more is redacted wherever it is
// cut, and before anything is cut to length. The checks use the fuzz
// property's naive piece search, which knows nothing of the redactor.

private let key = "sk-ant-test-0123456789-SECRET-tail"

private func leak(_ text: String, of secret: String = key) -> String? {
    TransportFrameFuzzProperty.keyPiece(in: text, of: secret)
}

@Suite struct SecretRedactorTests {
    @Test func everyPieceOfEightOrMoreIsRedactedWhereverItIsCut() {
        let redactor = SecretRedactor(secrets: [key])
        let bytes = Array(key.utf8)
        for start in 0...(bytes.count - SecretRedactor.minimumPiece) {
            for end in (start + SecretRedactor.minimumPiece)...bytes.count {
                let piece = String(decoding: bytes[start..<end], as: UTF8.self)
                for text in ["…EEE\(piece)", "\(piece)EEE", "a \(piece) b \(piece)", piece] {
                    let shown = redactor.redact(text)
                    #expect(leak(shown) == nil, "\(piece) leaks from \(text) as \(shown)")
                    #expect(shown.contains(SecretRedactor.replacement))
                }
            }
        }
    }

    @Test func shorterPiecesAndOtherTextAreKept() {
        let redactor = SecretRedactor(secrets: [key])
        #expect(redactor.redact("sk-ant- is a prefix") == "sk-ant- is a prefix")  // 7 bytes
        #expect(redactor.redact("nothing here") == "nothing here")
        #expect(redactor.redact("x \(key) y") == "x <redacted> y")
        #expect(!redactor.containsSecret("0123456"))
        #expect(redactor.containsSecret("…EEEsk-ant-te"))
    }

    @Test func shortSecretsMatchWhole() {
        let redactor = SecretRedactor(secrets: ["abc12", ""])
        #expect(redactor.redact("token abc12 and abc1") == "token <redacted> and abc1")
        #expect(SecretRedactor(secrets: []).isEmpty)
    }

    @Test func truncatedErrorBodyEndingInsideTheKeyShowsNoPiece() {
        // A text body cut at 200 bytes for the message, the cut falling inside the key.
        for cut in 185...199 {
            let body = Array((String(repeating: "E", count: cut) + key + " refused").utf8)
            let failure = HTTPFailure(
                status: 401, headers: ["Request-Id": "req_" + key.dropLast(3)],
                body: body, redacting: [key])
            for text in [failure.description, failure.message ?? "", failure.requestID ?? ""] {
                #expect(leak(text) == nil, "cut at \(cut): \(text)")
            }
        }
    }

    @Test func escapedKeyInsideJSONIsRedactedOnceDecoded() {
        let escaped = key.replacingOccurrences(of: "-", with: "\\u002d")
        let body = Array(#"{"type":"error","error":{"type":"authentication_error","message":"bad \#(escaped)"}}"#.utf8)
        let failure = HTTPFailure(status: 401, headers: [:], body: body, redacting: [key])
        #expect(failure.errorType == "authentication_error")
        #expect(leak(failure.description) == nil, "\(failure)")
    }

    @Test func streamErrorsLoseTheServersCopyOfTheKey() {
        let redactor = SecretRedactor(secrets: [key])
        let apiError = MessageStreamError(
            kind: .apiError(
                APIErrorEvent(
                    type: "invalid_request_error \(key)", message: "bad header x-api-key: \(key)",
                    requestID: "req_" + key.prefix(20))),
            eventIndex: 3, byteOffset: 120, snapshot: nil)
        let violation = MessageStreamError(
            kind: .protocolViolation("\(key)_delta for a text block at index 0"),
            eventIndex: 4, byteOffset: 200, snapshot: nil)
        for error in [apiError, violation] {
            #expect(leak(error.description) != nil)  // the unredacted error does show it
            let redacted = redactor.redact(error)
            #expect(leak(redacted.description) == nil, "\(redacted)")
            #expect(leak(TransportError.stream(redacted).description) == nil)
            #expect(redacted.eventIndex == error.eventIndex && redacted.byteOffset == error.byteOffset)
        }
    }

    @Test func redactionTimeIsLinearInTheText() {
        // One piece of the key every 4 KiB, in texts of 64 KiB and 256 KiB.
        let redactor = SecretRedactor(secrets: [key, "second-secret-token-value"])
        func text(_ kib: Int) -> String {
            String(repeating: String(repeating: "x", count: 4000) + key.prefix(12), count: kib / 4)
        }
        let small = text(64)
        let large = text(256)
        let ratio = LinearTimeCheck.cpuTimeRatio(repetitions: 3, small: { _ = redactor.redact(small) }, large: { _ = redactor.redact(large) })
        #expect(ratio <= 6, "4x the text took \(ratio)x the time")
        #expect(leak(redactor.redact(small)) == nil)
    }
}
