// An encoder and a straightforward reference decoder for the AWS
// event-stream framing, written for the tests, fuzzer and benchmarks.
//
// The reference decoder is deliberately simple: whole input at once, a
// bitwise CRC, one check after another in the order the specification
// lists them. The real parser (slicing CRC, chunk-boundary state, views
// without copies) must agree with it on every input.

import AWSEventStream

public enum AWSEventStreamEncoder {
    /// The bytes of one message with `headers` and `payload`.
    public static func message(headers: [AWSEventStreamHeader], payload: [UInt8]) -> [UInt8] {
        var headerBytes: [UInt8] = []
        for header in headers {
            let name = Array(header.name.utf8)
            headerBytes.append(UInt8(truncatingIfNeeded: name.count))
            headerBytes += name
            headerBytes.append(header.value.typeCode)
            switch header.value {
            case .bool: break
            case .byte(let v): headerBytes.append(UInt8(bitPattern: v))
            case .short(let v): headerBytes += bigEndian(UInt64(UInt16(bitPattern: v)), width: 2)
            case .int(let v): headerBytes += bigEndian(UInt64(UInt32(bitPattern: v)), width: 4)
            case .long(let v), .timestamp(let v): headerBytes += bigEndian(UInt64(bitPattern: v), width: 8)
            case .bytes(let bytes):
                headerBytes += bigEndian(UInt64(bytes.count), width: 2) + bytes
            case .string(let string):
                let bytes = Array(string.utf8)
                headerBytes += bigEndian(UInt64(bytes.count), width: 2) + bytes
            case .uuid(let bytes): headerBytes += bytes
            }
        }
        return message(headerBlock: headerBytes, payload: payload)
    }

    /// A message around a raw header block (which may be malformed), with valid CRCs.
    public static func message(headerBlock: [UInt8], payload: [UInt8]) -> [UInt8] {
        let total = 16 + headerBlock.count + payload.count
        var out = bigEndian(UInt64(total), width: 4) + bigEndian(UInt64(headerBlock.count), width: 4)
        out += bigEndian(UInt64(AWSEventStreamReference.crc32(out[...])), width: 4)
        out += headerBlock + payload
        return out + bigEndian(UInt64(CRC32.checksum(out)), width: 4)
    }

