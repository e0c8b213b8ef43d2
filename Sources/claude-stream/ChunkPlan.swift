// How a command splits its input into chunks: the same bytes must give the
// same result under any split, and these flags are how outside checks (and
// people) prove it from the command line.
//
//   --chunk N            N-byte chunks
//   --chunks 3,1,7       those sizes in turn, the rest as it is read
//   --random-chunks SEED sizes 1...64 from a SplitMix64 stream seeded with SEED
//
// Input is read in pieces as it arrives, so a plan re-splits what is read:
// a chunk that straddles two reads reaches the core as two pieces, which by
// the rule above changes nothing.

/// A way of splitting input bytes into chunks.
enum ChunkPlan: Equatable {
    case whole
    case fixed(Int)
    case sizes([Int])
    case random(seed: UInt64)

    /// Reads the value of a chunking flag; nil when `flag` is not one.
    static func parse(_ flag: String, from list: inout ArgumentList) throws(UsageError) -> ChunkPlan? {
        guard ["--chunk", "--chunks", "--random-chunks"].contains(flag) else { return nil }
        let value = try list.value(of: flag)
        switch flag {
        case "--chunk":
            guard let n = Int(value), n > 0 else { throw UsageError("--chunk takes a positive size, not '\(value)'") }
            return .fixed(n)
        case "--chunks":
            let sizes = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                throw UsageError("--chunks takes positive sizes separated by commas, not '\(value)'")
            }
            return .sizes(sizes.compactMap { $0 })
        default:
            guard let seed = UInt64(value) else {
                throw UsageError("--random-chunks takes a seed from 0 to \(UInt64.max), not '\(value)'")
            }
            return .random(seed: seed)
        }
    }
}

/// Applies a ``ChunkPlan`` to pieces as they are read, carrying the plan's
/// place (the chunk being cut, the next size) from one piece to the next.
struct ChunkSplitter {
    let plan: ChunkPlan
    private var generator: SplitMix64
    private var turn = 0
    /// Bytes left in the chunk being cut (0: the next piece starts a chunk).
    private var remaining = 0

    init(_ plan: ChunkPlan) {
        self.plan = plan
        if case .random(let seed) = plan { generator = SplitMix64(seed: seed) } else { generator = SplitMix64(seed: 0) }
    }

    /// Calls `body` with consecutive chunks covering all of `piece`.
    ///
    /// - Complexity: O(number of chunks); sizes of any magnitude are safe
    ///   (no offset arithmetic can overflow: each step takes at most what is left).
    mutating func split<E: Error>(
        _ piece: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        if case .whole = plan {
            if !piece.isEmpty { try body(piece) }
            return
        }
        var offset = 0
        while offset < piece.count {
            if remaining == 0 { remaining = nextSize() }
            let take = min(remaining, piece.count - offset)
            try body(UnsafeRawBufferPointer(rebasing: piece[offset..<(offset + take)]))
            offset += take
            remaining -= take
        }
    }

    private mutating func nextSize() -> Int {
        defer { turn += 1 }
        switch plan {
        case .whole: return Int.max
        case .fixed(let n): return n
        case .sizes(let sizes): return turn < sizes.count ? sizes[turn] : Int.max
        case .random: return Int(generator.next() % 64) + 1
        }
    }
}

/// A deterministic 64-bit generator (SplitMix64), so a seed names one split.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A command-line mistake, reported with the command's usage (exit 64).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
