/* loadgen_conn.h: the connection helpers storeload and bigstate share (epoll, non-blocking, loopback only).
 *
 * Include after defining `struct conn` (with at least fd, in, in_len, in_cap, out, out_len, out_cap), `fail(const
 * char *)`, `watch(struct conn *, int op)` (which sets the epoll interest from the connection's state) and the read
 * buffer `rbuf` (an array). Also gives on_alarm (max_seconds.h). */
#ifndef LOADGEN_CONN_H
#define LOADGEN_CONN_H
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "max_seconds.h"

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void grow(unsigned char **buf, size_t *cap, size_t need) {
    if (need <= *cap) return;
    size_t c = *cap ? *cap : 512;
    while (c < need) c *= 2;
    if (!(*buf = realloc(*buf, c))) fail("realloc");
    *cap = c;
}

/* Writes what the kernel takes of c->out; the rest waits for EPOLLOUT. */
static void flush_out(struct conn *c) {
    size_t done = 0;
    while (done < c->out_len) {
        ssize_t n = send(c->fd, c->out + done, c->out_len - done, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN) break;
            fail("send");
        }
        done += (size_t)n;
    }
    memmove(c->out, c->out + done, c->out_len - done);
    c->out_len -= done;
    watch(c, EPOLL_CTL_MOD);
}

/* Reads what is available into c->in; returns 0 when the peer closed. */
static inline int fill_in(struct conn *c) {
    for (;;) {
        ssize_t n = recv(c->fd, rbuf, sizeof rbuf, 0);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EAGAIN) return 1;
            fail("recv");
        }
        grow(&c->in, &c->in_cap, c->in_len + (size_t)n);
        memcpy(c->in + c->in_len, rbuf, (size_t)n);
        c->in_len += (size_t)n;
    }
}

static void consume(struct conn *c, size_t n) {
    memmove(c->in, c->in + n, c->in_len - n);
    c->in_len -= n;
}

/* One HTTP/1.1 response (head with Content-Length, then body) from c->in: its status code, 0 if incomplete. When
 * `version` is given it gets the "version" of the body's first 256 bytes (-1 if none). */
static int take_response(struct conn *c, int64_t *version) {
    unsigned char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - c->in) + 4, body = 0;
    unsigned char *cl = memmem(c->in, head, "\r\nContent-Length:", 17);
    if (!cl) cl = memmem(c->in, head, "\r\ncontent-length:", 17);
    if (cl) body = strtoul((const char *)cl + 17, NULL, 10);
    if (c->in_len < head + body) return 0;
    int status = c->in_len > 12 ? atoi((const char *)c->in + 9) : -1;
    if (version) {
        unsigned char *v = memmem(c->in + head, body < 256 ? body : 256, "\"version\":", 10);
        *version = v ? strtoll((const char *)v + 10, NULL, 10) : -1;
    }
    consume(c, head + body);
    return status;
}
#endif
