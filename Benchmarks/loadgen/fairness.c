/* fairness: does a big fan-out on one store stall another store's clients on the same loop? (loopback only)
 *
 * Opens N WebSocket subscribers to ws://127.0.0.1:PORT/stores/FANOUT/ws (epoll, non-blocking; every message read,
 * pings answered), waits for every snapshot, then:
 *   1. baseline: a probe thread POSTs {"type":"increment"} to /stores/PROBE/actions, closed loop on one keep-alive
 *      connection, for --baseline S seconds; latency = send to end of response (CLOCK_MONOTONIC).
 *   2. fan-out: the main thread POSTs a batch of --batch K publish actions (one JSON array) to
 *      /stores/FANOUT/actions and waits until every subscriber holds the batch's version (from the response), at most
 *      --batch-timeout s; --batches times. The probe keeps going; only its requests sent while a batch is being
 *      delivered are measured here.
 * The probe thread runs at nice -10 (when allowed) so that the load generator's own busy reading thread, on the same
 * core, adds as little as possible to the probe's latency. --max-seconds is a hard stop (exit 3).
 *
 * Output: one line "RESULT key=value ...": subs, base_p50_us, base_p99_us, base_n, fan_p50_us, fan_p99_us,
 * fan_max_us, fan_n, fanout_ms (median time from a batch's send until every subscriber held it), conflated
 * (patch messages: states a subscriber was skipped past), dead.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wsclient.h"
#include "wsframe.h"
#include "max_seconds.h"

enum { ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_READY, ST_DEAD };

struct conn {
    int fd, state;
    unsigned char *carry;
    size_t carry_len, carry_cap;
    int64_t version; /* the newest version this subscriber received */
};

static struct {
    int port, subs, batch, batches;
    const char *fanout, *probe;
    double baseline, batch_timeout, max_seconds;
} opt = {0, 1000, 256, 3, "ticker", "counter", 5, 30, 120};

static struct conn *conns;
static int epfd, ready_count, dead_count;
static int64_t conflated;
static unsigned char rbuf[1 << 18];

static atomic_int phase;       /* 0 connect, 1 baseline, 2 fan-out running, 3 between batches, 4 stop */
static atomic_int probe_ready; /* the probe's connection is open */

#define HIST_FINE 10000          /* 10 µs buckets below 100 ms */
#define HIST (HIST_FINE + 60000) /* then 1 ms buckets up to 60 s */
static uint32_t hist_base[HIST], hist_fan[HIST];
static uint64_t fan_max_ns;

static void die(const char *what) {
    fprintf(stderr, "fairness: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void hist_add(uint32_t *h, uint64_t ns) {
    uint64_t b = ns < 100000000ull ? ns / 10000 : HIST_FINE + (ns - 100000000ull) / 1000000;
    h[b < HIST ? b : HIST - 1]++;
}

static double bucket_us(int i) { return i < HIST_FINE ? (double)i * 10 + 5 : 100000.0 + (double)(i - HIST_FINE) * 1000 + 500; }

static double hist_pct(const uint32_t *h, double p, uint64_t *count) {
    uint64_t n = 0, seen = 0;
    for (int i = 0; i < HIST; i++) n += h[i];
    if (count) *count = n;
    if (!n) return 0;
    for (int i = 0; i < HIST; i++) {
        seen += h[i];
        if ((double)seen >= p * (double)n) return bucket_us(i);
    }
    return bucket_us(HIST - 1);
}

static int connect_blocking(void) {
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect");
    return fd;
}

static void send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) { if (errno == EINTR) continue; die("send"); }
        p += w;
        n -= (size_t)w;
    }
}

/* Reads one HTTP response with a Content-Length body; returns its status and copies the body (NUL-terminated,
 * truncated to cap - 1) into body. */
