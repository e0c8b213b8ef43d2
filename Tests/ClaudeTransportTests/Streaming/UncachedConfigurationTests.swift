// Every session the transport makes is uncached: with a cache, a cancel
// soon after `resume()` races FoundationNetworking's cache lookup and can
// trap in its task registry.

import Foundation
import Testing

@testable import ClaudeTransport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct UncachedConfigurationTests {
    @Test func aStreamSessionHasNoCacheAndTheClientsTimeouts() {
        let client = ClientConfiguration(credentials: nil, idleTimeout: 7, overallTimeout: 90)
        let configuration = client.streamSessionConfiguration
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.timeoutIntervalForRequest == 7)
        #expect(configuration.timeoutIntervalForResource == 150)
    }

    @Test func aFetchSessionHasNoCache() {
        let configuration = BoundedFetch.sessionConfiguration()
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        // The session keeps a copy: the copy has no cache either.
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        #expect(session.configuration.urlCache == nil)
    }
}
