import ClaudeTestSupport
import ClaudeTransport

extension LoopbackServer {
    /// A client of script `id` (see `LoopbackServer.script`); by default it
    /// retries nothing, so a scripted fault is the answer (RetryTests and
    /// SessionRetryTests give a policy).
    func client(_ id: String, idleTimeout: Double = loopbackIdleTimeout, retryPolicy: RetryPolicy = .none) -> MessagesClient {
        MessagesClient(
            configuration: ClientConfiguration(
                baseURL: base(id), credentials: .apiKey("sk-ant-session-test-0123456789"), idleTimeout: idleTimeout,
                retryPolicy: retryPolicy))
    }
}