static int read_response(int fd, char *body, size_t cap) {
    static __thread char buf[1 << 16];
    size_t have = 0;
    for (;;) {
        ssize_t r = recv(fd, buf + have, sizeof buf - 1 - have, 0);
        if (r <= 0) { if (r < 0 && errno == EINTR) continue; die("recv (response)"); }
        have += (size_t)r;
        buf[have] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (!end) continue;
        char *cl = strcasestr(buf, "\r\ncontent-length:");
        size_t length = cl ? (size_t)strtoul(cl + 17, NULL, 10) : 0;
        size_t head = (size_t)(end + 4 - buf);
        if (have < head + length) continue;
        size_t n = length < cap - 1 ? length : cap - 1;
        memcpy(body, end + 4, n);
        body[n] = 0;
        return atoi(buf + 9);
    }
}

static void *probe_main(void *arg) {
    (void)arg;
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), -10); /* best effort */
    int fd = connect_blocking();
    char req[256], body[512];
    int n = snprintf(req, sizeof req,
                     "POST /stores/%s/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: 20\r\n\r\n{\"type\":\"increment\"}",
                     opt.probe);
    atomic_store(&probe_ready, 1);
    for (;;) {
        int ph = atomic_load(&phase);
        if (ph == 4) break;
        if (ph == 0) { usleep(1000); continue; }
        uint64_t t0 = now_ns();
        send_all(fd, req, (size_t)n);
        if (read_response(fd, body, sizeof body) != 200) { fprintf(stderr, "fairness: probe got non-200\n"); exit(2); }
        uint64_t dt = now_ns() - t0;
        int after = atomic_load(&phase);
        if (ph == 1 && after == 1) hist_add(hist_base, dt);
        if (ph == 2 || after == 2) {
            hist_add(hist_fan, dt);
            if (dt > fan_max_ns) fan_max_ns = dt;
        }
        usleep(1000); /* about 1 request per ms: a client, not a second load */
    }
    close(fd);
    return NULL;
}

static void mark_dead(struct conn *c, const char *why) {
    if (c->state == ST_DEAD) return;
    fprintf(stderr, "fairness: subscriber %ld closed: %s\n", (long)(c - conns), why);
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->state = ST_DEAD;
    dead_count++;
}

static void send_frame(struct conn *c, int opcode, const unsigned char *payload, size_t n) {
    unsigned char frame[WS_MAX_HEADER + 128];
    if (n > 125) return;
    size_t len = ws_encode_client_frame(frame, opcode, payload, n, (uint32_t)rand());
    if (send(c->fd, frame, len, MSG_NOSIGNAL) != (ssize_t)len) mark_dead(c, "pong not sent whole");
}

static void on_message(struct conn *c, const unsigned char *p, size_t n) {
    int64_t version;
    if (!find_int(p, n, "\"version\":", &version)) return;
    if (n > 14 && memmem(p, n < 40 ? n : 40, "\"type\":\"patch\"", 14)) conflated++;
    if (version > c->version) c->version = version;
    if (c->state == ST_OPEN) { c->state = ST_READY; ready_count++; }
}

static void on_bytes(struct conn *c, const unsigned char *data, size_t n) {
    size_t off = 0;
    while (off < n && c->state != ST_DEAD) {
        struct ws_frame f;
        long used = ws_parse_server_frame(data + off, n - off, &f);
        if (used == 0) break;
        if (used < 0) { mark_dead(c, "bad frame from server"); return; }
        if (f.opcode == WS_OP_TEXT) on_message(c, f.payload, f.length);
        else if (f.opcode == WS_OP_PING) send_frame(c, WS_OP_PONG, f.payload, f.length);
        else if (f.opcode == WS_OP_CLOSE) { mark_dead(c, "close frame from server"); return; }
        off += (size_t)used;
    }
    if (c->state == ST_DEAD) return;
    keep_carry(&c->carry, &c->carry_len, &c->carry_cap, data + off, n - off);
}

