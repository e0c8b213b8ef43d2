// A task executor with one thread of its own, so that an async piece of
// work (a session's whole call, its tool tasks included) runs on a single
// thread whose CPU time can be read: what the linear-time tests compare.
// Other tests running in parallel use other threads and do not count.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs every job on one thread, in the order enqueued.
package final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is touched only under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    package init() {
        let thread = Thread { [self] in drain() }
        thread.name = "OneThreadExecutor"
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The CPU seconds `body` costs, run with this executor preferred: the
    /// work of every task it starts without another preference, and none
    /// of any other thread's.
    package func cpuSeconds(_ body: @Sendable () async throws -> Void) async rethrows -> Double {
        try await withTaskExecutorPreference(self) {
            let start = Self.threadCPUSeconds()
            try await body()
            return Self.threadCPUSeconds() - start
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
