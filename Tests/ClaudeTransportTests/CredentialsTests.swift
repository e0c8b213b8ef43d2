import Foundation
import Testing

@testable import ClaudeTransport

private let secretKey = "sk-ant-test-0123456789-SECRET"

@Suite struct CredentialsTests {
    @Test func keyNeverAppearsInPrintedForms() {
        let credentials = Credentials.apiKey(secretKey)
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [
            credentials.description, credentials.debugDescription, "\(credentials)",
            String(reflecting: credentials), dumped,
        ] {
            #expect(!text.contains(secretKey), "leaked in: \(text)")
        }
        let configuration = ClientConfiguration(credentials: credentials)
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        #expect(!dumpedConfiguration.contains(secretKey))
        #expect(!String(describing: configuration).contains(secretKey))
    }

    @Test func missingCredentialFailsBeforeAnyTraffic() {
        // Port 9 (discard) on loopback: nothing listens; any traffic would be a network error instead.
        let base = URL(string: "http://127.0.0.1:9")
        for credentials in [nil, Credentials.apiKey(""), .apiKey("  \n")] {
            let client = MessagesClient(configuration: ClientConfiguration(baseURL: base ?? ClientConfiguration.anthropicAPI, credentials: credentials))
            #expect {
                _ = try client.stream(MessageRequest(model: .opus5, messages: [.user("x")]))
            } throws: { error in
                guard case .missingCredential(let reason) = error as? TransportError else { return false }
                return !reason.isEmpty
            }
        }
    }

    @Test func invalidRequestFailsBeforeAnyTraffic() {
        let client = MessagesClient(configuration: ClientConfiguration(credentials: .apiKey(secretKey)))
        #expect {
            _ = try client.stream(MessageRequest(model: .haiku4_5, messages: [.user("x")], effort: .max))
        } throws: { error in
            guard case .invalidRequest(.unsupportedEffort(.max, _)) = error as? TransportError else { return false }
            return !"\(error)".contains(secretKey)
        }
    }

    @Test func environmentKey() {
        #expect(Credentials.apiKeyFromEnvironment([:]) == nil)
        #expect(Credentials.apiKeyFromEnvironment(["ANTHROPIC_API_KEY": ""]) == nil)
        guard case .apiKey(let key)? = Credentials.apiKeyFromEnvironment(["ANTHROPIC_API_KEY": "k"]) else {
            Issue.record("expected an API key")
            return
        }
        #expect(key == "k")
    }

    @Test func redactionReplacesEveryOccurrence() {
        let redactor = SecretRedactor(secrets: [secretKey])
        #expect(redactor.redact("a \(secretKey) b \(secretKey)") == "a <redacted> b <redacted>")
        #expect(SecretRedactor(secrets: [""]).redact("nothing here") == "nothing here")
    }
}
