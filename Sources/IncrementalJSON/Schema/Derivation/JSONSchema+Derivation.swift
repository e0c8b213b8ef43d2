// Deriving a schema from a `Decodable` type at run time, without macros:
// `init(from:)` runs once against a decoder that answers with placeholder
// values and records what it is asked for (SchemaRecorder.swift). The
// result is cached per type, so the cost is paid once per process.
//
// What is read, and how:
// - keyed containers are objects: each `decode` is a required property,
//   each `decodeIfPresent` an optional one, in the order asked (the order
//   of declaration for synthesized conformances); `additionalProperties` is
//   false;
// - `String`, `Bool`, every integer and floating-point type and `Decimal`
//   are scalars; `Date`, `URL` and `UUID` are strings with `format`
//   `date-time`, `uri` and `uuid`;
// - arrays and sets are arrays; `[String: V]` is a dictionary; `Optional`
//   in an array or as a `decode`d value is nullable;
// - `String`- and `Int`-raw-value `CaseIterable` enums list their cases;
// - a type met again while its own `init(from:)` is running is recursive:
//   it goes into `$defs` and every use of it becomes a `$ref`.
//
// To catch an `init(from:)` that branches on the values it reads, the
// recording runs twice with different placeholders (empty and non-empty
// strings, 0 and 1, the first and the last enum case) and the two schemas
// must agree. A branch that only a specific value takes (`if kind ==
// "circle"`) cannot be seen from outside; such a type declares its schema
// (`JSONSchemaDeclaring`).

import Synchronization

extension JSONSchema {
    /// The schema of `type`, derived from what its `init(from:)` asks for,
    /// with the descriptions and constraints of ``JSONSchemaAnnotated`` and
    /// the schemas of ``JSONSchemaDeclaring`` types applied.
    ///
    /// - Throws: ``SchemaDerivationError`` naming the type and coding path
    ///   of a shape that cannot be derived (never a wrong schema).
    /// - Complexity: the first call per type runs `init(from:)` twice per
    ///   nested type; later calls are one dictionary lookup under a lock.
    public init<T: Decodable>(for type: T.Type) throws(SchemaDerivationError) {
        self = try SchemaCache.shared.schema(for: type)
    }
}

/// Derived schemas (and derivation failures) by type, shared process-wide.
final class SchemaCache: Sendable {
    static let shared = SchemaCache()

    private let entries = Mutex<[ObjectIdentifier: Result<JSONSchema, SchemaDerivationError>]>([:])

    func schema<T: Decodable>(for type: T.Type) throws(SchemaDerivationError) -> JSONSchema {
        let id = ObjectIdentifier(type)
        if let known = entries.withLock({ $0[id] }) { return try known.get() }
        // Derived outside the lock: a declared schema may itself ask for a
        // derived one, and the lock is not reentrant. Two threads racing on
        // a new type derive the same value; the first stored is kept.
        let derived: Result<JSONSchema, SchemaDerivationError>
        do throws(SchemaDerivationError) {
            derived = .success(try Self.derive(type))
        } catch {
            derived = .failure(error)
        }
        let kept = entries.withLock { entries in
            if let earlier = entries[id] { return earlier }
            entries[id] = derived
            return derived
        }
        return try kept.get()
    }

    /// Records `type` with both placeholder sets and checks they agree.
    static func derive<T: Decodable>(_ type: T.Type) throws(SchemaDerivationError) -> JSONSchema {
        let first = try SchemaRecording(root: type, variant: 0).document(for: type)
        let second = try SchemaRecording(root: type, variant: 1).document(for: type)
        if first != second {
            let path = firstDifference(first, second) ?? "$"
            throw SchemaDerivationError(
                type: typeName(type), path: path,
                reason: .branchesOnValues("different placeholder values gave different shapes"))
        }
        return first
    }
}

/// Where two schemas first differ, as a path; nil when only at the top.
func firstDifference(_ a: JSONSchema, _ b: JSONSchema, path: String = "$") -> String? {
    switch (a, b) {
    case (.object(let left, _), .object(let right, _)):
        for (l, r) in zip(left, right) where l != r {
            if l.name != r.name || l.isRequired != r.isRequired { return path + "." + l.name }
            return firstDifference(l.schema, r.schema, path: path + "." + l.name) ?? path + "." + l.name
        }
        if left.count != right.count {
            let extra = left.count > right.count ? left[right.count] : right[left.count]
            return path + "." + extra.name
        }
        return nil
    case (.array(let l, _), .array(let r, _)):
        return firstDifference(l, r, path: path + "[*]")
    case (.nullable(let l), .nullable(let r)), (.constrained(let l, _), .constrained(let r, _)):
        return firstDifference(l, r, path: path)
    case (.defining(_, let l), .defining(_, let r)):
        return firstDifference(l, r, path: path)
    default:
        return a == b ? nil : path
    }
}

/// The name a type is shown and defined by: `Trip`, `Tree<String>`.
func typeName(_ type: Any.Type) -> String { String(describing: type) }
