// Header values of the AWS event-stream framing, and the one walker over a
// header block that both validation (in the parser) and reading (from a
// message view) use.
//
// Wire form of one header: name length (1 byte, 1...255), name bytes, value
// type (1 byte), value. Types 0/1 carry no bytes (true/false); 2, 3, 4, 5
// are 1-, 2-, 4-, 8-byte big-endian signed integers; 6 (bytes) and 7
// (string) have a 2-byte big-endian length then the bytes; 8 is an 8-byte
// timestamp in epoch milliseconds; 9 is a 16-byte UUID.

/// A typed header value.
public enum AWSEventStreamHeaderValue: Sendable, Hashable {
    /// Types 0 (true) and 1 (false): no value bytes.
    case bool(Bool)
    /// Type 2: a signed 8-bit integer.
    case byte(Int8)
    /// Type 3: a signed 16-bit big-endian integer.
    case short(Int16)
    /// Type 4: a signed 32-bit big-endian integer.
    case int(Int32)
    /// Type 5: a signed 64-bit big-endian integer.
    case long(Int64)
    /// Type 6: opaque bytes, at most 65,535.
    case bytes([UInt8])
    /// UTF-8 on the wire; invalid sequences become U+FFFD.
    case string(String)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    /// The 16 bytes of a UUID, in wire order.
    case uuid([UInt8])

    /// The wire type byte (0 true, 1 false, 2 byte … 9 uuid).
    public var typeCode: UInt8 {
        switch self {
        case .bool(let value): value ? 0 : 1
        case .byte: 2
        case .short: 3
        case .int: 4
        case .long: 5
        case .bytes: 6
        case .string: 7
        case .timestamp: 8
        case .uuid: 9
        }
    }
}

/// One header, copied out of a message.
public struct AWSEventStreamHeader: Sendable, Hashable {
    /// The header's name (1 to 255 UTF-8 bytes on the wire), e.g. `:event-type`.
    public var name: String
    /// The header's typed value.
    public var value: AWSEventStreamHeaderValue

    /// A header called `name` with `value`.
    public init(name: String, value: AWSEventStreamHeaderValue) {
        self.name = name
        self.value = value
    }
}

/// Where one header lies inside its header block.
struct HeaderSpan {
    var name: Range<Int>
    var type: UInt8
    /// The value bytes (for types 6 and 7 without the length prefix).
    var value: Range<Int>
}

/// A malformed header: what and where (offset inside the header block).
struct HeaderFault: Error {
    var reason: AWSEventStreamError.Reason
    var offset: Int
}

/// Reads the header starting at `start` of `block`.
/// - Complexity: O(1).
@inline(__always)
func readHeader(_ block: UnsafeRawBufferPointer, at start: Int) throws(HeaderFault) -> HeaderSpan {
    let end = block.count
    let nameLength = Int(block[start])
    guard nameLength > 0 else { throw HeaderFault(reason: .emptyHeaderName, offset: start) }
    let nameStart = start + 1
    let typeIndex = nameStart + nameLength
    guard typeIndex < end else { throw HeaderFault(reason: .headerOverrun, offset: start) }
    let type = block[typeIndex]
    var valueStart = typeIndex + 1
    let valueLength: Int
    switch type {
    case 0, 1: valueLength = 0
    case 2: valueLength = 1
    case 3: valueLength = 2
    case 4: valueLength = 4
    case 5, 8: valueLength = 8
    case 9: valueLength = 16
    case 6, 7:
        guard valueStart + 2 <= end else { throw HeaderFault(reason: .headerOverrun, offset: start) }
        valueLength = Int(block[valueStart]) << 8 | Int(block[valueStart + 1])
        valueStart += 2
    default: throw HeaderFault(reason: .unknownHeaderValueType(type), offset: start)
    }
    guard valueStart + valueLength <= end else { throw HeaderFault(reason: .headerOverrun, offset: start) }
    return HeaderSpan(name: nameStart..<typeIndex, type: type, value: valueStart..<(valueStart + valueLength))
}

/// Big-endian integer of `range.count` (≤ 8) bytes, sign-extended from its width.
@inline(__always)
func bigEndian(_ block: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int64 {
    var value: UInt64 = 0
    for i in range { value = value << 8 | UInt64(block[i]) }
    let shift = UInt64(64 - 8 * range.count)
    return Int64(bitPattern: value << shift) >> shift
}

extension HeaderSpan {
    /// The decoded value.
    func value(in block: UnsafeRawBufferPointer) -> AWSEventStreamHeaderValue {
        let bytes = UnsafeRawBufferPointer(rebasing: block[value])
        switch type {
        case 0: return .bool(true)
        case 1: return .bool(false)
        case 2: return .byte(Int8(truncatingIfNeeded: bigEndian(block, value)))
        case 3: return .short(Int16(truncatingIfNeeded: bigEndian(block, value)))
        case 4: return .int(Int32(truncatingIfNeeded: bigEndian(block, value)))
        case 5: return .long(bigEndian(block, value))
        case 6: return .bytes(Array(bytes))
        case 7: return .string(String(decoding: bytes, as: UTF8.self))
        case 8: return .timestamp(bigEndian(block, value))
        default: return .uuid(Array(bytes))
        }
    }
}
