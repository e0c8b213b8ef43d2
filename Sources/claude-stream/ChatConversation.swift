// The conversation of `claude-stream chat` as a Messages API request body:
// the fields of `--request FILE` or of the transcript (model, system, tools,
// every other field as given) and the messages so far. Replayed assistant
// turns are the responses' content arrays as received, so opaque fields go
// back byte for byte. The transcript file is this body (without `stream`),
// so it can also be sent with `--request`.

import ClaudeStreaming
import Foundation
import IncrementalJSON

struct ChatConversation {
    /// Every field but `messages` and `stream`, in their order.
    var fields: [(String, JSONValue)]
    var messages: [JSONValue]

    init(body: JSONValue) {
        fields = (body.objectValue?.entries ?? JSONObject().entries)
            .filter { $0.key != "messages" && $0.key != "stream" }.map { ($0.key, $0.value) }
        messages = Array(body["messages"]?.arrayValue ?? JSONArray())
    }

    subscript(key: String) -> JSONValue? {
        get { fields.last { $0.0 == key }?.1 }
        set {
            fields.removeAll { $0.0 == key }
            if let newValue { fields.append((key, newValue)) }
        }
    }

    /// The request body: the fields, then `messages`.
    var body: JSONValue { .object(fields + [("messages", .array(messages))]) }

    /// Adds user content: to the last turn when it is the user's (tool
    /// results, then the prompt), else as a new turn.
    mutating func appendUser(_ blocks: [JSONValue]) {
        guard !blocks.isEmpty else { return }
        if let last = messages.last, last["role"]?.stringValue == "user" {
            var content: [JSONValue]
            if let text = last["content"]?.stringValue {
                content = [.object([("type", .string("text")), ("text", .string(text))])]
            } else {
                content = Array(last["content"]?.arrayValue ?? JSONArray())
            }
            content += blocks
            messages[messages.count - 1] = last.replacingFields([("content", .array(content))])
        } else {
            messages.append(.object([("role", .string("user")), ("content", .array(blocks))]))
        }
    }

    /// Adds a finished response as the assistant turn, its content verbatim.
    mutating func appendResponse(_ message: MessageSnapshot) {
        messages.append(.object([("role", .string("assistant")), ("content", message.contentJSON())]))
    }

    /// The `tool_use` blocks of the last turn when it is the assistant's and
    /// no results follow (a run that stopped at its turn limit).
    var unansweredToolCalls: [JSONValue] {
        guard let last = messages.last, last["role"]?.stringValue == "assistant" else { return [] }
        return (last["content"]?.arrayValue ?? JSONArray()).filter { $0["type"]?.stringValue == "tool_use" }
    }

    /// The body as JSON text, for the transcript file.
    var fileBytes: [UInt8] {
        var bytes: [UInt8] = []
        body.encodeCompact(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

enum ChatFiles {
    struct Failure: Error {
        var message: String
        /// 66 for a file that cannot be read, 65 for one that is not what it should be.
        var status: Int32
    }

    /// The bytes of `path`, or nil when it does not exist.
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "cannot read \(path)", status: 66)
        }
        return Array(data)
    }

    /// The JSON in `path`; `what` says what it should be, for the message.
    static func json(_ path: String, _ what: String, mustExist: Bool = true) throws(Failure) -> JSONValue? {
        guard let bytes = try read(path) else {
            if mustExist { throw Failure(message: "cannot open \(path): no such file", status: 66) }
            return nil
        }
        do throws(JSONParseError) { return try JSONValue.parse(bytes) } catch {
            throw Failure(message: "\(path) is not \(what): \(error)", status: 65)
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        do { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw Failure(message: "cannot write \(path): \(error.localizedDescription)", status: 73)
        }
    }
}