static void on_readable(struct conn *c) {
    size_t have = c->carry_len;
    if (have) memcpy(rbuf, c->carry, have);
    ssize_t n = recv(c->fd, rbuf + have, sizeof rbuf - have, 0);
    if (n == 0) { mark_dead(c, "EOF"); return; }
    if (n < 0) { if (errno != EAGAIN) mark_dead(c, strerror(errno)); return; }
    size_t len = have + (size_t)n;
    c->carry_len = 0;
    if (c->state == ST_HANDSHAKE) {
        long head = ws_handshake_head(rbuf, len);
        if (head == 0) { keep_carry(&c->carry, &c->carry_len, &c->carry_cap, rbuf, len); return; }
        if (head < 0) { mark_dead(c, "handshake refused"); return; }
        c->state = ST_OPEN;
        on_bytes(c, rbuf + head, len - (size_t)head);
        return;
    }
    on_bytes(c, rbuf, len);
}

static void start_connect(struct conn *c) {
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket (raise ulimit -n)");
    c->version = -1;
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) die("connect");
    c->state = ST_CONNECTING;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl add");
}

static void on_writable(struct conn *c) {
    if (c->state != ST_CONNECTING) return;
    int err = 0;
    socklen_t l = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
    if (err) { mark_dead(c, strerror(err)); return; }
    char req[512], path[160];
    snprintf(path, sizeof path, "/stores/%s/ws", opt.fanout);
    int n = ws_upgrade_request(req, sizeof req, path, "127.0.0.1", opt.port);
    if (send(c->fd, req, (size_t)n, MSG_NOSIGNAL) != n) { mark_dead(c, "handshake not sent whole"); return; }
    c->state = ST_HANDSHAKE;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void poll_once(int timeout_ms) {
    struct epoll_event evs[512];
    int n = epoll_wait(epfd, evs, 512, timeout_ms);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < n; i++) {
        struct conn *c = evs[i].data.ptr;
        if (c->state == ST_DEAD) continue;
        if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) on_readable(c);
        if (c->state != ST_DEAD && (evs[i].events & EPOLLOUT)) on_writable(c);
    }
}

