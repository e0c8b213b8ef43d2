// What the transport knows about a response besides its body: the HTTP
// `request-id` that names it (quote it to support). Set once, before the
// stream's first event, through ``MessageAccumulatorOptions/responseMetadata``,
// so every snapshot carries it at no per-snapshot cost.

/// Facts about the HTTP response that carried a message.
public struct ResponseMetadata: Sendable, Hashable {
    /// The `request-id` header of the (successful) response.
    public var requestID: String?

    /// Metadata naming the response's `request-id`, if known.
    public init(requestID: String? = nil) {
        self.requestID = requestID
    }
}
