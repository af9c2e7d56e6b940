/* storeload: a one-core load generator for many stores (epoll, non-blocking, loopback only).
 *
 *   storeload create --port P --prefix NAME --count N [--conns 16] [--depth 32] [--max-seconds 120]
 *     PUT /stores/NAME<i> {"reducer":"Counter"} for i < N, pipelined (at most --depth requests in flight on each of
 *     --conns keep-alive connections). Every response must be 200 or 201.
 *     Prints "RESULT created=N seconds=S per_s=R errors=E".
 *
 *   storeload idle --port P --prefix NAME --stores S --conns N [--rounds 3] [--max-seconds 300]
 *     Opens N WebSocket subscribers, subscriber i on /stores/NAME<i mod S>/ws (at most 256 handshakes at a time;
 *     above 20,000 connections the source addresses cycle over 127.0.0.2... so the ephemeral ports suffice), and
 *     waits for each one's snapshot. Prints "CONNECTIONS_READY n=N seconds=S", then waits for one line on stdin.
 *     Then, --rounds times: writes one POST /stores/NAME<j>/actions {"type":"increment"} for every store j, all
 *     pipelined on one keep-alive connection, and measures from just before that write to the moment each
 *     subscriber receives its next message. Prints per round "ROUND all_ms=... p50_ms=... posts_ms=..." and at the
 *     end "RESULT all_ms=... p50_ms=... posts_ms=..." (medians over the rounds; all_ms: until the last subscriber,
 *     p50_ms: until half of them, posts_ms: until the last HTTP response), then waits for stdin to close.
 *
 * Any error prints "RESULT error=..." and exits non-zero; --max-seconds is a hard stop (exit 3). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wsframe.h"

enum { ST_CONNECTING, ST_HEAD, ST_SNAPSHOT, ST_READY };
enum { MAX_OPEN_HANDSHAKES = 256, MAX_ROUNDS = 32 };

struct conn {
    int fd, state, index;
    unsigned char *in;  /* bytes received and not yet consumed */
    size_t in_len, in_cap;
    unsigned char *out; /* bytes not yet written */
    size_t out_len, out_cap;
    long pending;       /* HTTP: requests written whose response has not arrived */
    uint64_t received;  /* WebSocket: data messages after the snapshot */
};

static struct {
    int port, count, conns, depth, stores, rounds;
    const char *prefix;
    double max_seconds;
} opt = {0, 0, 16, 32, 1000, 3, "s-", 120};

static int epfd;
static unsigned char rbuf[1 << 16];

static void fail(const char *what) {
    printf("RESULT error=%s\n", what);
    fprintf(stderr, "storeload: %s (%s)\n", what, errno ? strerror(errno) : "");
    exit(2);
}

static void watch(struct conn *c, int op) {
    int want_out = c->out_len || c->state == ST_CONNECTING;
    struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) fail("epoll_ctl");
}

#include "loadgen_conn.h"

/* Starts a non-blocking connect to 127.0.0.1:port, from 127.0.0.<source> when source > 0. */
static void open_conn(struct conn *c, int source) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) fail("socket (raise ulimit -n)");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET};
    if (source > 0) {
        a.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)source);
        if (bind(c->fd, (struct sockaddr *)&a, sizeof a) < 0) fail("bind source address");
    }
    a.sin_port = htons((uint16_t)opt.port);
    a.sin_addr.s_addr = htonl(0x7f000001u);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) fail("connect");
    c->state = ST_CONNECTING; /* EPOLLOUT reports the end of the connect */
    watch(c, EPOLL_CTL_ADD);
}

static void queue_out(struct conn *c, const char *p, size_t n) {
    grow(&c->out, &c->out_cap, c->out_len + n);
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
}

static double ms(uint64_t ns) { return (double)ns / 1e6; }

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_ms(uint64_t *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return ms(v[n / 2]);
}

#include "storeload_create.h"
#include "storeload_idle.h"

int main(int argc, char **argv) {
    if (argc < 2) fail("usage: storeload create|idle --port P ...");
    const char *mode = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--port")) opt.port = atoi(v);
        else if (!strcmp(k, "--prefix")) opt.prefix = v;
        else if (!strcmp(k, "--count")) opt.count = atoi(v);
        else if (!strcmp(k, "--conns")) opt.conns = atoi(v);
        else if (!strcmp(k, "--depth")) opt.depth = atoi(v);
        else if (!strcmp(k, "--stores")) opt.stores = atoi(v);
        else if (!strcmp(k, "--rounds")) opt.rounds = atoi(v);
        else if (!strcmp(k, "--max-seconds")) opt.max_seconds = atof(v);
        else fail("unknown option");
    }
    if (opt.port <= 0 || opt.conns <= 0 || opt.depth <= 0 || opt.stores <= 0) fail("bad options");
    if (opt.rounds < 1 || opt.rounds > MAX_ROUNDS) fail("--rounds must be 1...32");
    signal(SIGALRM, on_alarm);
    alarm((unsigned)opt.max_seconds);
    if ((epfd = epoll_create1(0)) < 0) fail("epoll_create1");
    if (!strcmp(mode, "create")) return run_create();
    if (!strcmp(mode, "idle")) return run_idle();
    fail("unknown mode");
}
