// The scaling check behind every "linear time" test: the same work at two
// sizes (4x apart) in one run, compared as the calling thread's CPU time, so
// that other tests running in parallel, and the machine's load, cancel out.
// Each size takes the least of several runs (noise only ever adds time).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compares the CPU time of one piece of work at two sizes.
public enum LinearTimeCheck {
    /// CPU time of `large` over that of `small`: the least of up to three
    /// rounds, each taking the least of `repetitions` runs of each size,
    /// run in alternation (small, large, small, …) so that both sample the
    /// same stretch of the machine's load. Noise only ever adds time, and a
    /// busy neighbour (a compiler sharing the core) inflated one round to
    /// 6.07x where the same code measures 4.2x alone; a second round runs
    /// only when the first is above 4x. A quadratic step stays 16x in
    /// every round. Each run counts at least 0.1 ms, so a run too fast to
    /// time cannot make the ratio explode.
    public static func cpuTimeRatio(repetitions: Int = 3, small: () -> Void, large: () -> Void) -> Double {
        var ratio = Double.infinity
        for _ in 0..<3 {
            var leastSmall = Double.infinity
            var leastLarge = Double.infinity
            for _ in 0..<max(1, repetitions) {
                leastSmall = min(leastSmall, time(small))
                leastLarge = min(leastLarge, time(large))
            }
            ratio = min(ratio, max(leastLarge, 1e-4) / max(leastSmall, 1e-4))
            if ratio <= 4 { break }
        }
        return ratio
    }

    static func time(_ body: () -> Void) -> Double {
        let start = threadCPUSeconds()
        body()
        return threadCPUSeconds() - start
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
