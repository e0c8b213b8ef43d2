// The baseline: how Swift clients commonly consume the stream. Lines are
// split as `String`s, every `data:` line is decoded by a fresh JSONDecoder into
// Codable structs, text is accumulated with `String +=`, and tool input is
// accumulated as a String and re-parsed whole by JSONSerialization on every
// delta to show a partial value (what the official SDKs do with their
// partial-JSON parsers: O(n) per delta, O(n²) per block).

import Foundation

enum NaiveClient {
    struct Event: Decodable {
        var type: String
        var index: Int?
        var delta: Delta?
        var content_block: Block?
    }

    struct Delta: Decodable {
        var type: String?
        var text: String?
        var partial_json: String?
        var thinking: String?
    }

    struct Block: Decodable {
        var type: String
    }

    @inline(never)
    static func run(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        var blocks: [Int: String] = [:]
        var parsedValues = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("data: ") {
            let data = Data(line.dropFirst(6).utf8)
            guard let event = try? JSONDecoder().decode(Event.self, from: data) else { continue }
            guard event.type == "content_block_delta", let index = event.index, let delta = event.delta else { continue }
            if let piece = delta.text ?? delta.thinking {
                blocks[index, default: ""] += piece
            } else if let piece = delta.partial_json {
                blocks[index, default: ""] += piece
                let closed = blocks[index, default: ""] + "\"}]}"
                if (try? JSONSerialization.jsonObject(with: Data(closed.utf8), options: .fragmentsAllowed)) != nil {
                    parsedValues += 1
                }
            }
        }
        return blocks.values.reduce(parsedValues) { $0 + $1.utf8.count }
    }
}