static int all_hold(int64_t version) {
    for (int i = 0; i < opt.subs; i++)
        if (conns[i].state != ST_DEAD && conns[i].version < version) return 0;
    return 1;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void usage(void) {
    fprintf(stderr, "usage: fairness --port P [--subs N] [--batch K] [--batches B] [--baseline S] [--fanout STORE]\n"
                    "                [--probe STORE] [--batch-timeout S] [--max-seconds S]\n");
    exit(2);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) usage();
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--port")) opt.port = atoi(v);
        else if (!strcmp(a, "--subs")) opt.subs = atoi(v);
        else if (!strcmp(a, "--batch")) opt.batch = atoi(v);
        else if (!strcmp(a, "--batches")) opt.batches = atoi(v);
        else if (!strcmp(a, "--baseline")) opt.baseline = atof(v);
        else if (!strcmp(a, "--fanout")) opt.fanout = v;
        else if (!strcmp(a, "--probe")) opt.probe = v;
        else if (!strcmp(a, "--batch-timeout")) opt.batch_timeout = atof(v);
        else if (!strcmp(a, "--max-seconds")) opt.max_seconds = atof(v);
        else usage();
    }
    if (opt.port <= 0 || opt.subs <= 0 || opt.batch <= 0 || opt.batches <= 0) usage();
    signal(SIGALRM, on_alarm);
    alarm((unsigned)(opt.max_seconds + 0.999));
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    conns = calloc((size_t)opt.subs, sizeof *conns);
    if (!conns) die("calloc");
    epfd = epoll_create1(0);

    /* Connect with at most 64 handshakes pending (gentle on the listen backlog). */
    uint64_t t0 = now_ns();
    int started = 0;
    while (ready_count + dead_count < opt.subs) {
        while (started < opt.subs && started - ready_count - dead_count < 64) start_connect(&conns[started++]);
        poll_once(100);
        if (now_ns() - t0 > 60000000000ull) break;
    }
    if (ready_count < opt.subs) { printf("RESULT error=connect ready=%d of=%d\n", ready_count, opt.subs); return 1; }
    double connect_s = (double)(now_ns() - t0) / 1e9;

    pthread_t probe;
    if (pthread_create(&probe, NULL, probe_main, NULL) != 0) die("pthread_create");
    while (!atomic_load(&probe_ready)) usleep(1000);
    atomic_store(&phase, 1);
    uint64_t base_end = now_ns() + (uint64_t)(opt.baseline * 1e9);
    while (now_ns() < base_end) poll_once(50);

    /* The batch body: K publish actions with increasing seq. */
    size_t cap = (size_t)opt.batch * 80 + 16;
    char *body = malloc(cap), *req = malloc(cap + 256), resp[512];
    if (!body || !req) die("malloc");
    int pub = connect_blocking();
    uint64_t *fanout_ns = calloc((size_t)opt.batches, sizeof *fanout_ns);
    int64_t seq = 1000000;
    for (int b = 0; b < opt.batches && dead_count == 0; b++) {
        size_t len = 0;
        body[len++] = '[';
        for (int k = 0; k < opt.batch; k++)
            len += (size_t)snprintf(body + len, cap - len, "%s{\"type\":\"publish\",\"payload\":{\"seq\":%lld,\"t\":0}}",
                                    k ? "," : "", (long long)seq++);
        body[len++] = ']';
        int hl = snprintf(req, 256, "POST /stores/%s/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                    "application/json\r\nContent-Length: %zu\r\n\r\n", opt.fanout, len);
        memcpy(req + hl, body, len);
        uint64_t sent = now_ns();
        atomic_store(&phase, 2);
        send_all(pub, req, (size_t)hl + len);
        /* The response (the batch's last version) may come before or after the fan-out: read it first, blocking;
         * the subscribers' bytes wait in their sockets meanwhile (their buffers hold a batch). */
        if (read_response(pub, resp, sizeof resp) != 200) { fprintf(stderr, "fairness: batch not 200\n"); return 2; }
        int64_t version = -1;
        if (!find_int((unsigned char *)resp, strlen(resp), "\"version\":", &version)) { fprintf(stderr, "no version\n"); return 2; }
        uint64_t deadline = sent + (uint64_t)(opt.batch_timeout * 1e9);
        while (!all_hold(version) && now_ns() < deadline && dead_count == 0) poll_once(5);
        fanout_ns[b] = now_ns() - sent;
        atomic_store(&phase, 3);
        uint64_t pause = now_ns() + 200000000ull; /* 200 ms between batches, subscribers still read */
        while (now_ns() < pause) poll_once(20);
    }
    atomic_store(&phase, 4);
    pthread_join(probe, NULL);
    qsort(fanout_ns, (size_t)opt.batches, sizeof *fanout_ns, cmp_u64);
    uint64_t base_n, fan_n;
    double b50 = hist_pct(hist_base, 0.50, &base_n), b99 = hist_pct(hist_base, 0.99, NULL);
    double f50 = hist_pct(hist_fan, 0.50, &fan_n), f99 = hist_pct(hist_fan, 0.99, NULL);
    printf("RESULT subs=%d connect_s=%.1f batch=%d batches=%d base_p50_us=%.0f base_p99_us=%.0f base_n=%llu "
           "fan_p50_us=%.0f fan_p99_us=%.0f fan_max_us=%.0f fan_n=%llu fanout_ms=%.0f conflated=%lld dead=%d\n",
           opt.subs, connect_s, opt.batch, opt.batches, b50, b99, (unsigned long long)base_n, f50, f99,
           (double)fan_max_ns / 1000, (unsigned long long)fan_n, (double)fanout_ns[opt.batches / 2] / 1e6,
           (long long)conflated, dead_count);
    return dead_count ? 1 : 0;
}
