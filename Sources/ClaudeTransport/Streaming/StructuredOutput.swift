public import ClaudeStreaming
public import IncrementalJSON

// Typed structured output. A request with `outputSchema` is answered with
// JSON text that the accumulator parses as it streams (the client turns that
// on by itself); these helpers decode it into the caller's types. A decode
// that cannot give a value always says why, so "no value" is never a silent
// nil: not requested, nothing yet, invalid JSON (at which byte), refused,
// cut short, or a type mismatch (at which coding path).

/// Why a structured answer did not decode.
public enum StructuredOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No text block was parsed as JSON: the request had no output schema
    /// (or `MessageAccumulatorOptions.structuredOutput` was switched off).
    case notRequested
    /// The answer has no JSON text yet.
    case noOutputYet
    /// The text of content block `blockIndex` is not valid JSON.
    case invalidJSON(blockIndex: Int, JSONParseError)
    /// The model refused (`stop_reason: refusal`); `explanation` from `stop_details`.
    case refused(explanation: String?)
    /// The message ended (`stopReason`) before the JSON was complete.
    case incomplete(stopReason: String?)
    /// The JSON does not fit the type: what and where (the coding path).
    case typeMismatch(String)
    /// The final value decodes but breaks constraints of the type's schema
    /// that the API does not enforce (see `JSONSchema.Constraint`): each
    /// violation with its path.
    case violatesSchema([JSONSchemaViolation])
    /// The type's schema could not be derived, so nothing was asked.
    case schemaDerivation(SchemaDerivationError)
    /// The stream failed before the answer was complete.
    case streamFailed(StreamFailure)

    /// A transport failure inside a ``StructuredOutputError``, compared by
    /// its description (`TransportError` itself is not `Hashable`).
    public struct StreamFailure: Sendable, Hashable, CustomStringConvertible {
        /// The failure, with the snapshot so far where it has one.
        public let error: TransportError

        /// Wraps `error`.
        public init(_ error: TransportError) { self.error = error }

        public var description: String { error.description }
        public static func == (lhs: StreamFailure, rhs: StreamFailure) -> Bool { lhs.description == rhs.description }
        public func hash(into hasher: inout Hasher) { hasher.combine(description) }
    }

    public var description: String {
        switch self {
        case .notRequested: "the request did not ask for structured output (no output schema)"
        case .noOutputYet: "no structured output has arrived yet"
        case .invalidJSON(let index, let error): "content block \(index) is not valid JSON: \(error)"
        case .refused(let explanation): "the model refused\(explanation.map { ": \($0)" } ?? "")"
        case .incomplete(let reason): "the answer ended (stop_reason \(reason ?? "none")) before its JSON was complete"
        case .typeMismatch(let what): "the JSON does not decode: \(what)"
        case .violatesSchema(let violations): "the value breaks its schema: \(violations.map(\.description).joined(separator: "; "))"
        case .schemaDerivation(let error): "no schema: \(error)"
        case .streamFailed(let failure): "the stream failed: \(failure)"
        }
    }

    /// A decoding failure as ``typeMismatch(_:)``: what was expected, and
    /// where (the coding path).
    public static func mismatch(_ error: any Error) -> StructuredOutputError {
        guard let error = error as? DecodingError else { return .typeMismatch("\(error)") }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at \(keys)"
        }
        return switch error {
        case .typeMismatch(let type, let context): .typeMismatch("expected \(type) \(path(context)): \(context.debugDescription)")
        case .valueNotFound(let type, let context): .typeMismatch("missing \(type) \(path(context)): \(context.debugDescription)")
        case .keyNotFound(let key, let context): .typeMismatch("missing key '\(key.stringValue)' \(path(context))")
        case .dataCorrupted(let context): .typeMismatch("invalid value \(path(context)): \(context.debugDescription)")
        @unknown default: .typeMismatch("\(error)")
        }
    }
}

