// The system calls of ClaudeShellTools' child processes that Swift cannot
// make cleanly: a child started with clone(2) so that code of ours runs
// between the fork and the exec (PR_SET_PDEATHSIG, setpgid, close_range),
// pipe2, prctl and pidfd_open (variadic, or not in the Glibc module), and a
// write that a closed pipe cannot turn into a SIGPIPE. No locks and no
// state: every function is safe to call from any thread.
//
// Each returns 0 (or a descriptor, or a count) on success and reports a
// failure through errno or its return value as its comment says; none
// retries on EINTR (ClaudeShellTools' Swift code does, in one place).
#ifndef PROCESS_SUPPORT_H
#define PROCESS_SUPPORT_H

#include <stddef.h>
#include <sys/types.h>

/// A pipe whose two ends are close-on-exec from the start (pipe2 with
/// O_CLOEXEC on Linux; on macOS, which has no pipe2, pipe then FD_CLOEXEC,
/// which our spawns do not race because they pass
/// POSIX_SPAWN_CLOEXEC_DEFAULT; there both ends also refuse SIGPIPE with
/// F_SETNOSIGPIPE). 0, or -1 with errno.
int _process_pipe(int fds[2]);

/// Starts `path` with `argv` and `envp` (NULL: this process's environment)
/// as a child that has, when the program starts: `fds[0]`, `fds[1]` and
/// `fds[2]` as its descriptors 0, 1 and 2 (-1: /dev/null) and no other
/// descriptor; an empty signal mask and every signal at its default
/// disposition; a process group of its own (its id is the child's pid);
/// and, on Linux, SIGKILL as soon as the thread that called this ends
/// (PR_SET_PDEATHSIG), so it never outlives its parent.
///
/// Linux: clone(CLONE_VM | CLONE_VFORK) on a stack of its own, as glibc's
/// posix_spawn does, with every signal blocked in the calling thread until
/// the child has exec'd. macOS: posix_spawn (no parent-death signal there).
///
/// Returns 0 with the child's pid in `*pid`, or an errno value (the exec's
/// own failure included; the child is then reaped).
int _process_spawn(const char *path, char *const argv[], char *const envp[], const int fds[3], pid_t *pid);

/// A pidfd of `pid` (Linux 5.3+): readable once the process has exited,
/// without reaping it; close-on-exec. -1 with errno where there is none.
int _process_pidfd(pid_t pid);

/// Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): orphans
/// of its descendants are reparented to it instead of to init. 0, or -1
/// with errno (ENOSYS on macOS, which has no subreaper).
int _process_become_subreaper(void);

/// One write(2) to `fd` that cannot raise a SIGPIPE which ends the
/// process: a write to a pipe whose reader is gone fails with EPIPE, and
/// nothing else happens. Linux has no per-descriptor way to say so, so
/// SIGPIPE is blocked in the calling thread around the call, and a
/// SIGPIPE the write raised (thread-directed; also when a blocked write
/// returns a partial count because the reader went) is taken back with a
/// zero-timeout sigtimedwait before the mask is restored; one that was
/// pending before the call is left alone. macOS: the descriptor refuses
/// SIGPIPE (F_SETNOSIGPIPE) and it is a plain write. The count written,
/// or -1 with errno.
ssize_t _process_write(int fd, const void *bytes, size_t count);

/// This process's environment block (`environ`; Darwin exports it only
/// through _NSGetEnviron()).
char *const *_process_environment(void);

#endif
