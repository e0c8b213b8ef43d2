// `claude-stream chat` run as a real process: started, optionally signalled
// while it runs, then waited for with its status, stdout and stderr. A run
// that hangs fails its test after 300 s instead of stalling the whole run.

import ClaudeTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `claude-stream` beside this test bundle, when there is one.
let chatExecutable: URL? = {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [here, here.deletingLastPathComponent()] {
        let url = folder.appendingPathComponent("claude-stream")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}()

let chatKey = "sk-ant-chat-test-key-0123456789"

struct ChatRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A running `claude-stream chat`.
final class ChatChild: @unchecked Sendable {
    let process = Process()
    private let out = Pipe(), err = Pipe(), input = Pipe()
    private var collected: [Data] = [Data(), Data()]
    private let done = DispatchGroup()

    /// Starts `chat ARGUMENTS` with `key` as ANTHROPIC_API_KEY and `environment` written over the rest.
    init(_ arguments: [String], key: String? = chatKey, environment extra: [String: String?] = [:], stdin: String = "") throws {
        guard let chatExecutable else { throw ServerStartError(description: "claude-stream not built") }
        process.executableURL = chatExecutable
        process.arguments = ["chat"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ANTHROPIC_API_KEY"] = key
        for (name, value) in extra { environment[name] = value }
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        for (index, pipe) in [out, err].enumerated() {
            done.enter()
            Thread.detachNewThread { [self] in
                collected[index] = pipe.fileHandleForReading.readToEndRetryingInterruptions()
                done.leave()
            }
        }
        try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        killIfStillRunning(process)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    func wait() -> ChatRun {
        done.wait()
        process.waitUntilExit()
        return ChatRun(
            status: process.terminationStatus, stdout: String(decoding: collected[0], as: UTF8.self),
            stderr: String(decoding: collected[1], as: UTF8.self))
    }
}

/// A hung child must fail its test, not stall the whole run until CI's
/// time is up: after 300 s it is sent SIGTERM (its status then says so).
func killIfStillRunning(_ process: Process, after seconds: Double = 300) {
    let box = UncheckedProcess(process)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        if box.process.isRunning { box.process.terminate() }
    }
}

private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}

/// Runs `chat ARGUMENTS` to its end.
func runChat(_ arguments: [String], key: String? = chatKey, environment: [String: String?] = [:], stdin: String = "") throws -> ChatRun {
    try ChatChild(arguments, key: key, environment: environment, stdin: stdin).wait()
}

/// Waits up to `seconds` until `condition` holds; whether it did.
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// Whether any process of group `group` still exists.
func groupExists(_ group: pid_t) -> Bool {
    kill(-group, 0) == 0 || errno != ESRCH
}

/// A fresh temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("chat-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
