#if os(Linux) || os(macOS)

// posix_spawn of `/bin/sh -c COMMAND` for a tool: its own process group, an
// empty signal mask, every signal at its default disposition, the three
// pipes as its only descriptors. Kept apart from ToolProcess, which only
// drives the running child.
//
// Tools of one response start concurrently, so a pipe made for one child
// must never be inherited by another: every pipe is made close-on-exec
// under a lock that every spawn here takes (the Glibc module has no pipe2),
// and the child closes every descriptor above stderr where the C library
// can (glibc's addclosefrom_np).

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum ToolSpawn {
    struct Child {
        var pid: pid_t
        /// Our ends, non-blocking and close-on-exec.
        var stdin: Int32
        var stdout: Int32
        var stderr: Int32
    }

    enum Result {
        case success(Child)
        case failure(String)
    }

    private static let lock = Mutex(())

    static func spawn(_ command: String, environment: [String]) -> Result {
        lock.withLock { _ in
            ignoreBrokenPipes()
            return spawnLocked(command, environment: environment)
        }
    }

    /// A command that exits without reading its input makes our write to
    /// its stdin fail; that must be EPIPE, not a SIGPIPE that ends this
    /// process. macOS can say so per descriptor (F_SETNOSIGPIPE, in
    /// spawnLocked); Linux cannot for a pipe, so there a default SIGPIPE
    /// disposition becomes "ignore", once. A handler the process installed
    /// itself is left alone. Called under `lock`.
    private static func ignoreBrokenPipes() {
        #if os(Linux)
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
        signal(SIGPIPE, SIG_IGN)
        #endif
    }

    private static func spawnLocked(_ command: String, environment: [String]) -> Result {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard makePipe(&input), makePipe(&output), makePipe(&errors) else {
            let reason = String(cString: strerror(errno))
            for fd in input + output + errors where fd >= 0 { close(fd) }
            return .failure("no pipe for the tool's input and output (\(reason))")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        if let addCloseFrom { _ = addCloseFrom(&actions, 3) }

        let words: [String] = ["/bin/sh", "-c", command]
        let arguments = words.map { strdup($0) } + [nil]
        let variables = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, variables)
        close(input[0])
        close(output[1])
        close(errors[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            close(errors[0])
            return .failure("/bin/sh could not start (\(String(cString: strerror(spawned))))")
        }
        for fd in [input[1], output[0], errors[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        #if os(macOS)
        _ = fcntl(input[1], F_SETNOSIGPIPE, 1)
        #endif
        return .success(Child(pid: pid, stdin: input[1], stdout: output[0], stderr: errors[0]))
    }

    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the
    /// Glibc module does not declare.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// glibc's `pidfd_open` (2.36+), looked up for the same reason.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// A descriptor that becomes readable when `pid` exits (without reaping
    /// it), close-on-exec; nil where the system has none.
    static func pidfd(_ pid: pid_t) -> Int32? {
        guard let pidfdOpen else { return nil }
        let fd = pidfdOpen(pid, 0)
        return fd >= 0 ? fd : nil
    }
}

#endif
