// `claude-stream chat` run as a real process (a ProgramUnderTest): started,
// optionally signalled while it runs, then waited for with its status,
// stdout and stderr. A run that hangs fails its test after 300 s instead of
// stalling the whole run.

import ClaudeTestSupport
import Foundation
import Synchronization

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

/// A running `claude-stream chat`, its output collected by a thread of its own.
final class ChatChild: Sendable {
    private let program: ProgramUnderTest
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<ProgramUnderTest.Result?>(nil)

    /// Starts `chat ARGUMENTS` with `key` as ANTHROPIC_API_KEY and `environment` written over the rest.
    init(_ arguments: [String], key: String? = chatKey, environment extra: [String: String?] = [:], stdin: String = "") throws {
        guard let chatExecutable else { throw ServerStartError(description: "claude-stream not built") }
        var environment = ProcessInfo.processInfo.environment
        environment["ANTHROPIC_API_KEY"] = key
        for (name, value) in extra { environment[name] = value }
        program = try ProgramUnderTest(executable: chatExecutable.path, ["chat"] + arguments, environment: environment)
        program.send(Array(stdin.utf8))
        program.closeInput()
        Thread.detachNewThread { [self] in
            let finished = program.finish()
            result.withLock { $0 = finished }
            done.signal()
        }
    }

    /// Sends `number` to chat itself (not to its tools' groups).
    func signal(_ number: Int32) { program.signal(number) }

    func wait() -> ChatRun {
        done.wait()
        let finished = result.withLock { $0 }
        return ChatRun(status: finished?.status ?? -1, stdout: finished?.stdoutText ?? "", stderr: finished?.stderr ?? "")
    }
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
