#if os(Linux) || os(macOS)

// The one place where a system call of this package's child processes is
// made again after a signal interrupted it (EINTR). A process that runs
// children gets signals (SIGCHLD among them) and a handler of the app's
// own may run on any thread, so every blocking call of ChildProcess and its
// collection goes through here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `call()`, made again while it fails with EINTR; its result otherwise
/// (with errno as the last call left it).
@inline(__always)
func retryingInterruptions<Value: BinaryInteger>(_ call: () -> Value) -> Value {
    while true {
        let value = call()
        if value != -1 || errno != EINTR { return value }
    }
}

#endif
