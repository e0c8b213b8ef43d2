// The one place where a system call of this package is made again after a
// signal interrupted it (EINTR): the transcript file's reads and writes,
// ClaudeShellTools' child processes and the command line's input. A process
// that runs children gets signals (SIGCHLD among them), and a handler of
// the app's own may run on any thread. `package`: the modules after this
// one use it; it is not API.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `call()`, made again while it fails with EINTR; its result otherwise
/// (with errno as the last call left it).
@inline(__always)
package func retryingInterruptions<Value: BinaryInteger>(_ call: () -> Value) -> Value {
    while true {
        let value = call()
        if value != -1 || errno != EINTR { return value }
    }
}
