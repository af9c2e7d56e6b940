#include <hiredis/hiredis.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <unistd.h>

/// `c->errstr` (a `char[128]`, which Swift imports as a tuple): hiredis's text for `c->err`.
static inline const char *chiredis_errstr(const redisContext *c) { return c->errstr; }

/// Ignores SIGPIPE when its disposition is still the default (a process that chose a handler keeps it). hiredis 0.14
/// writes with write(2), without MSG_NOSIGNAL: a write to a server that went away would otherwise end the process
/// instead of failing with EPIPE. The server's loops ignore SIGPIPE already (cuv_prepare_signals).
static inline void chiredis_ignore_sigpipe_if_default(void) {
    struct sigaction current;
    if (sigaction(SIGPIPE, NULL, &current) == 0 && current.sa_handler == SIG_DFL) {
        signal(SIGPIPE, SIG_IGN);
    }
}

/// Names the calling thread (PR_SET_NAME: at most 15 bytes kept), as /proc/PID/task/TID/comm and top -H show it.
static inline int chiredis_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0) == 0 ? 0 : -errno;
}

#include <fcntl.h>
/// A pipe whose two ends are non-blocking and close-on-exec (pipe2 needs _GNU_SOURCE, which Swift's Glibc lacks);
/// 0 or a negative errno.
static inline int chiredis_nonblocking_pipe(int ends[2]) {
    if (pipe(ends) != 0) return -errno;
    for (int i = 0; i < 2; i++) {
        fcntl(ends[i], F_SETFL, fcntl(ends[i], F_GETFL) | O_NONBLOCK);
        fcntl(ends[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

/// Whether an idle connection's socket is readable or hung up: a server that closed it (a restart, a kill) or sent
/// something unasked. poll(2) with a zero timeout; 1 or 0.
static inline int chiredis_idle_socket_closed(const redisContext *c) {
    struct pollfd entry = { .fd = c->fd, .events = POLLIN, .revents = 0 };
    return poll(&entry, 1, 0) > 0 ? 1 : 0;
}
