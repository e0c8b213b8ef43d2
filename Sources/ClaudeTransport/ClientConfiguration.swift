import ClaudeStreaming
import Foundation

/// Where and how a ``MessagesClient`` sends requests.
public struct ClientConfiguration: Sendable {
    /// `https://api.anthropic.com`, or a relay; `v1/messages` is appended.
    public var baseURL: URL
    /// Nil means "none configured": streaming fails with
    /// ``TransportError/missingCredential(_:)`` before connecting.
    public var credentials: Credentials?
    /// Longest wait for the next byte, in seconds.
    public var idleTimeout: Double
    /// Longest time for the whole request, first byte to `message_stop`, in seconds.
    public var overallTimeout: Double
    /// Which failures are sent again, how often and after what wait:
    /// ``RetryPolicy/standard`` (2 retries) unless set.
    public var retryPolicy: RetryPolicy
    /// How each response's stream is read: limits, structured output. The
    /// client sets the framing from ``endpoint`` and the response's
    /// `request-id` itself, and parses every text block as JSON when the
    /// request has an output schema.
    public var accumulatorOptions: MessageAccumulatorOptions
    /// An error body longer than this is cut (its JSON then reads as text).
    public var maxErrorBodyBytes: Int
    /// The Anthropic API (default), Amazon Bedrock or Google Vertex AI.
    public var endpoint: ClaudeEndpoint = .anthropic

    /// `https://api.anthropic.com`, the default ``baseURL``.
    public static let anthropicAPI: URL = {
        guard let url = URL(string: "https://api.anthropic.com") else { preconditionFailure("constant URL") }
        return url
    }()

    /// A configuration sending to `baseURL` with `credentials`.
    ///
    /// - Parameters:
    ///   - baseURL: the API's origin (the Anthropic API by default).
    ///   - credentials: the credential of every request; nil fails each request before connecting.
    ///   - idleTimeout: longest wait for the next byte, in seconds (60).
    ///   - overallTimeout: longest time for a whole request, in seconds (600).
    ///   - retryPolicy: what is retried and how (``RetryPolicy/standard``; ``RetryPolicy/none`` turns it off).
    ///   - accumulatorOptions: how each stream is read.
    ///   - maxErrorBodyBytes: longest error body read (1 MiB).
    public init(
        baseURL: URL = ClientConfiguration.anthropicAPI,
        credentials: Credentials?,
        idleTimeout: Double = 60,
        overallTimeout: Double = 600,
        retryPolicy: RetryPolicy = .standard,
        accumulatorOptions: MessageAccumulatorOptions = .init(),
        maxErrorBodyBytes: Int = 1 << 20
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.idleTimeout = idleTimeout
        self.overallTimeout = overallTimeout
        self.retryPolicy = retryPolicy
        self.accumulatorOptions = accumulatorOptions
        self.maxErrorBodyBytes = maxErrorBodyBytes
    }
}
