// SecretRedactor: the one place where server-supplied text loses every piece
// of a credential before it reaches an error, a log or the terminal.
//
// Why pieces, not the whole key: a body cut at the error cap, a header
// truncated by a proxy or a message shortened for display can end in the
// middle of the key (`…EEEsk-test-SE`), and a prefix that long is already a
// leak. So every run of 8 or more bytes that occurs anywhere in a secret is
// redacted, wherever it was cut.
//
// How, in one pass: any such run contains an 8-byte window of the secret,
// and is covered by its own 8-byte windows, each of which is a window of the
// secret. So the redactor keeps the set of every 8-byte window of every
// secret (as a UInt64) and slides once over the text: each position whose
// window is in the set marks those 8 bytes. The marked bytes are exactly the
// bytes lying in some 8+ byte piece of a secret; each maximal marked run
// becomes one `<redacted>`. That is O(text) set lookups (a 64 Ki-bit filter
// on the window's first two bytes skips most of them), whatever the length
// of the key. Secrets shorter than 8 bytes can only be matched whole.

/// Removes every piece of 8 or more bytes of the given secrets (API key,
/// bearer token, relay header values) from text a server sent, so that it
/// can be shown or logged.
///
/// Apply it before truncating: a cut can only shorten a piece, never create one.
///
/// - Complexity: O(n) in the length of the text, plus O(total secret length)
///   to build.
public struct SecretRedactor: Sendable {
    /// The shortest piece of a secret that is redacted wherever it appears.
    public static let minimumPiece = 8
    /// What a redacted run is replaced with.
    public static let replacement = "<redacted>"

    /// Every 8-byte window of every secret of at least 8 bytes.
    private let secretWindows: Set<UInt64>
    /// One bit per value of a window's first two bytes: a cheap "maybe".
    private let windowFilter: [UInt64]
    /// Secrets shorter than ``minimumPiece``: matched only whole.
    private let shortSecrets: [[UInt8]]

    /// A redactor for `secrets` (empty strings are ignored).
    public init(secrets: [String]) {
        var windows = Set<UInt64>()
        var filter = [UInt64](repeating: 0, count: 1024)
        var short: [[UInt8]] = []
        for secret in secrets {
            let bytes = Array(secret.utf8)
            if bytes.isEmpty { continue }
            if bytes.count < Self.minimumPiece {
                short.append(bytes)
                continue
            }
            for start in 0...(bytes.count - Self.minimumPiece) {
                let window = Self.windowBits(bytes, at: start)
                windows.insert(window)
                let head = Int(truncatingIfNeeded: window & 0xFFFF)
                filter[head >> 6] |= 1 << UInt64(head & 63)
            }
        }
        secretWindows = windows
        windowFilter = filter
        shortSecrets = short
    }

    /// True when there is nothing to redact.
    public var isEmpty: Bool { secretWindows.isEmpty && shortSecrets.isEmpty }

    /// `text` with each run of bytes that lies in an 8+ byte piece of a
    /// secret (or equals a short secret) replaced by `<redacted>`.
    public func redact(_ text: String) -> String {
        if isEmpty { return text }
        let bytes = Array(text.utf8)
        let runs = secretRuns(in: bytes)
        if runs.isEmpty { return text }
        return String(decoding: Self.replacing(runs, in: bytes), as: UTF8.self)
    }

    /// `bytes` with the same runs replaced (for bodies before they are decoded or cut).
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        if isEmpty { return bytes }
        let runs = secretRuns(in: bytes)
        return runs.isEmpty ? bytes : Self.replacing(runs, in: bytes)
    }

    /// Whether `text` holds any piece of 8+ bytes of a secret (or a whole short one).
    public func containsSecret(_ text: String) -> Bool {
        !isEmpty && !secretRuns(in: Array(text.utf8)).isEmpty
    }

    // MARK: Internals

    /// The maximal runs of `bytes` to redact, in order, not overlapping.
    private func secretRuns(in bytes: [UInt8]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        func mark(_ range: Range<Int>) {
            if let last = runs.last, range.lowerBound <= last.upperBound {
                runs[runs.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                runs.append(range)
            }
        }
        let piece = Self.minimumPiece
        bytes.withUnsafeBufferPointer { text in
            if !secretWindows.isEmpty && text.count >= piece {
                // A rolling window: the 8 bytes ending at `end`, the first in the low byte.
                var window: UInt64 = 0
                for end in 0..<text.count {
                    window = window >> 8 | UInt64(text[end]) << 56
                    guard end >= piece - 1 else { continue }
                    let head = Int(truncatingIfNeeded: window & 0xFFFF)
                    if windowFilter[head >> 6] & (1 << UInt64(head & 63)) != 0, secretWindows.contains(window) {
                        mark((end + 1 - piece)..<(end + 1))
                    }
                }
            }
            for secret in shortSecrets where secret.count <= text.count {
                for start in 0...(text.count - secret.count)
                where text[start] == secret[0] && text[start..<(start + secret.count)].elementsEqual(secret) {
                    mark(start..<(start + secret.count))
                }
            }
        }
        // Short secrets were marked after the windows: put the runs back in order.
        if !shortSecrets.isEmpty {
            let sorted = runs.sorted { $0.lowerBound < $1.lowerBound }
            runs.removeAll()
            for run in sorted { mark(run) }
        }
        return runs
    }

    /// The 8 bytes at `start`, the first in the low byte (caller checks the bounds).
    private static func windowBits(_ bytes: [UInt8], at start: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<minimumPiece {
            value |= UInt64(bytes[start + offset]) << UInt64(8 * offset)
        }
        return value
    }

    private static func replacing(_ runs: [Range<Int>], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        for run in runs {
            result.append(contentsOf: bytes[copied..<run.lowerBound])
            result.append(contentsOf: replacement.utf8)
            copied = run.upperBound
        }
        result.append(contentsOf: bytes[copied...])
        return result
    }
}
