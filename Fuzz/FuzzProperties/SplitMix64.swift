// SplitMix64: a small, seedable generator, so a seed names one sequence of
// chunk sizes or inputs. Shared by the fuzz properties' callers and every
// test target (they all depend on this module); the command line and the
// benchmark, which must not depend on test code, carry their own.

/// A deterministic 64-bit generator (SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
