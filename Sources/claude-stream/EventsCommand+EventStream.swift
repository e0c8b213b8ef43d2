// `events` over Bedrock's AWS event-stream framing. A `chunk` message prints
// the Messages API event it carries in the SSE line's shape,
// `{"event":TYPE,"data":"<event JSON>","id":"","retry":null}` (TYPE is the
// event's `type`), so a Bedrock body and the same events over SSE give the
// same lines. Every other message (an exception, an event type other than
// `chunk`) prints its headers and payload:
// `{"headers":{":message-type":"exception",…},"payload":"<text>"}`.

import AWSEventStream
import ClaudeStreaming
import Foundation
import IncrementalJSON

/// What stopped `events`: a framing error or a chunk that holds no event,
/// as `offset N: reason`.
struct EventsFailure: Error {
    var description: String
}

/// Turns AWS event-stream messages into `events` lines.
struct EventStreamLines {
    /// The current chunk's decoded event (reused).
    private var event: [UInt8] = []

    /// Appends the line for `message`; throws when a chunk's payload holds no event.
    /// - Complexity: O(message size).
    mutating func append(_ message: borrowing AWSEventStreamMessageView, to out: inout [UInt8]) throws(EventsFailure) {
        let messageType = message.stringHeader(":message-type")
        let eventType = message.stringHeader(":event-type")
        let isChunk = (messageType == nil || Self.equal(messageType, "event")) && Self.equal(eventType, "chunk")
        guard isChunk else { return Self.appendHeadersLine(message, to: &out) }
        event.removeAll(keepingCapacity: true)
        if let problem = EventFraming.decodeBedrockChunk(message.payload, into: &event) {
            throw EventsFailure(description: "offset \(message.streamOffset): \(problem)")
        }
        let type = (try? JSONValue.parse(event))?["type"]?.stringValue.map { Array($0.utf8) }
        event.withUnsafeBytes { data in
            if let type {
                type.withUnsafeBytes {
                    EventsCommand.appendJSONLine(type: $0, data: data, id: UnsafeRawBufferPointer(start: nil, count: 0), retry: nil, to: &out)
                }
            } else {
                EventsCommand.appendJSONLine(type: nil, data: data, id: UnsafeRawBufferPointer(start: nil, count: 0), retry: nil, to: &out)
            }
        }
    }

    /// `{"headers":{…},"payload":"…"}`: strings as strings, numbers and
    /// timestamps (epoch milliseconds) as numbers, bytes as base64, a UUID in its 8-4-4-4-12 form.
    private static func appendHeadersLine(_ message: borrowing AWSEventStreamMessageView, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"headers":{"#.utf8)
        var first = true
        message.forEachHeader { name, value in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONStringBytes.append(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .byte(let number): out.append(contentsOf: String(number).utf8)
            case .short(let number): out.append(contentsOf: String(number).utf8)
            case .int(let number): out.append(contentsOf: String(number).utf8)
            case .long(let number), .timestamp(let number): out.append(contentsOf: String(number).utf8)
            case .string(let text): Array(text.utf8).withUnsafeBytes { JSONStringBytes.append($0, to: &out) }
            case .bytes(let bytes): Array(Data(bytes).base64EncodedString().utf8).withUnsafeBytes { JSONStringBytes.append($0, to: &out) }
            case .uuid(let bytes): Array(uuidText(bytes).utf8).withUnsafeBytes { JSONStringBytes.append($0, to: &out) }
            }
        }
        out.append(contentsOf: #"},"payload":"#.utf8)
        JSONStringBytes.append(message.payload, to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    private static func uuidText(_ bytes: [UInt8]) -> String {
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text += "-" }
            text += String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return text
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer?, _ literal: String) -> Bool {
        guard let bytes else { return false }
        return bytes.elementsEqual(literal.utf8)
    }
}
