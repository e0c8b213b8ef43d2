// Effort: how many tokens the model may spend, sent as `output_config.effort`
// (platform.claude.com/docs/en/build-with-claude/effort). The five public
// levels are ordered; a custom model may declare other names, which have no
// rank and are only ever sent to a model that declares them by name.

/// An effort level: one of the ordered public levels or a name a custom model declares.
public struct EffortLevel: Hashable, Sendable, CustomStringConvertible {
    /// The value sent in `output_config.effort`.
    public let name: String

    /// The level called `name`: one of the public names, or one a custom model declares.
    public init(_ name: String) { self.name = name }

    /// `low`: the fewest tokens.
    public static let low = EffortLevel("low")
    /// `medium`.
    public static let medium = EffortLevel("medium")
    /// `high`.
    public static let high = EffortLevel("high")
    /// `xhigh`.
    public static let xhigh = EffortLevel("xhigh")
    /// `max`: the most tokens the model may spend.
    public static let max = EffortLevel("max")

    /// The public levels from least to most effort.
    public static let ordered: [EffortLevel] = [.low, .medium, .high, .xhigh, .max]

    /// Position in ``ordered``; nil for a custom name.
    public var rank: Int? { Self.ordered.firstIndex(of: self) }

    public var description: String { name }

    /// The level among `supported` closest to `self`: itself when supported,
    /// otherwise the nearest ranked level, the lower one on a tie (less spend
    /// is the safer surprise). A custom name matches only itself.
    ///
    /// - Complexity: O(n) in `supported.count`.
    public func closest(in supported: [EffortLevel]) -> EffortLevel? {
        if supported.contains(self) { return self }
        guard let rank else { return nil }
        var best: (level: EffortLevel, distance: Int, rank: Int)?
        for level in supported {
            guard let other = level.rank else { continue }
            let distance = abs(other - rank)
            if let current = best, distance > current.distance || (distance == current.distance && other > current.rank) {
                continue
            }
            best = (level, distance, other)
        }
        return best?.level
    }
}

/// A per-request hint about how hard the model should think, for callers
/// that speak in intentions rather than API levels (a Foundation Models
/// bridge, say). A fixed ``EffortLevel`` on the request wins over a hint.
public enum ReasoningHint: Hashable, Sendable {
    /// Think little (``EffortLevel/low``).
    case light
    /// Think some (``EffortLevel/medium``).
    case moderate
    /// Think hard (``EffortLevel/high``).
    case deep
    /// A level name passed through unchanged (for models that declare it).
    case custom(String)

    /// The level the hint asks for: light→low, moderate→medium, deep→high.
    public var effort: EffortLevel {
        switch self {
        case .light: .low
        case .moderate: .medium
        case .deep: .high
        case .custom(let name): EffortLevel(name)
        }
    }
}