    /// A Bedrock `chunk` event message: payload `{"bytes":"<base64 of event>","p":"<padding>"}`.
    public static func bedrockChunk(event: [UInt8], padding: Int = 0) -> [UInt8] {
        var payload = Array(#"{"bytes":""#.utf8) + base64(event) + Array(#"""#.utf8)
        if padding > 0 {
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
            payload += Array(#","p":""#.utf8) + (0..<padding).map { letters[$0 % letters.count] } + Array(#"""#.utf8)
        }
        payload += Array("}".utf8)
        return message(
            headers: [
                AWSEventStreamHeader(name: ":event-type", value: .string("chunk")),
                AWSEventStreamHeader(name: ":content-type", value: .string("application/json")),
                AWSEventStreamHeader(name: ":message-type", value: .string("event")),
            ], payload: payload)
    }

    /// A Bedrock exception message (`:message-type: exception`).
    public static func bedrockException(type: String, message: String) -> [UInt8] {
        AWSEventStreamEncoder.message(
            headers: [
                AWSEventStreamHeader(name: ":exception-type", value: .string(type)),
                AWSEventStreamHeader(name: ":content-type", value: .string("application/json")),
                AWSEventStreamHeader(name: ":message-type", value: .string("exception")),
            ], payload: Array(#"{"message":"\#(message)"}"#.utf8))
    }

    /// Standard base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i])
            let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(alphabet[b0 >> 2])
            out.append(alphabet[(b0 & 3) << 4 | b1 >> 4])
            out.append(i + 1 < bytes.count ? alphabet[(b1 & 15) << 2 | b2 >> 6] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[b2 & 63] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

public enum AWSEventStreamReference {
    /// What decoding a whole input gave.
    public struct Outcome: Equatable, Sendable {
        public var messages: [AWSEventStreamMessage] = []
        /// The first error (nil when the input ended on a message boundary).
        public var error: AWSEventStreamError?
    }

    /// Bitwise CRC-32 (IEEE), one bit at a time.
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> Int {
        (at..<(at + 4)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    static func signed(_ bytes: ArraySlice<UInt8>) -> Int64 {
        var value: Int64 = bytes.first.map { $0 >= 0x80 ? -1 : 0 } ?? 0
        for byte in bytes { value = value << 8 | Int64(byte) }
        return value
    }

    /// Decodes `bytes` whole, with the parser's checks in the parser's order
    /// (prelude CRC, lengths, limits, message CRC, headers).
    public static func decode(_ bytes: [UInt8], limits: AWSEventStreamLimits = AWSEventStreamLimits()) -> Outcome {
        var outcome = Outcome()
        var start = 0
        func fail(_ reason: AWSEventStreamError.Reason, _ offset: Int) -> Outcome {
            outcome.error = AWSEventStreamError(reason: reason, offset: offset)
            return outcome
        }
        while start < bytes.count {
            guard bytes.count - start >= 12 else { return fail(.truncatedMessage(missing: 16 - (bytes.count - start)), start) }
            let total = uint32(bytes, start)
            let headersLength = uint32(bytes, start + 4)
            let preludeCRC = UInt32(uint32(bytes, start + 8))
            let computedPrelude = crc32(bytes[start..<(start + 8)])
            if preludeCRC != computedPrelude { return fail(.preludeChecksumMismatch(declared: preludeCRC, computed: computedPrelude), start + 8) }
            if total < 16 { return fail(.totalLengthTooSmall(total), start) }
            if total > limits.maxMessageBytes { return fail(.messageTooLarge(length: total, limit: limits.maxMessageBytes), start) }
            if headersLength > total - 16 { return fail(.headersLengthTooLarge(headers: headersLength, total: total), start + 4) }
            if headersLength > limits.maxHeaderBytes {
                return fail(.headersTooLarge(length: headersLength, limit: limits.maxHeaderBytes), start + 4)
            }
            guard bytes.count - start >= total else { return fail(.truncatedMessage(missing: total - (bytes.count - start)), start) }
            let end = start + total
            let messageCRC = UInt32(uint32(bytes, end - 4))
            let computedMessage = crc32(bytes[start..<(end - 4)])
            if messageCRC != computedMessage { return fail(.messageChecksumMismatch(declared: messageCRC, computed: computedMessage), end - 4) }
            var headers: [AWSEventStreamHeader] = []
            var i = start + 12
            let headersEnd = i + headersLength
            while i < headersEnd {
                let headerStart = i
                let nameLength = Int(bytes[i])
                if nameLength == 0 { return fail(.emptyHeaderName, headerStart) }
                i += 1
                if i + nameLength >= headersEnd { return fail(.headerOverrun, headerStart) }
                let name = String(decoding: bytes[i..<(i + nameLength)], as: UTF8.self)
                i += nameLength
                let type = bytes[i]
                i += 1
                let widths: [UInt8: Int] = [0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16]
                var length: Int
                if type == 6 || type == 7 {
                    if i + 2 > headersEnd { return fail(.headerOverrun, headerStart) }
                    length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                    i += 2
                } else if let width = widths[type] {
                    length = width
                } else {
                    return fail(.unknownHeaderValueType(type), headerStart)
                }
                if i + length > headersEnd { return fail(.headerOverrun, headerStart) }
                let raw = bytes[i..<(i + length)]
                let value: AWSEventStreamHeaderValue
                switch type {
                case 0: value = .bool(true)
                case 1: value = .bool(false)
                case 2: value = .byte(Int8(truncatingIfNeeded: signed(raw)))
                case 3: value = .short(Int16(truncatingIfNeeded: signed(raw)))
                case 4: value = .int(Int32(truncatingIfNeeded: signed(raw)))
                case 5: value = .long(signed(raw))
                case 6: value = .bytes(Array(raw))
                case 7: value = .string(String(decoding: raw, as: UTF8.self))
                case 8: value = .timestamp(signed(raw))
                default: value = .uuid(Array(raw))
                }
                headers.append(AWSEventStreamHeader(name: name, value: value))
                i += length
            }
            outcome.messages.append(
                AWSEventStreamMessage(
                    headers: headers, payload: Array(bytes[headersEnd..<(end - 4)]), streamOffset: start))
            start = end
        }
        return outcome
    }
}
