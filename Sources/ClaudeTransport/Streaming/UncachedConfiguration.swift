import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Every session this module makes is built from `uncached()`: nothing it
// asks for may be answered from a cache, and a session with a cache lets a
// cancel crash FoundationNetworking. With a `URLCache`, a task's protocol
// is made after a cache lookup on another queue, and a cancel in between
// reports its failure unordered with the task's completion, which can
// trap in the session's task registry (CancelGate.swift).

extension URLSessionConfiguration {
    /// An ephemeral configuration without a cache.
    static func uncached() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }
}

extension ClientConfiguration {
    /// The session configuration of a stream: uncached, with this
    /// configuration's idle timeout. The overall limit is enforced by the
    /// driver's timer, which reports it as such; the resource timeout is
    /// only a backstop past it.
    var streamSessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.uncached()
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = overallTimeout + 60
        return configuration
    }
}
