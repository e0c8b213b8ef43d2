// Where a fuzz target's seeds and regressions live, for the tests that replay
// them through the target's property without libFuzzer. Resolved from this
// file's path (Fuzz/FuzzProperties/ -> Fuzz/), so it works from any test.

import Foundation

public enum FuzzCorpus {
    /// `Fuzz/TARGET`.
    public static func folder(_ target: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(target)
    }

    /// `seeds/NAME` and `regressions/NAME` of a target, sorted; READMEs and
    /// hidden files left out.
    public static func inputs(_ target: String) -> [String] {
        ["seeds", "regressions"].flatMap { sub -> [String] in
            let path = folder(target).appendingPathComponent(sub).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix("README") && !$0.hasPrefix(".") }.sorted().map { "\(sub)/\($0)" }
        }
    }

    /// The bytes of one input named by ``inputs(_:)``.
    public static func bytes(_ target: String, _ input: String) throws -> Data {
        try Data(contentsOf: folder(target).appendingPathComponent(input))
    }
}
