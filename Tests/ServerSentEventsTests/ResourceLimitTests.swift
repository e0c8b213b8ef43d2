// Resource limits at the SSE layer: a hostile stream (a `data:` line that
// never ends, an event of endless `data:` lines) ends in a typed `SSEError`
// once the configured limit is crossed, and the parser never buffers more
// than the limit (the README's Robustness section states the bounds).

import ServerSentEvents
import Testing

@Suite struct ResourceLimitTests {
    /// A "1 GiB" `data:` line fed in 1 MiB chunks: with the default limits the
    /// parser throws once the line passes `maxLineBytes` (16 MiB), long before
    /// the gigabyte; nothing beyond the limit is held.
    @Test func gibibyteDataLineStopsAtTheDefaultLineLimit() throws {
        var parser = SSEParser()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var fed = 0
        var thrown: SSEError?
        do throws(SSEError) {
            _ = try parser.feed(Array("data: ".utf8))
            fed = 6
            while fed < 1 << 30 {
                _ = try parser.feed(chunk)
                fed += chunk.count
            }
        } catch {
            thrown = error
        }
        let error = try #require(thrown)
        let limit = SSELimits().maxLineBytes
        #expect(error.offset == limit)
        #expect(fed <= limit + chunk.count, "stopped after \(fed) bytes")
    }

    /// The same with a small limit, byte-exact: the error names the first
    /// byte past the limit and later feeds rethrow it.
    @Test func longDataLineWithSmallLimit() throws {
        var parser = SSEParser(limits: SSELimits(maxLineBytes: 100, maxEventBytes: 1_000))
        let line = Array("data: ".utf8) + [UInt8](repeating: 0x78, count: 10_000)
        #expect(throws: SSEError.self) { _ = try parser.feed(line) }
        do throws(SSEError) {
            _ = try parser.feed(Array("\n\n".utf8))
            Issue.record("no error after failure")
        } catch {
            #expect(error.offset == 100)
        }
    }

    /// An event that never ends: short `data:` lines, each within the line
    /// limit, pile up until the event passes `maxEventBytes`.
    @Test func endlessEventStopsAtTheEventLimit() {
        var parser = SSEParser(limits: SSELimits(maxLineBytes: 64, maxEventBytes: 4_096))
        let line = Array("data: 0123456789012345678901234567890123456789\n".utf8)
        var dispatched = 0
        var thrown: SSEError?
        for _ in 0..<10_000 where thrown == nil {
            do throws(SSEError) { dispatched += try parser.feed(line).count } catch { thrown = error }
        }
        #expect(dispatched == 0)
        #expect(thrown != nil)
        // Each line adds 41 bytes of data (40 + the joining LF): the error
        // comes within one line of the limit.
        #expect(parser.bytesConsumed <= (4_096 / 41 + 1) * line.count)
    }
}
