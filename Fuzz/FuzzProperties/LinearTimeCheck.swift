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
    /// CPU time of `large` over that of `small`, each the minimum of
    /// `repetitions` runs on the calling thread (at least 0.1 ms each, so a
    /// run too fast to time cannot make the ratio explode).
    public static func cpuTimeRatio(repetitions: Int = 3, small: () -> Void, large: () -> Void) -> Double {
        best(repetitions, large) / best(repetitions, small)
    }

    static func best(_ repetitions: Int, _ body: () -> Void) -> Double {
        var least = Double.infinity
        for _ in 0..<max(1, repetitions) {
            let start = threadCPUSeconds()
            body()
            least = min(least, threadCPUSeconds() - start)
        }
        return max(least, 1e-4)
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