extension MessageSnapshot {
    /// The structured output decoded as `type`.
    ///
    /// With `complete: false`, a partial type (every property optional)
    /// decodes at any moment of the stream; with `complete: true` the JSON
    /// must be whole and the message finished.
    ///
    /// - Throws: ``StructuredOutputError`` saying why there is no value.
    /// - Complexity: O(size of the value).
    public func decodeStructured<T: Decodable>(_ type: T.Type, complete: Bool) throws(StructuredOutputError) -> T {
        if stopReason == "refusal" { throw .refused(explanation: stopDetails?["explanation"]?.stringValue) }
        var selectedAny = false
        for (index, block) in content.enumerated() {
            guard case .text(let text) = block else { continue }
            if let error = text.structuredError { throw .invalidJSON(blockIndex: index, error) }
            guard let value = text.structuredValue else { continue }
            selectedAny = true
            if complete, !value.isComplete || !isComplete { throw .incomplete(stopReason: stopReason) }
            let decoded: T
            do {
                decoded = try JSONValueDecoder(requireComplete: complete).decode(type, from: value)
            } catch {
                throw .mismatch(error)
            }
            if complete { try StructuredOutputError.checkConstraints(of: type, in: value) }
            return decoded
        }
        // Text that was not parsed: nothing selected it. (An empty block may just not have begun.)
        let hasText = content.contains { if case .text(let t) = $0 { !t.text.isEmpty } else { false } }
        if !selectedAny, hasText { throw .notRequested }
        if complete, isComplete { throw .incomplete(stopReason: stopReason) }
        throw .noOutputYet
    }
}

extension StructuredOutputError {
    /// Checks a final value against the schema of a type that states
    /// annotations or its own schema: the constraints the API does not
    /// enforce (numeric bounds, lengths, counts) are checked here. A type
    /// without either is checked by its decoding alone.
    ///
    /// - Throws: ``StructuredOutputError/violatesSchema(_:)`` with every violation.
    public static func checkConstraints<T: Decodable>(of type: T.Type, in value: JSONValue) throws(StructuredOutputError) {
        guard type is any JSONSchemaAnnotated.Type || type is any JSONSchemaDeclaring.Type else { return }
        let schema: JSONSchema
        do throws(SchemaDerivationError) { schema = try JSONSchema(for: type) } catch { throw .schemaDerivation(error) }
        let violations = schema.validate(value)
        if !violations.isEmpty { throw .violatesSchema(violations) }
    }
}

/// One snapshot with the caller's partial type decoded from it.
public struct StructuredSnapshot<Partial: Decodable & Sendable>: Sendable {
    /// The message as it stands.
    public var snapshot: MessageSnapshot
    /// The partial value; nil exactly when ``issue`` says why.
    public var partial: Partial?
    /// Why ``partial`` is nil (often ``StructuredOutputError/noOutputYet`` at the start).
    public var issue: StructuredOutputError?

    /// Decodes `Partial` from `snapshot` (never throws: a failure is kept in ``issue``).
    public init(_ snapshot: MessageSnapshot) {
        self.snapshot = snapshot
        do throws(StructuredOutputError) {
            partial = try snapshot.decodeStructured(Partial.self, complete: false)
            issue = nil
        } catch {
            partial = nil
            issue = error
        }
    }
}

/// The snapshots of a structured answer, each with the partial value of `Partial`.
public struct StructuredSnapshotStream<Partial: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = StructuredSnapshot<Partial>
    public typealias Failure = TransportError

    /// The underlying snapshot stream.
    public let base: MessageSnapshotStream

    /// The final answer decoded as `type` (the complete type whose partial
    /// form is `Partial`), without waking for the snapshots before it.
    ///
    /// - Throws: ``StructuredOutputError`` saying why there is no value:
    ///   the stream failed (``StructuredOutputError/streamFailed(_:)``, with
    ///   the snapshot so far), the model refused, the answer was cut short,
    ///   is not valid JSON, does not fit `type`, or breaks its constraints.
    public func collect<T: Decodable>(_ type: T.Type) async throws(StructuredOutputError) -> T {
        let last: MessageSnapshot?
        do throws(TransportError) {
            last = try await base.snapshotChannel.final()
        } catch {
            throw .streamFailed(StructuredOutputError.StreamFailure(error))
        }
        guard let last else { throw .noOutputYet }
        return try last.decodeStructured(type, complete: true)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    /// Hands out each snapshot of the base stream with `Partial` decoded from it.
    public struct Iterator: AsyncIteratorProtocol {
        var base: MessageSnapshotStream.Iterator

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(TransportError) -> Element? {
            try await base.next(isolation: actor).map(StructuredSnapshot.init)
        }

        public mutating func next() async throws(TransportError) -> Element? {
            try await base.next().map(StructuredSnapshot.init)
        }
    }
}

extension MessagesClient {
    /// The snapshots of the answer to `request` with `Partial` decoded at
    /// every one. `request` should carry an output schema (its JSON Schema
    /// the complete type follows); the client parses the text as JSON by itself.
    ///
    /// - Throws: as ``stream(_:)``, before any traffic.
    public func stream<Partial: Decodable & Sendable>(
        _ request: MessageRequest, generating type: Partial.Type
    ) throws(TransportError) -> StructuredSnapshotStream<Partial> {
        StructuredSnapshotStream(base: try stream(request))
    }
}
