// How a command splits its input into chunks: the same bytes must give the
// same result under any split, and these flags are how outside checks (and
// people) prove it from the command line.
//
//   --chunk N            N-byte chunks
//   --chunks 3,1,7       those sizes in turn, the rest in one chunk
//   --random-chunks SEED sizes 1...64 from a SplitMix64 stream seeded with SEED

/// A way of splitting input bytes into chunks.
enum ChunkPlan: Equatable {
    case whole
    case fixed(Int)
    case sizes([Int])
    case random(seed: UInt64)

    /// Reads the chunking flag at `arguments[index]` (and its value); returns
    /// nil when the argument is not a chunking flag. Throws a usage message.
    static func parse(_ arguments: [String], at index: inout Int) throws(UsageError) -> ChunkPlan? {
        let flag = arguments[index]
        guard ["--chunk", "--chunks", "--random-chunks"].contains(flag) else { return nil }
        index += 1
        guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
        let value = arguments[index]
        switch flag {
        case "--chunk":
            guard let n = Int(value), n > 0 else { throw UsageError("--chunk takes a positive size") }
            return .fixed(n)
        case "--chunks":
            let sizes = value.split(separator: ",").map { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                throw UsageError("--chunks takes positive sizes separated by commas")
            }
            return .sizes(sizes.compactMap { $0 })
        default:
            guard let seed = UInt64(value) else { throw UsageError("--random-chunks takes a non-negative integer seed") }
            return .random(seed: seed)
        }
    }

    /// Calls `body` with consecutive chunks of `bytes` covering all of it.
    func forEachChunk<E: Error>(
        of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        var offset = 0
        var generator = SplitMix64(seed: 0)
        var fixedSizes: [Int] = []
        switch self {
        case .random(let seed): generator = SplitMix64(seed: seed)
        case .sizes(let sizes): fixedSizes = sizes
        default: break
        }
        var turn = 0
        while offset < bytes.count {
            let size: Int
            switch self {
            case .whole: size = bytes.count
            case .fixed(let n): size = n
            case .sizes: size = turn < fixedSizes.count ? fixedSizes[turn] : bytes.count
            case .random: size = Int(generator.next() % 64) + 1
            }
            turn += 1
            let end = min(bytes.count, offset + size)
            try body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
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
