// See include/_ProcessSupport.h. Our own C: Swift cannot call fork, clone
// or the variadic prctl and syscall, and the Glibc module declares neither
// pipe2 nor pidfd_open.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "_ProcessSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
extern char **environ;
#elif defined(__APPLE__)
#include <crt_externs.h>
#include <spawn.h>
#endif

int _process_pipe(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
#if defined(F_SETNOSIGPIPE)
        fcntl(fds[i], F_SETNOSIGPIPE, 1);
#endif
    }
    return 0;
#endif
}

char *const *_process_environment(void) {
#if defined(__APPLE__)
    return *_NSGetEnviron();
#else
    return environ;
#endif
}

#if defined(__linux__)

// What the child needs, on the parent's stack: the child shares the
// parent's memory until it execs, and writes `error` there when it fails.
struct child_start {
    const char *path;
    char *const *argv;
    char *const *envp;
    int fds[3];
    pid_t parent;
    volatile int error;
};

// Runs in the child, on its own stack, sharing the parent's memory until
// execve: only system calls, no allocation, no lock, nothing the parent's
// other threads could be holding. Not instrumented by AddressSanitizer,
// whose bookkeeping must not run on a stack it does not know.
__attribute__((no_sanitize_address)) static int start_child(void *context) {
    struct child_start *start = context;
    // Every signal at its default disposition: a handler would be the
    // parent's code, an ignored SIGPIPE would make `yes | head -1` spin.
    // The system call itself, because glibc's sigaction refuses the two
    // signals glibc keeps for itself, which exec leaves ignored when they
    // were. SIG_DFL is 0, so an all-zero kernel sigaction is "default, no
    // flags, empty mask" whatever the architecture's field order.
    unsigned long defaults[4] = {0, 0, 0, 0};
    for (int number = 1; number <= 64; number++) {
        if (number != SIGKILL && number != SIGSTOP) syscall(SYS_rt_sigaction, number, defaults, NULL, (size_t)8);
    }
    if (setpgid(0, 0) != 0) goto failed;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto failed;
    // The parent may have died before the prctl: no signal would come then.
    if (getppid() != start->parent) {
        errno = ESRCH;
        goto failed;
    }
    // Descriptors 0, 1 and 2; a source below 3 moves up first, so that
    // placing one cannot overwrite another that is still to be placed.
    int sources[3];
    int null = -1;
    for (int target = 0; target < 3; target++) {
        int fd = start->fds[target];
        if (fd < 0) {
            if (null < 0) null = open("/dev/null", O_RDWR | O_CLOEXEC);
            if (null >= 0 && null < 3) null = fcntl(null, F_DUPFD_CLOEXEC, 3);
            if (null < 0) goto failed;
            fd = null;
        } else if (fd < 3) {
            fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
            if (fd < 0) goto failed;
        }
        sources[target] = fd;
    }
    for (int target = 0; target < 3; target++) {
        if (dup2(sources[target], target) < 0) goto failed;
    }
    // No other descriptor reaches the program, whoever opened it and
    // however (ours are close-on-exec already; a library's may not be).
#if defined(SYS_close_range)
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
    {
        struct rlimit limit;
        rlim_t end = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (1 << 20) ? limit.rlim_cur : (1 << 20);
        for (rlim_t fd = 3; fd < end; fd++) close((int)fd);
    }
    // Last: from here on a signal acts on the child, by default.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(start->path, start->argv, start->envp);
failed:
    start->error = errno;
    _exit(127);
}

int _process_spawn(const char *path, char *const argv[], char *const envp[], const int fds[3], pid_t *pid) {
    struct child_start start = {
        .path = path, .argv = argv, .envp = envp ? envp : environ,
        .fds = {fds[0], fds[1], fds[2]}, .parent = getpid(), .error = 0,
    };
    // The child runs only the few calls above before execve (which copies
    // argv and envp from the parent's memory): a small stack is plenty.
    const size_t size = 256 * 1024;
    char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return errno;
    // No handler of the parent may run in the child while they share
    // memory: everything blocked until the child has exec'd (the child
    // unblocks its own copy of the mask once its dispositions are default).
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int child = clone(start_child, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
    int failure = child < 0 ? errno : start.error;
    if (child > 0 && failure != 0) {
        // Signals are still blocked here, so this wait is not interrupted.
        int status;
        waitpid(child, &status, 0);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    munmap(stack, size);
    if (failure != 0) return failure;
    *pid = child;
    return 0;
}

int _process_pidfd(pid_t pid) {
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0U);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int _process_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL); }

ssize_t _process_write(int fd, const void *bytes, size_t count) {
    sigset_t broken_pipe, old, pending;
    sigemptyset(&broken_pipe);
    sigaddset(&broken_pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &broken_pipe, &old);
    int was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    ssize_t written = write(fd, bytes, count);
    int saved = errno;
    // The reader may go while a write blocks: the write then returns the
    // bytes it got through and still raises SIGPIPE. So what is taken is
    // whatever this write raised, whatever it returned.
    if (!was_pending && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
        const struct timespec now = {0, 0};
        sigtimedwait(&broken_pipe, NULL, &now);
    }
    if (!sigismember(&old, SIGPIPE)) pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return written;
}

#elif defined(__APPLE__)

int _process_spawn(const char *path, char *const argv[], char *const envp[], const int fds[3], pid_t *pid) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int failure = posix_spawnattr_init(&attributes);
    if (failure != 0) return failure;
    failure = posix_spawn_file_actions_init(&actions);
    if (failure != 0) {
        posix_spawnattr_destroy(&attributes);
        return failure;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setpgroup(&attributes, 0);
    // Only the descriptors the file actions name reach the child.
    posix_spawnattr_setflags(
        &attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT);
    // A source below 3 is first copied up, so that placing one descriptor
    // cannot overwrite another that is still to be placed.
    int moved[3] = {-1, -1, -1};
    for (int target = 0; target < 3 && failure == 0; target++) {
        int fd = fds[target];
        if (fd < 0) {
            failure = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
            continue;
        }
        if (fd < 3) {
            moved[target] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
            if (moved[target] < 0) {
                failure = errno;
                break;
            }
            fd = moved[target];
        }
        failure = posix_spawn_file_actions_adddup2(&actions, fd, target);
    }
    if (failure == 0) failure = posix_spawn(pid, path, &actions, &attributes, argv, envp ? envp : *_NSGetEnviron());
    for (int target = 0; target < 3; target++) {
        if (moved[target] >= 0) close(moved[target]);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return failure;
}

int _process_pidfd(pid_t pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}

int _process_become_subreaper(void) {
    errno = ENOSYS;
    return -1;
}

ssize_t _process_write(int fd, const void *bytes, size_t count) {
    // A descriptor made elsewhere refuses SIGPIPE too, from this write on.
    fcntl(fd, F_SETNOSIGPIPE, 1);
    return write(fd, bytes, count);
}

#endif
