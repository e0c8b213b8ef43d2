/// A decoded message, borrowed from the parser's buffer or straight from the
/// chunk being fed: every pointer is valid only inside the `onMessage`
/// callback. Copy out with ``makeMessage()`` to keep it.
///
/// The header block has been validated (every header well formed), and both
/// CRCs checked, before a view is handed out.
public struct AWSEventStreamMessageView {
    /// The raw header block.
    public var headerBytes: UnsafeRawBufferPointer
    /// The payload.
    public var payload: UnsafeRawBufferPointer
    /// Stream offset of the message's first byte.
    public var streamOffset: Int
    /// The message's total length in bytes (prelude and CRCs included).
    public var totalLength: Int

    /// A view over the given buffers. The parser builds views after its
    /// checks; one made by hand is not validated, and ``forEachHeader(_:)``
    /// stops at the first malformed header.
    public init(headerBytes: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer, streamOffset: Int, totalLength: Int) {
        self.headerBytes = headerBytes
        self.payload = payload
        self.streamOffset = streamOffset
        self.totalLength = totalLength
    }

    /// Calls `body` with each header's name bytes and decoded value, in wire order.
    /// - Complexity: O(header bytes).
    public func forEachHeader(_ body: (UnsafeRawBufferPointer, AWSEventStreamHeaderValue) -> Void) {
        var i = 0
        while i < headerBytes.count, let span = try? readHeader(headerBytes, at: i) {
            body(UnsafeRawBufferPointer(rebasing: headerBytes[span.name]), span.value(in: headerBytes))
            i = span.value.upperBound
        }
    }

    /// The bytes of the first string header called `name` (e.g.
    /// `":event-type"`), or nil when there is none or it is not a string.
    /// Allocates nothing.
    /// - Complexity: O(header bytes).
    public func stringHeader(_ name: StaticString) -> UnsafeRawBufferPointer? {
        let wanted = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var i = 0
        while i < headerBytes.count, let span = try? readHeader(headerBytes, at: i) {
            if span.type == 7 && span.name.count == wanted.count
                && equal(UnsafeRawBufferPointer(rebasing: headerBytes[span.name]), wanted)
            {
                return UnsafeRawBufferPointer(rebasing: headerBytes[span.value])
            }
            i = span.value.upperBound
        }
        return nil
    }

    /// Copies the message out of the parser's buffers.
    /// - Complexity: O(message size).
    public func makeMessage() -> AWSEventStreamMessage {
        var headers: [AWSEventStreamHeader] = []
        forEachHeader { name, value in
            headers.append(AWSEventStreamHeader(name: String(decoding: name, as: UTF8.self), value: value))
        }
        return AWSEventStreamMessage(headers: headers, payload: Array(payload), streamOffset: streamOffset)
    }
}

/// A message copied out of the stream.
public struct AWSEventStreamMessage: Sendable, Hashable {
    /// Headers in wire order (names may repeat; the framing allows it).
    public var headers: [AWSEventStreamHeader]
    /// The payload bytes (for Bedrock, a JSON object).
    public var payload: [UInt8]
    /// Stream offset of the message's first byte.
    public var streamOffset: Int

    /// A message with `headers`, `payload`, starting at `streamOffset`.
    public init(headers: [AWSEventStreamHeader], payload: [UInt8], streamOffset: Int) {
        self.headers = headers
        self.payload = payload
        self.streamOffset = streamOffset
    }

    /// The value of the first header called `name`.
    /// - Complexity: O(number of headers).
    public func header(_ name: String) -> AWSEventStreamHeaderValue? {
        headers.first { $0.name == name }?.value
    }
}

@inline(__always)
func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
}
