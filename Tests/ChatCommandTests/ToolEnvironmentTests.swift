// What a tool can see of chat: no credential of any endpoint in its own
// environment, nor in chat's (/proc/$PPID/environ), while everything else
// of the environment reaches it.

import ClaudeTestSupport
import Foundation
import IncrementalJSON
import Testing

/// One value per credential variable, each distinct and easy to find.
private let credentials: [String: String] = [
    "ANTHROPIC_AUTH_TOKEN": "anthropic-auth-token-0123456789",
    "AWS_BEARER_TOKEN_BEDROCK": "ABSKbedrock-token-0123456789",
    "AWS_ACCESS_KEY_ID": "AKIAACCESSKEYID0123",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-access-key-0123456789",
    "AWS_SESSION_TOKEN": "aws-session-token-0123456789",
    "GOOGLE_APPLICATION_CREDENTIALS": "/secret/google-credentials-0123456789.json",
    "CLOUDSDK_AUTH_ACCESS_TOKEN": "ya29.cloudsdk-token-0123456789",
]

@Suite(.enabled(if: TestPaths.serverAvailable && chatExecutable != nil, "needs python3 and the built claude-stream"))
struct ToolEnvironmentTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/environ"), "needs /proc"))
    func noCredentialReachesATool() throws {
        let server = try ChatScript([
            response([toolUse("toolu_1", "env", "{}"), toolUse("toolu_2", "parent", "{}")], stop: "tool_use"),
            response([textBlock], stop: "end_turn"),
        ])
        var environment: [String: String?] = credentials.mapValues { $0 }
        environment["CHAT_TEST_MARKER"] = "visible-marker"
        let run = try runChat(
            [
                "Go", "--final-json", "--base-url", server.base,
                "--tool", "env=env", "--tool", "parent=tr '\\0' '\\n' < /proc/$PPID/environ",
            ],
            environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let results = lastResults(try server.bodies()[1])
        let own = results.first?["content"]?.stringValue ?? ""
        let parents = results.last?["content"]?.stringValue ?? ""
        // Not vacuous: the rest of the environment is there, in both.
        #expect(own.contains("CHAT_TEST_MARKER=visible-marker") && own.contains("CLAUDE_TOOL_NAME=env"), "\(own)")
        #expect(parents.contains("CHAT_TEST_MARKER=visible-marker"), "\(parents)")
        for (name, value) in credentials.merging(["ANTHROPIC_API_KEY": chatKey], uniquingKeysWith: { a, _ in a }) {
            #expect(!own.contains(value), "\(name) reached the tool's environment")
            #expect(!parents.contains(value), "\(name) is in /proc/PPID/environ")
            #expect(!own.contains(name + "="), "\(name) is set for the tool")
        }
    }
}
