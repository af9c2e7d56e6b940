#include <uv.h>
#include <signal.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <errno.h>
static inline uv_handle_t *cuv_tcp_as_handle(uv_tcp_t *t) { return (uv_handle_t *)t; }
static inline uv_stream_t *cuv_tcp_as_stream(uv_tcp_t *t) { return (uv_stream_t *)t; }
static inline uv_tcp_t *cuv_stream_as_tcp(uv_stream_t *s) { return (uv_tcp_t *)s; }
static inline uv_handle_t *cuv_stream_as_handle(uv_stream_t *s) { return (uv_handle_t *)s; }
static inline uv_handle_t *cuv_async_as_handle(uv_async_t *a) { return (uv_handle_t *)a; }
static inline uv_handle_t *cuv_timer_as_handle(uv_timer_t *t) { return (uv_handle_t *)t; }
static inline uv_handle_t *cuv_signal_as_handle(uv_signal_t *s) { return (uv_handle_t *)s; }
static inline const struct sockaddr *cuv_sockaddr_in_as_sockaddr(const struct sockaddr_in *a) { return (const struct sockaddr *)a; }
/* Ignores SIGPIPE and unblocks SIGINT/SIGTERM/SIGHUP, which a parent may have left blocked in the mask we inherited. */
static inline void cuv_prepare_signals(void) {
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
/* Names the calling thread (PR_SET_NAME: at most 15 bytes kept), as /proc/PID/task/TID/comm, top -H and perf show
   it; 0 or a negative errno. */
static inline int cuv_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0) == 0 ? 0 : -errno;
}
#include <sys/socket.h>
#include <errno.h>
/* Sets SO_REUSEPORT on a TCP handle whose socket exists (uv_tcp_init_ex with a family), before uv_tcp_bind:
   several listeners may then bind one address and the kernel spreads new connections over them. */
static inline int cuv_tcp_set_reuseport(uv_tcp_t *t) {
    uv_os_fd_t fd;
    int status = uv_fileno((uv_handle_t *)t, &fd);
    if (status != 0) return status;
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) == 0 ? 0 : -errno;
}
#include <sys/ioctl.h>
#include <linux/sockios.h>
/* Bytes the kernel holds for a TCP socket and has not sent yet (SIOCOUTQNSD: waiting for the peer's receive window
   or the congestion window), or a negative errno. */
static inline int cuv_tcp_kernel_unsent_bytes(uv_tcp_t *t) {
    uv_os_fd_t fd;
    int status = uv_fileno((uv_handle_t *)t, &fd);
    if (status != 0) return status;
    int bytes = 0;
    return ioctl(fd, SIOCOUTQNSD, &bytes) == 0 ? bytes : -errno;
}
#include <netdb.h>
#include <string.h>
/* Starts resolving `node` for a TCP connection (any address family, SOCK_STREAM) on libuv's thread pool. */
static inline int cuv_getaddrinfo_tcp(uv_loop_t *loop, uv_getaddrinfo_t *req, uv_getaddrinfo_cb cb, const char *node) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    return uv_getaddrinfo(loop, req, cb, node, NULL, &hints);
}
/* Copies one resolved address (IPv4 or IPv6) into `out` with `port` (host byte order); returns 0, or UV_EAI_FAMILY
   for any other family. */
static inline int cuv_addrinfo_copy(const struct addrinfo *info, int port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    if (info->ai_family == AF_INET && info->ai_addrlen <= sizeof *out) {
        memcpy(out, info->ai_addr, info->ai_addrlen);
        ((struct sockaddr_in *)out)->sin_port = htons((uint16_t)port);
        return 0;
    }
    if (info->ai_family == AF_INET6 && info->ai_addrlen <= sizeof *out) {
        memcpy(out, info->ai_addr, info->ai_addrlen);
        ((struct sockaddr_in6 *)out)->sin6_port = htons((uint16_t)port);
        return 0;
    }
    return UV_EAI_FAMILY;
}
static inline const struct sockaddr *cuv_sockaddr_storage_as_sockaddr(const struct sockaddr_storage *a) {
    return (const struct sockaddr *)a;
}
/* Makes the loop count the time it spends blocked in its poll (uv_metrics_idle_time); uv_loop_configure is variadic,
   so Swift cannot call it. Call before uv_run. */
static inline int cuv_loop_track_idle_time(uv_loop_t *loop) { return uv_loop_configure(loop, UV_METRICS_IDLE_TIME); }
static inline uv_handle_t *cuv_prepare_as_handle(uv_prepare_t *p) { return (uv_handle_t *)p; }
