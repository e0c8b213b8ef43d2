import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Requests that carry a credential never follow a redirect: URLSession would
// resend the headers, key included, to whatever origin `location` names.
// `URLSession.shared` follows redirects, so one-shot requests use a session
// with this delegate; the 3xx then arrives as the response itself.

/// Refuses every redirect of the tasks of its session.
final class _RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// An ephemeral session that never follows a redirect; invalidate it when done.
    static func session() -> URLSession {
        URLSession(configuration: .ephemeral, delegate: _RedirectRefusal(), delegateQueue: nil)
    }
}
