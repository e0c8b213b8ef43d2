// Fuzz property for replay: a snapshot must survive being written down and
// read back, because a client sends the final message as its next assistant
// turn and stores snapshots (Codable) to resume a conversation.
//
// Arbitrary bytes are read as a stream by `MessageAccumulator`. For every
// finished message (and the final or error snapshot):
// - messageJSON -> `MessageSnapshot(messageJSON:)` -> messageJSON is the same
//   JSON (key order, number text, opaque fields byte for byte);
// and for two snapshots handed out, finished or not (one at a place the
// input picks, and the last):
// - the Codable round trip (JSONEncoder, then JSONDecoder) gives the same
//   messageJSON, the same completeness and the same open blocks, and
//   encoding the decoded snapshot again gives the same bytes.
//
// Input layout: byte 0 picks options (sequential messages, structured
// output: bits 0 and 1) and, in bits 2...7, where the other snapshot is
// (k/64 of the way through); the rest is the stream, fed whole. Empty
// input is a no-op.

import ClaudeStreaming
import Foundation
import IncrementalJSON

public enum ReplayFuzzProperty {
    /// Returns nil when the property holds, else a description of the failure.
    /// With `everySnapshot` false only the last snapshot goes through Codable
    /// (checking each of n snapshots costs O(n²) on a long recording).
    public static func check(_ input: UnsafeRawBufferPointer, everySnapshot: Bool = true) -> String? {
        guard let selector = input.first else { return nil }
        let options = MessageAccumulatorOptions(
            allowsSequentialMessages: selector & 1 != 0,
            structuredOutput: selector & 2 != 0 ? .allTextBlocks : .none)
        let stream = UnsafeRawBufferPointer(rebasing: input[1...])

        var accumulator = MessageAccumulator(options: options)
        var handedOut: [MessageSnapshot] = []
        var finished: [MessageSnapshot] = []
        do throws(MessageStreamError) {
            try accumulator.feed(stream) { if everySnapshot { handedOut.append($0) } }
            finished = accumulator.completedMessages
            handedOut.append(try accumulator.finish())
        } catch {
            finished = error.completedMessages
            if let snapshot = error.snapshot { handedOut.append(snapshot) }
        }
        for snapshot in finished + handedOut.filter(\.isComplete) {
            if let failure = rebuildsFromJSON(snapshot) { return failure }
        }
        // Two snapshots, not every one: each costs O(size) through Foundation's
        // coders, so all n would cost O(n²) per input; with eight spread over
        // the stream, the round trips were two thirds of a campaign's time.
        // Across inputs, byte 0 puts the first anywhere in the stream.
        guard let last = handedOut.indices.last else { return nil }
        let picked = Int(selector >> 2) * handedOut.count / 64
        for index in Set([min(picked, last), last]).sorted() {
            if let failure = survivesCodable(handedOut[index]) { return failure }
        }
        return nil
    }

    /// messageJSON -> MessageSnapshot(messageJSON:) -> messageJSON.
    public static func rebuildsFromJSON(_ snapshot: MessageSnapshot) -> String? {
        let json = snapshot.messageJSON()
        let rebuilt = MessageSnapshot(messageJSON: json).messageJSON()
        if rebuilt != json { return "rebuilt from JSON:\n\(json.compactJSON)\nvs\n\(rebuilt.compactJSON)" }
        return nil
    }

    /// JSONEncoder -> JSONDecoder -> the same message, state and bytes.
    public static func survivesCodable(_ snapshot: MessageSnapshot) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data: Data
        let decoded: MessageSnapshot
        do {
            data = try encoder.encode(snapshot)
            decoded = try JSONDecoder().decode(MessageSnapshot.self, from: data)
        } catch {
            return "Codable round trip failed: \(error)\nfor \(snapshot.messageJSON().compactJSON)"
        }
        let json = snapshot.messageJSON()
        if decoded.messageJSON() != json {
            return "Codable changed the message:\n\(json.compactJSON)\nvs\n\(decoded.messageJSON().compactJSON)"
        }
        if decoded.isComplete != snapshot.isComplete { return "Codable changed isComplete for \(json.compactJSON)" }
        let open = { (s: MessageSnapshot) in s.content.indices.filter { !s.content[$0].isComplete } }
        if open(decoded) != open(snapshot) {
            return "Codable changed the open blocks \(open(snapshot)) to \(open(decoded)) for \(json.compactJSON)"
        }
        guard let again = try? encoder.encode(decoded), again == data else {
            return "encoding the decoded snapshot gave other bytes for \(json.compactJSON)"
        }
        return nil
    }
}
