// Requests and configurations print as one line of their shape, and no
// piece of a credential (key, relay header value, password in the URL)
// appears in any printable form.

import ClaudeStreaming
import ClaudeTransport
import Foundation
import Testing

struct RequestDescriptionTests {
    @Test func requestDescribesItsShapeNotItsText() throws {
        let request = MessageRequest(
            model: ClaudeModel(id: "claude-test", capabilities: .all), messages: [.user("a secret prompt")],
            system: "be brief", maxTokens: 100, serverTools: [.webSearch()])
        let text = "\(request)"
        #expect(text == "MessageRequest(claude-test, 1 turn (last: user), system 8 chars, max_tokens 100, tools [webSearch])")
        #expect(String(reflecting: request) == text)
        #expect(!text.contains("secret prompt"))
    }

    @Test func configurationNeverShowsACredential() throws {
        let key = "sk-ant-test-0123456789abcdefSECRET"
        let url = try #require(URL(string: "https://user:hunter2hunter2@relay.example.com:8443/base?token=qwertyuiopasdf"))
        for credentials in [Credentials.apiKey(key), .proxied(headers: [HTTPHeader("x-relay-auth", key)])] {
            let configuration = ClientConfiguration(baseURL: url, credentials: credentials)
            let forms = [
                "\(configuration)", String(reflecting: configuration),
                {
                    var s = ""
                    dump(configuration, to: &s)
                    return s
                }(),
            ]
            for form in forms {
                for start in 0...(key.count - 8) {
                    let piece = String(key.dropFirst(start).prefix(8))
                    #expect(!form.contains(piece), "\(piece) in \(form)")
                }
                #expect(!form.contains("hunter2"))
                #expect(!form.contains("qwertyuiop"))
            }
            #expect(forms[0].hasPrefix("ClientConfiguration(https://relay.example.com:8443/base, "))
        }
    }
}
