// Third-party conformance cases from ../shared/corpus/sse-conformance: every
// suite folder present, every case, in the case's own chunking and again at
// 1, 2, 3 and 7 bytes. Skipped (with a recorded reason) without the corpus.

import Foundation
import ServerSentEvents
import Testing

/// `../shared/corpus/sse-conformance`, from the package root.
let conformanceRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ServerSentEventsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("../shared/corpus/sse-conformance")
    .standardizedFileURL

let conformanceAvailable = FileManager.default.fileExists(atPath: conformanceRoot.path)

/// One case: input bytes, expected events, the chunk sizes it asks for.
struct ConformanceCase: CustomStringConvertible {
    struct Expected: Decodable, Equatable {
        var event: String?
        var data: String
        var lastEventId: String
        var retry: Int?
    }
    var suite: String
    var name: String
    var input: [UInt8]
    var expected: [Expected]
    var chunking: Chunking
    var description: String { "\(suite)/\(name)" }
}

private struct CaseMetadata: Decodable {
    struct Chunking: Decodable {
        var sizes: [Int]?
        var every: Int?
    }
    var name: String
    var chunking: Chunking?
}

func loadConformanceCases() throws -> [ConformanceCase] {
    let manager = FileManager.default
    var cases: [ConformanceCase] = []
    for suite in try manager.contentsOfDirectory(atPath: conformanceRoot.path).sorted() {
        let folder = conformanceRoot.appendingPathComponent(suite)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
        var metadata: [String: CaseMetadata] = [:]
        if let data = manager.contents(atPath: folder.appendingPathComponent("cases.json").path) {
            for item in try JSONDecoder().decode([CaseMetadata].self, from: data) { metadata[item.name] = item }
        }
        let inputs = try manager.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".input") }.sorted()
        for file in inputs {
            let name = String(file.dropLast(".input".count))
            let input = try Data(contentsOf: folder.appendingPathComponent(file))
            let expectedData = try Data(contentsOf: folder.appendingPathComponent(name + ".expected.json"))
            var chunking = Chunking.whole
            if let given = metadata[name]?.chunking {
                if let sizes = given.sizes { chunking = .sizes(sizes) } else if let every = given.every { chunking = .every(every) }
            }
            let chunksFile = folder.appendingPathComponent(name + ".chunks.json")
            if case .whole = chunking, let data = manager.contents(atPath: chunksFile.path) {
                chunking = .sizes(try JSONDecoder().decode([Int].self, from: data))
            }
            cases.append(
                ConformanceCase(
                    suite: suite, name: name, input: Array(input),
                    expected: try JSONDecoder().decode([ConformanceCase.Expected].self, from: expectedData),
                    chunking: chunking))
        }
    }
    return cases
}

@Suite("SSE conformance corpus", .enabled(if: conformanceAvailable, "../shared/corpus/sse-conformance is absent"))
struct ConformanceTests {
    @Test func everyCaseInEveryChunking() throws {
        let cases = try loadConformanceCases()
        #expect(cases.count >= 50, "expected the eventsource-parser and WPT suites, found \(cases.count) cases")
        var checked = 0
        for testCase in cases {
            for chunking in [testCase.chunking, .every(1), .every(2), .every(3), .every(7)] {
                let outcome = parse(testCase.input, chunking)
                let actual = outcome.events.map {
                    ConformanceCase.Expected(event: $0.eventType, data: $0.dataString, lastEventId: $0.lastEventID, retry: $0.retry)
                }
                #expect(outcome.error == nil, "\(testCase) \(chunking)")
                #expect(actual == testCase.expected, "\(testCase) chunked \(chunking)")
                checked += 1
            }
        }
        #expect(checked == cases.count * 5)
    }

    @Test func suitesPresent() throws {
        let suites = Set(try loadConformanceCases().map(\.suite))
        #expect(suites.contains("eventsource-parser"))
        #expect(suites.contains("wpt-eventsource"))
    }
}
