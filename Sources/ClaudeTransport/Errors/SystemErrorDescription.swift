import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What a Foundation error says, as words a user can act on.
//
// Foundation's own texts are often no sentence at all: a CocoaError prints
// as "The operation could not be completed. (NSCocoaErrorDomain error
// 256.)", a bridged POSIX failure keeps its errno only in `userInfo`, and
// on Linux a URLError's text is whatever libcurl said, or nothing. So the
// error is read for what it knows (its domain and code, an underlying
// POSIX error, a failing URL's host) and described from that; Foundation's
// text is added only when it says more than the code does.

/// Describes Foundation, POSIX and URL loading errors in plain words.
public enum SystemErrorDescription {
    /// A phrase for `error`: `argument list too long (POSIX error 7): /bin/sh`,
    /// `no such file (Cocoa error 260): notes.txt`, `could not connect to
    /// 127.0.0.1:9 (…)`; any other error as it describes itself.
    ///
    /// - Complexity: O(1) plus the length of the error's texts.
    public static func phrase(for error: any Error) -> String {
        if let urlError = error as? URLError { return phrase(for: urlError) }
        if let decoding = error as? DecodingError { return phrase(for: decoding) }
        let bridged = error as NSError
        let file = path(of: bridged).map { ": \($0)" } ?? ""
        if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(truncatingIfNeeded: underlying.code)) + file
        }
        switch bridged.domain {
        case NSPOSIXErrorDomain:
            return posix(Int32(truncatingIfNeeded: bridged.code)) + file
        case NSCocoaErrorDomain:
            return cocoa(bridged.code) + file
        default:
            let text = bridged.localizedDescription
            // A Swift error bridged to NSError: its own description says more.
            if text.hasPrefix("The operation could not be completed") { return String(describing: error) }
            return text
        }
    }

    /// Why a request failed below HTTP, naming the server (`host:port`).
    public static func phrase(for error: URLError) -> String {
        let server = error.failingURL.flatMap(hostAndPort) ?? "the server"
        let what: String
        switch error.code {
        case .cannotConnectToHost: what = "could not connect to \(server)"
        case .cannotFindHost, .dnsLookupFailed: what = "could not find the host \(server)"
        case .timedOut: what = "\(server) did not answer in time"
        case .networkConnectionLost: what = "the connection to \(server) was lost"
        case .notConnectedToInternet: what = "there is no network connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            what = "the secure (TLS) connection to \(server) failed"
        case .badServerResponse: what = "\(server) did not answer in HTTP"
        case .badURL, .unsupportedURL: what = "the URL cannot be used"
        case .cancelled: what = "the request was cancelled"
        default: what = "the request to \(server) failed (URL error \(error.code.rawValue))"
        }
        // On Linux the text is libcurl's ("Failed to connect to … port 9
        // after 0 ms: Couldn't connect to server"): more than the code says.
        let detail = error.localizedDescription
        if detail.isEmpty || detail.hasPrefix("The operation could not be completed") || detail == "Completion failure" {
            return what
        }
        return what + " (" + detail + ")"
    }

    private static func phrase(for error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context): return "the data is not valid\(at(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "the key \"\(key.stringValue)\" is missing\(at(context.codingPath))"
        case .typeMismatch(let type, let context): return "expected \(type)\(at(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "expected \(type), found null\(at(context.codingPath))"
        @unknown default: return String(describing: error)
        }
    }

    private static func posix(_ code: Int32) -> String {
        "\(String(cString: strerror(code)).lowercased()) (POSIX error \(code))"
    }

    private static func cocoa(_ code: Int) -> String {
        let words: String
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: words = "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: words = "permission denied"
        case .fileReadTooLarge: words = "the file is too large"
        case .fileReadCorruptFile: words = "the file is damaged or not in the expected format"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding:
            words = "the text is not in the expected encoding"
        case .fileWriteOutOfSpace: words = "no space left on the device"
        case .fileWriteVolumeReadOnly: words = "the volume is read-only"
        case .fileWriteFileExists: words = "the file already exists"
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: words = "the file name is not valid"
        case .fileLocking: words = "the file is locked"
        case .fileReadUnknown: words = "reading failed for an unknown reason"
        case .fileWriteUnknown: words = "writing failed for an unknown reason"
        case .executableNotLoadable, .executableLoad: words = "the program could not be started"
        case .propertyListReadCorrupt: words = "the property list is damaged"
        default: words = "a Foundation operation failed"
        }
        return "\(words) (Cocoa error \(code))"
    }

    private static func path(of error: NSError) -> String? {
        (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    }

    private static func hostAndPort(_ url: URL) -> String? {
        guard let host = url.host else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
