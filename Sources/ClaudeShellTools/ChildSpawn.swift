#if os(Linux) || os(macOS)

// posix_spawn of a child the way every child of this package starts (a
// shell tool, and the programs the tests run): its own process group, an
// empty signal mask, every signal at its default disposition, and the
// three pipes (or /dev/null for stdout) as its only descriptors.
//
// Children may start concurrently (the tools of one response, tests in
// parallel), so a pipe made for one child must never be inherited by
// another: every pipe is made close-on-exec under a lock that every spawn
// here takes (the Glibc module has no pipe2), and the child closes every
// descriptor above stderr: glibc's addclosefrom_np on Linux (2.34+),
// POSIX_SPAWN_CLOEXEC_DEFAULT on macOS.
//
// On macOS posix_spawnattr_t and posix_spawn_file_actions_t are opaque
// pointers the init functions allocate (optionals in Swift), on Linux
// structs; `SpawnSettings` hides the difference.

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts child processes with a clean signal state in a group of their own.
package enum ChildSpawn {
    /// A started child and our ends of its pipes (close-on-exec, blocking).
    package struct Child: Sendable {
        package var pid: pid_t
        package var stdin: Int32
        /// -1 when the child's stdout is /dev/null.
        package var stdout: Int32
        package var stderr: Int32
    }

    private static let lock = Mutex(())

    /// Starts `path` with `arguments` (the first is the program's name) and
    /// `environment` (`NAME=value` strings; nil: this process's own).
    /// The error is a sentence saying what failed.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String]?, discardingStdout: Bool = false
    ) -> Result<Child, SpawnFailure> {
        lock.withLock { _ in spawnLocked(path, arguments: arguments, environment: environment, discardingStdout: discardingStdout) }
    }

    private static func spawnLocked(
        _ path: String, arguments: [String], environment: [String]?, discardingStdout: Bool
    ) -> Result<Child, SpawnFailure> {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard makePipe(&input), discardingStdout || makePipe(&output), makePipe(&errors) else {
            let reason = String(cString: strerror(errno))
            for fd in input + output + errors where fd >= 0 { close(fd) }
            return .failure(SpawnFailure("no pipe for the child's input and output (\(reason))"))
        }
        var settings = SpawnSettings()
        defer { settings.destroy() }
        settings.addDup2(input[0], 0)
        if discardingStdout { settings.addOpen(1, "/dev/null", O_WRONLY) } else { settings.addDup2(output[1], 1) }
        settings.addDup2(errors[1], 2)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = settings.spawn(&pid, path, argv, envp)
        for fd in [input[0], output[1], errors[1]] where fd >= 0 { close(fd) }
        guard spawned == 0 else {
            for fd in [input[1], output[0], errors[0]] where fd >= 0 { close(fd) }
            return .failure(SpawnFailure("\(path) could not start (\(String(cString: strerror(spawned))))"))
        }
        return .success(Child(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0]))
    }

    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// glibc's `pidfd_open` (2.36+), which the Glibc module does not declare.
    #if os(Linux)
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// A descriptor that becomes readable when `pid` exits (without reaping
    /// it), close-on-exec; nil where the system has none (Linux before 5.3).
    static func pidfd(_ pid: pid_t) -> Int32? {
        guard let pidfdOpen else { return nil }
        let fd = pidfdOpen(pid, 0)
        return fd >= 0 ? fd : nil
    }
    #endif
}

/// Why a child could not start.
package struct SpawnFailure: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// The spawn attributes and file actions: an empty mask, default
/// dispositions, a new group, no inherited descriptor.
private struct SpawnSettings {
    #if canImport(Darwin)
    var attributes: posix_spawnattr_t? = nil
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var attributes = posix_spawnattr_t()
    var actions = posix_spawn_file_actions_t()
    #endif

    init() {
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        #if canImport(Darwin)
        // Only the descriptors the file actions name reach the child.
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
    }

    mutating func addDup2(_ fd: Int32, _ target: Int32) { posix_spawn_file_actions_adddup2(&actions, fd, target) }

    mutating func addOpen(_ target: Int32, _ path: String, _ flags: Int32) {
        posix_spawn_file_actions_addopen(&actions, target, path, flags, 0)
    }

    mutating func spawn(
        _ pid: inout pid_t, _ path: String, _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]?
    ) -> Int32 {
        #if os(Linux)
        // Last: the actions run in order, and the pipes above stderr are
        // closed only once they are duplicated onto 0, 1 and 2.
        if let addCloseFrom = Self.addCloseFrom { _ = addCloseFrom(&actions, 3) }
        #endif
        guard let envp else { return posix_spawn(&pid, path, &actions, &attributes, argv, ProcessEnvironment.entries) }
        return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    }

    mutating func destroy() {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the
    /// Glibc module does not declare.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
    #endif
}

/// This process's environment block (`environ`; Darwin exports it only
/// through `_NSGetEnviron()`).
enum ProcessEnvironment {
    static var entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }
}

#endif
