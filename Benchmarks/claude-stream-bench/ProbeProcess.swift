// A child run of this executable (a memory probe, a loopback server): its
// own process group, an empty signal mask, default signal dispositions, a
// pipe to its standard input (closed by the parent when done or when the
// parent dies, which ends the child) and one from its standard output. The
// child arms its own deadline (`alarm`, whose default action ends it).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ChildProcess {
    let pid: pid_t
    /// The write end of the child's standard input; closing it ends a server.
    let input: Int32
    /// The read end of the child's standard output.
    let output: Int32

    /// Starts this executable with `arguments`; nil if it could not start.
    static func spawn(_ arguments: [String]) -> ChildProcess? {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return nil
        }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let executable = CommandLine.arguments[0]
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee  // `environ` is not in Darwin's module
        #else
        let environment = environ
        #endif
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        return ChildProcess(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// Runs a probe to its end and returns its first output line.
    static func outputLine(of arguments: [String]) -> String? {
        guard let child = spawn(arguments) else { return nil }
        let line = child.readLine()
        child.finish()
        return line
    }

    /// Reads the child's output up to its first newline (or its end).
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(output, &byte, 1)
            if count < 0 && errno == EINTR { continue }  // a signal, not the end
            guard count == 1 else { break }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Closes the child's input (a server then exits) and waits for it.
    func finish() {
        close(input)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
    }
}
