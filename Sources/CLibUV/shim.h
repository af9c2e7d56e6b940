#include <uv.h>
#include <signal.h>
#include <pthread.h>
static inline uv_handle_t *cuv_tcp_as_handle(uv_tcp_t *t) { return (uv_handle_t *)t; }
static inline uv_stream_t *cuv_tcp_as_stream(uv_tcp_t *t) { return (uv_stream_t *)t; }
static inline uv_tcp_t *cuv_stream_as_tcp(uv_stream_t *s) { return (uv_tcp_t *)s; }
static inline uv_handle_t *cuv_stream_as_handle(uv_stream_t *s) { return (uv_handle_t *)s; }
static inline uv_handle_t *cuv_async_as_handle(uv_async_t *a) { return (uv_handle_t *)a; }
static inline uv_handle_t *cuv_timer_as_handle(uv_timer_t *t) { return (uv_handle_t *)t; }
static inline uv_handle_t *cuv_signal_as_handle(uv_signal_t *s) { return (uv_handle_t *)s; }
static inline const struct sockaddr *cuv_sockaddr_in_as_sockaddr(const struct sockaddr_in *a) { return (const struct sockaddr *)a; }
/* Ignores SIGPIPE and unblocks SIGINT/SIGTERM, which a parent may have left blocked in the mask we inherited. */
static inline void cuv_prepare_signals(void) {
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
