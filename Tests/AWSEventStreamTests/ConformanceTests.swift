// The AWS SDK conformance vectors (aws-sdk-go and smithy-rs test data):
// every positive case decodes to its expected message, fed whole and byte
// by byte; every negative case is rejected with a typed error, never waited on.

import AWSEventStream
import Foundation
import FuzzProperties
import Testing

@Suite struct ConformanceTests {
    @Test(arguments: EventStreamCorpus.vectors("positive"))
    func positiveVectorDecodes(_ name: String) throws {
        let bytes = try EventStreamCorpus.bytes(name + ".bin")
        for sizes in [[bytes.count], [1], [5, 3, 11]] {
            let outcome = decode(bytes, sizes: sizes)
            #expect(outcome.error == nil, "\(name) at \(sizes): \(outcome.error.map { "\($0)" } ?? "")")
            #expect(outcome.messages.count == 1, "\(name) at \(sizes)")
        }
        guard let message = decode(bytes, sizes: [bytes.count]).messages.first else { return }
        let expectedURL = EventStreamCorpus.root?.appendingPathComponent(name + ".expected.json")
        guard let expectedURL, let data = try? Data(contentsOf: expectedURL) else {
            // smithy-rs ships two positives without a decoded form: check the
            // framing fields against the bytes themselves.
            #expect(message.streamOffset == 0)
            return
        }
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        if let total = expected["total_length"] as? Int { #expect(total == bytes.count) }
        if let headersLength = expected["headers_length"] as? Int {
            #expect(headersLength == Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7]))
        }
        if let preludeCRC = expected["prelude_crc"] as? Int {
            let computed = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<8])) }
            #expect(computed == UInt32(truncatingIfNeeded: preludeCRC))
        }
        if let messageCRC = expected["message_crc"] as? Int {
            let computed = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
            #expect(computed == UInt32(truncatingIfNeeded: messageCRC))
        }
        let payload = try #require(Data(base64Encoded: expected["payload"] as? String ?? ""))
        #expect(message.payload == Array(payload))
        let headers = expected["headers"] as? [[String: Any]] ?? []
        #expect(message.headers.count == headers.count)
        for (got, want) in zip(message.headers, headers) {
            #expect(got.name == want["name"] as? String)
            #expect(Int(got.value.typeCode) == want["type"] as? Int, "\(got.name)")
            #expect(headerValue(got.value) == normalized(want), "\(name): header \(got.name)")
        }
    }

    @Test(arguments: EventStreamCorpus.vectors("negative"))
    func negativeVectorIsRejected(_ name: String) throws {
        let bytes = try EventStreamCorpus.bytes(name + ".bin")
        for sizes in [[bytes.count], [1], [12]] {
            let outcome = decode(bytes, sizes: sizes)
            #expect(outcome.messages.isEmpty, "\(name) at \(sizes) gave a message")
            let error = try #require(outcome.error, "\(name) at \(sizes) was not rejected")
            #expect(error.offset >= 0 && error.offset <= bytes.count)
        }
    }

    /// `corrupted_length` declares more bytes than it holds: the prelude CRC
    /// must fail as soon as 12 bytes are in, not after a wait for the rest.
    @Test(.enabled(if: EventStreamCorpus.root != nil, "../shared/corpus/bedrock-eventstream is absent"))
    func corruptedLengthIsRejectedAtThePrelude() throws {
        let bytes = try EventStreamCorpus.bytes("conformance/aws-sdk-go/negative/corrupted_length.bin")
        var parser = AWSEventStreamParser()
        var thrown: AWSEventStreamError?
        bytes.withUnsafeBytes { raw in
            do throws(AWSEventStreamError) { try parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<12])) { _ in } } catch { thrown = error }
        }
        let error = try #require(thrown, "12 bytes of a corrupt prelude were accepted and waited on")
        guard case .preludeChecksumMismatch = error.reason else {
            Issue.record("\(error)")
            return
        }
        #expect(error.offset == 8)
    }

    /// The reference decoder agrees with the parser on every vector.
    @Test(arguments: EventStreamCorpus.vectors("positive") + EventStreamCorpus.vectors("negative"))
    func referenceAgrees(_ name: String) throws {
        let bytes = try EventStreamCorpus.bytes(name + ".bin")
        #expect(decode(bytes, sizes: [3]) == AWSEventStreamReference.decode(bytes))
    }

    private func headerValue(_ value: AWSEventStreamHeaderValue) -> String {
        switch value {
        case .bool(let v): "\(v)"
        case .byte(let v): "\(v)"
        case .short(let v): "\(v)"
        case .int(let v): "\(v)"
        case .long(let v), .timestamp(let v): "\(v)"
        case .bytes(let b), .uuid(let b): Data(b).base64EncodedString()
        case .string(let s): Data(s.utf8).base64EncodedString()
        }
    }

    private func normalized(_ header: [String: Any]) -> String {
        switch header["value"] {
        case let v as Bool where (header["type"] as? Int ?? 9) <= 1: "\(v)"
        case let v as NSNumber: "\(v.int64Value)"
        case let v as String: v
        default: "?"
        }
    }
}
