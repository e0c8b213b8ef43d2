#if os(Linux) || os(macOS)

// The credentials a client may use, taken out of the process environment
// once, and the environment a tool gets: everything else, never a credential.
//
// A tool is another program, maybe one the model chose the input of, so it
// must not be able to read a key. Two places hold one:
//
//   * the environment passed to the child: built from this process's
//     environment minus every name in `scrubbed` (the credential variables
//     of the Anthropic API, Amazon Bedrock and Google Vertex AI, whether or
//     not the client uses them);
//   * this process's own environment block, which Linux shows any process
//     of the same user in /proc/PID/environ. `unsetenv` and `setenv` only
//     change the `environ` pointer array; /proc reads the bytes execve put
//     on the stack, so the key would still be there. `capture()` therefore
//     overwrites those bytes in place (the value's characters become `x`)
//     after copying them, and only then unsets the variable.

import _ProcessSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The credential variables a shell tool never sees, and the capture that
/// removes them from the process itself.
public enum CredentialEnvironment {
    /// Every variable that holds a credential, or names a file that does,
    /// for the three endpoints (Anthropic API, Amazon Bedrock, Google
    /// Vertex AI). The module's catalog ("The tool environment") says what
    /// stays and what this cannot hide.
    public static let scrubbed: [String] = [
        // Anthropic API
        "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_ADMIN_KEY", "ANTHROPIC_CUSTOM_HEADERS",
        // Amazon Bedrock: its API key and the AWS SDK credential chain
        "AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
        "AWS_SECURITY_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
        // Google Vertex AI: gcloud and Application Default Credentials
        "CLOUDSDK_AUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE", "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
        "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_OAUTH_ACCESS_TOKEN", "GOOGLE_CREDENTIALS",
        "GOOGLE_CLOUD_CREDENTIALS", "GOOGLE_API_KEY",
    ]

    /// The whole environment as it was, credentials included (for the
    /// client alone); afterwards no credential is left in the process's
    /// environment, neither in `environ` nor in the block /proc shows.
    ///
    /// Call it once, first thing, before any thread reads the environment:
    /// it overwrites the values where they lie (Linux shows the process's
    /// original environment block to any process of the same user in
    /// `/proc/PID/environ`), then unsets them.
    ///
    /// - Complexity: O(size of the environment).
    public static func capture() -> [String: String] {
        var captured: [String: String] = [:]
        guard var entry = _process_environment() else { return captured }
        var found: [String] = []
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                captured[name] = String(text[text.index(after: equals)...])
                if scrubbed.contains(name) {
                    found.append(name)
                    overwriteValue(pointer, nameLength: name.utf8.count)
                }
            }
            entry += 1
        }
        for name in found { unsetenv(name) }
        return captured
    }

    /// `NAME=value` becomes `NAME=xxxxx` where it lies.
    private static func overwriteValue(_ pointer: UnsafeMutablePointer<CChar>, nameLength: Int) {
        var cursor = pointer + nameLength + 1
        while cursor.pointee != 0 {
            cursor.pointee = CChar(UInt8(ascii: "x"))
            cursor += 1
        }
    }

    /// The non-empty values of the credential variables in `environment`,
    /// for a `SecretRedactor`.
    public static func secrets(in environment: [String: String]) -> [String] {
        scrubbed.compactMap { environment[$0] }.filter { !$0.isEmpty }
    }

    /// `NAME=value` strings for a tool: `environment` without any
    /// credential (nor a name holding `=`), plus `extra` (which wins).
    ///
    /// - Complexity: O(n log n) in the size of the environment.
    public static func forTool(_ environment: [String: String], extra: [(String, String)]) -> [String] {
        var result: [String] = []
        let extraNames = Set(extra.map(\.0))
        for (name, value) in environment.sorted(by: { $0.key < $1.key })
        where !scrubbed.contains(name) && !extraNames.contains(name) && !name.contains("=") {
            result.append("\(name)=\(value)")
        }
        for (name, value) in extra { result.append("\(name)=\(value)") }
        return result
    }
}

#endif
