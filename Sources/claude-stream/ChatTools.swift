// Client tools of `claude-stream chat` as shell commands. The call's input
// JSON goes to the command's stdin; CLAUDE_TOOL_USE_ID and CLAUDE_TOOL_NAME
// are in its environment, and the API key is not (a tool is another program).
// `--tool`: stdout, one trailing newline dropped, is the result's text;
// `--tool-json`: stdout is a JSON value sent as the result's `content`. A
// non-zero exit, or JSON that does not parse, is an `is_error` result.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import IncrementalJSON

enum ChatTools {
    /// Most bytes of a tool's stdout kept; more is cut and reported as an error.
    static let maxOutputBytes = 16 << 20

    /// The `tool_result` block for one streamed call.
    static func run(_ call: ToolUseBlock, command: String, json: Bool) -> JSONValue {
        run(id: call.id, name: call.name, input: call.input, inputError: call.inputError.map { "\($0)" }, command: command, json: json)
    }

    /// The `tool_result` block for one call: runs `command` unless the input is unusable.
    static func run(id: String, name: String, input: JSONValue, inputError: String?, command: String, json: Bool) -> JSONValue {
        if let inputError {
            return result(id, .string("the input is not valid JSON (\(inputError)); the tool did not run"), isError: true)
        }
        var bytes: [UInt8] = []
        input.encodeCompact(into: &bytes)
        switch execute(command, input: bytes, toolUseID: id, name: name) {
        case .failed(let reason):
            return result(id, .string(reason), isError: true)
        case .finished(let status, var output):
            if output.count > maxOutputBytes {
                return result(id, .string("the tool wrote more than \(maxOutputBytes) bytes"), isError: true)
            }
            if json {
                guard let value = try? JSONValue.parse(output), value.stringValue != nil || value.arrayValue != nil else {
                    return result(id, .string("the tool's output is not a JSON string or array of content blocks"), isError: true)
                }
                return result(id, value, isError: status != 0)
            }
            if output.last == UInt8(ascii: "\n") { output.removeLast() }
            return result(id, .string(String(decoding: output, as: UTF8.self)), isError: status != 0)
        }
    }

    /// A result for a call that cannot run here.
    static func notRun(_ id: String, name: String) -> JSONValue {
        result(id, .string("no command was given for tool '\(name)'; it did not run"), isError: true)
    }

    static func result(_ id: String, _ content: JSONValue, isError: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string("tool_result")), ("tool_use_id", .string(id)), ("content", content)]
        if isError { fields.append(("is_error", .bool(true))) }
        return .object(fields)
    }

    enum Outcome {
        case finished(status: Int32, output: [UInt8])
        case failed(String)
    }

    static func execute(_ command: String, input: [UInt8], toolUseID: String, name: String) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        // No tool sees a credential, whichever endpoint the chat uses.
        for endpoint in [ClaudeEndpoint.anthropic, .bedrock(region: ""), .vertex(project: "", region: "")] {
            environment[endpoint.credentialVariable] = nil
        }
        environment["CLAUDE_TOOL_USE_ID"] = toolUseID
        environment["CLAUDE_TOOL_NAME"] = name
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do { try process.run() } catch { return .failed("the tool's command could not start: \(error.localizedDescription)") }
        // Write stdin on its own thread so a command that prints before reading cannot deadlock.
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        var output: [UInt8] = []
        while true {
            let data = stdout.fileHandleForReading.availableData
            if data.isEmpty { break }
            if output.count <= maxOutputBytes { output.append(contentsOf: data) }
        }
        process.waitUntilExit()
        return .finished(status: process.terminationStatus, output: output)
    }
}
