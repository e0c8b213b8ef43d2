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

    /// The `seeds/NAME` among ``inputs(_:)``.
    public static func seeds(_ target: String) -> [String] {
        inputs(target).filter { $0.hasPrefix("seeds/") }
    }

    /// The bytes of one input named by ``inputs(_:)``.
    public static func bytes(_ target: String, _ input: String) throws -> Data {
        try Data(contentsOf: folder(target).appendingPathComponent(input))
    }

    /// What `property` (a target's check) says of one input named by
    /// ``inputs(_:)``: nil when the property holds.
    public static func failure(
        _ target: String, _ input: String, of property: (UnsafeRawBufferPointer) -> String?
    ) throws -> String? {
        try bytes(target, input).withUnsafeBytes(property)
    }
}
