// The one chunk decoder, offered to the command line: `claude-stream events`
// prints the Messages API event inside each Bedrock `chunk` message, and must
// read the payload exactly as the accumulator does.

import IncrementalJSON
import _ScanAcceleration

extension EventFraming {
    /// Decodes a Bedrock `chunk` payload (`{"bytes":"<base64>","p":…}`) into
    /// `event`, the Messages API event's JSON text. Returns nil on success,
    /// else what is wrong with the payload.
    /// - Complexity: O(payload.count).
    package static func decodeBedrockChunk(_ payload: UnsafeRawBufferPointer, into event: inout [UInt8]) -> String? {
        switch unwrapChunk(payload, into: &event, options: JSONParserOptions(), readsLayout: _scan_general_path() == 0) {
        case .event(let count):
            event.removeSubrange(count...)
            return nil
        case .invalid(let problem):
            return problem
        }
    }
}
