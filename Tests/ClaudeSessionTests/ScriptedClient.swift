import ClaudeTestSupport
import ClaudeTransport

extension LoopbackServer {
    /// A client of script `id` (see `LoopbackServer.script`).
    func client(_ id: String, idleTimeout: Double = 10) -> MessagesClient {
        MessagesClient(
            configuration: ClientConfiguration(
                baseURL: base(id), credentials: .apiKey("sk-ant-session-test-0123456789"), idleTimeout: idleTimeout))
    }
}
