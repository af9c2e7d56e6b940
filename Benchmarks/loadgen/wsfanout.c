/* wsfanout: a one-core WebSocket fan-out load generator (epoll, non-blocking, loopback only).
 *
 * Opens N subscriber connections and one publisher connection to ws://127.0.0.1:PORT/PATH (RFC 6455 client
 * framing written here: masked text frames out, unmasked frames in, pings answered). Every connection must first
 * receive one message (the snapshot); the largest "seq" seen there is the base. The publisher then sends
 *   {"type":"action","action":{"type":"publish","payload":{"seq":S,"t":T}}}
 * with T = CLOCK_MONOTONIC in ns, either closed loop (--window W: at most W actions not yet received by all N
 * subscribers) or open loop (--rate R actions/s). Each subscriber parses "seq" and "t" from every state message
 * and records now - t. The first --warmup K actions are not measured. Sending stops after --duration s; the
 * client then waits up to 3 s for the stragglers. --max-seconds is a hard stop (exit 3).
 * --sub-ports P1,P2,... spreads the subscribers over several servers (subscriber i on P(i mod n), the publisher
 * stays on --port): the nodes of a cluster serving the same store.
 *
 * Output: one line "RESULT key=value ..." with deliveries_per_s, lat_us p50/p99/max, missing (measured deliveries
 * never received), conflated (patch messages, i.e. states skipped by a server), client_cpu (fraction of a core).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "wsclient.h"
#include "wsframe.h"

#define LOADGEN_NAME "wsfanout"
#include "latency.h"

enum { ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_READY, ST_DEAD };

struct conn {
    int fd, state, is_pub, port;
    unsigned char *carry; /* bytes of an incomplete frame (or handshake) kept between reads */
    size_t carry_len, carry_cap;
    unsigned char *out; /* bytes not yet written */
    size_t out_len, out_cap;
    int64_t last_seq;
};

enum { MAX_SUB_PORTS = 16 };

static struct {
    const char *host, *path;
    int port, subs, window, warmup;
    double rate, duration, max_seconds;
    int64_t max_actions;
    int sub_ports[MAX_SUB_PORTS], n_sub_ports; /* --sub-ports (none: every subscriber on --port) */
} opt = {.host = "127.0.0.1", .path = "/stores/ticker/ws", .subs = 100, .warmup = 200, .duration = 8,
         .max_seconds = 60, .max_actions = 5000000};

static struct conn *conns; /* [0] publisher, [1..subs] subscribers */
static int epfd, ready_count, dead_count;
static int64_t base_seq = -1, sent, completed; /* completed: actions received by all subscribers, in order */
static uint32_t *counts;                       /* counts[i]: subscribers that received action base_seq + i */
static int64_t deliveries, measured_deliveries, conflated, reordered;
static unsigned char rbuf[1 << 18];

static void set_events(struct conn *c, int want_out) {
    struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl mod");
}

static void mark_dead(struct conn *c, const char *why) {
    if (c->state == ST_DEAD) return;
    fprintf(stderr, "wsfanout: connection %ld closed: %s\n", (long)(c - conns), why);
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->state = ST_DEAD;
    dead_count++;
}

static void flush_out(struct conn *c) {
    while (c->out_len > 0) {
        ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN) break;
            mark_dead(c, strerror(errno));
            return;
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
    }
    set_events(c, c->out_len > 0);
}

static void queue_out(struct conn *c, const void *p, size_t n) {
    grow(&c->out, &c->out_cap, c->out_len + n);
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
}

static void send_frame(struct conn *c, int opcode, const void *payload, size_t n) {
    unsigned char frame[WS_MAX_HEADER + 256];
    if (n > 256) return;
    size_t len = ws_encode_client_frame(frame, opcode, payload, n, (uint32_t)rand());
    queue_out(c, frame, len);
    if (c->out_len == len) flush_out(c);
}

static void publish(void) {
    char msg[160];
    int64_t seq = base_seq + sent;
    int n = snprintf(msg, sizeof msg, "{\"type\":\"action\",\"action\":{\"type\":\"publish\",\"payload\":"
                                      "{\"seq\":%lld,\"t\":%llu}}}", (long long)seq, (unsigned long long)now_ns());
    send_frame(&conns[0], WS_OP_TEXT, msg, (size_t)n);
    sent++;
}

static void on_message(struct conn *c, const unsigned char *p, size_t n) {
    int64_t seq, t;
    if (memmem(p, n, "\"type\":\"patch\"", 14)) conflated += !c->is_pub;
    if (!find_int(p, n, "\"seq\":", &seq)) return; /* acks and other messages */
    if (c->state == ST_OPEN) { /* the snapshot */
        c->state = ST_READY;
        ready_count++;
        if (seq > base_seq) base_seq = seq;
        c->last_seq = -1;
        return;
    }
    if (c->is_pub || base_seq < 0 || !find_int(p, n, "\"t\":", &t)) return;
    uint64_t now = now_ns();
    int64_t i = seq - (base_seq + 0);
    if (i < 0 || i >= sent) return; /* a state from before this run */
    if (c->last_seq >= 0 && seq <= c->last_seq) reordered++;
    c->last_seq = seq;
    deliveries++;
    counts[i]++;
    if (i >= opt.warmup) {
        measured_deliveries++;
        hist_add(now - (uint64_t)t);
    }
    while (completed < sent && counts[completed] >= (uint32_t)opt.subs) completed++;
}

/* Parses whole frames out of data[0..n) and keeps the remainder in c->carry. */
static void on_bytes(struct conn *c, const unsigned char *data, size_t n) {
    size_t off = 0;
    while (off < n && c->state != ST_DEAD) {
        struct ws_frame f;
        long used = ws_parse_server_frame(data + off, n - off, &f);
        if (used == 0) break;
        if (used < 0) { mark_dead(c, "bad frame from server"); return; }
        if (f.opcode == WS_OP_TEXT || f.opcode == WS_OP_BINARY) on_message(c, f.payload, f.length);
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
    if (n < 0) {
        if (errno != EAGAIN) mark_dead(c, strerror(errno));
        return;
    }
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
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)c->port)};
    inet_pton(AF_INET, opt.host, &sa.sin_addr);
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket (raise ulimit -n)");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) die("connect");
    c->state = ST_CONNECTING;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl add");
}

static void on_writable(struct conn *c) {
    if (c->state == ST_CONNECTING) {
        int err = 0;
        socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) { mark_dead(c, strerror(err)); return; }
        char req[512];
        int n = ws_upgrade_request(req, sizeof req, opt.path, opt.host, c->port);
        c->state = ST_HANDSHAKE;
        queue_out(c, req, (size_t)n);
    }
    flush_out(c);
}

static void poll_once(int timeout_ms, int timer_fd, int *timer_ticks) {
    struct epoll_event evs[512];
    int n = epoll_wait(epfd, evs, 512, timeout_ms);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < n; i++) {
        if (evs[i].data.ptr == NULL) { /* the rate timer */
            uint64_t k;
            if (read(timer_fd, &k, sizeof k) == sizeof k) *timer_ticks += (int)k;
            continue;
        }
        struct conn *c = evs[i].data.ptr;
        if (c->state == ST_DEAD) continue;
        if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) on_readable(c);
        if (c->state != ST_DEAD && (evs[i].events & EPOLLOUT)) on_writable(c);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: wsfanout --port P [--path /stores/ticker/ws] [--subs N] (--window W | --rate R)\n"
                    "                [--warmup K] [--duration S] [--max-seconds S] [--actions MAX]\n"
                    "                [--sub-ports P1,P2,...]\n");
    exit(2);
}

static void parse_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        if (!strcmp(a, "--port")) opt.port = atoi(v);
        else if (!strcmp(a, "--host")) opt.host = v;
        else if (!strcmp(a, "--path")) opt.path = v;
        else if (!strcmp(a, "--subs")) opt.subs = atoi(v);
        else if (!strcmp(a, "--window")) opt.window = atoi(v);
        else if (!strcmp(a, "--rate")) opt.rate = atof(v);
        else if (!strcmp(a, "--warmup")) opt.warmup = atoi(v);
        else if (!strcmp(a, "--duration")) opt.duration = atof(v);
        else if (!strcmp(a, "--max-seconds")) opt.max_seconds = atof(v);
        else if (!strcmp(a, "--actions")) opt.max_actions = atoll(v);
        else if (!strcmp(a, "--sub-ports")) {
            for (const char *p = v; *p && opt.n_sub_ports < MAX_SUB_PORTS; p += strcspn(p, ","), p += *p == ',') {
                int port = atoi(p);
                if (port <= 0) usage();
                opt.sub_ports[opt.n_sub_ports++] = port;
            }
        } else usage();
        i++;
    }
    if (opt.port <= 0 || opt.subs <= 0 || (opt.window > 0) == (opt.rate > 0) || opt.max_seconds <= 0) usage();
    if (strncmp(opt.host, "127.", 4) != 0) { fprintf(stderr, "wsfanout: loopback (127.x) only\n"); exit(2); }
}

int main(int argc, char **argv) {
    parse_args(argc, argv);
    signal(SIGALRM, on_alarm);
    alarm((unsigned)(opt.max_seconds + 0.999));
    srand((unsigned)now_ns());
    counts = calloc((size_t)opt.max_actions, sizeof *counts);
    conns = calloc((size_t)opt.subs + 1, sizeof *conns);
    if (!counts || !conns) die("calloc");
    epfd = epoll_create1(0);
    int total = opt.subs + 1;
    for (int i = 0; i < total; i++) {
        conns[i].is_pub = i == 0;
        conns[i].port = i == 0 || opt.n_sub_ports == 0 ? opt.port : opt.sub_ports[(i - 1) % opt.n_sub_ports];
    }

    /* Connect in batches of at most 64 pending handshakes (gentle on the listen backlog). */
    uint64_t t0 = now_ns();
    int started = 0;
    while (ready_count + dead_count < total) {
        while (started < total && started - ready_count - dead_count < 64) start_connect(&conns[started++]);
        poll_once(100, -1, &(int){0});
        if (now_ns() - t0 > 30000000000ull) { fprintf(stderr, "wsfanout: connect phase took over 30 s\n"); break; }
    }
    if (ready_count < total) {
        printf("RESULT error=connect ready=%d of=%d\n", ready_count, total);
        return 1;
    }
    base_seq += 1;
    double connect_s = (double)(now_ns() - t0) / 1e9;

    int tfd = -1, ticks = 0;
    if (opt.rate > 0) {
        tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
        uint64_t period = (uint64_t)(1e9 / opt.rate);
        struct itimerspec its = {.it_interval = {(time_t)(period / 1000000000ull), (long)(period % 1000000000ull)},
                                 .it_value = {0, 1000}};
        timerfd_settime(tfd, 0, &its, NULL);
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
        epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev);
    }
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    uint64_t start = now_ns(), measure_start = 0, send_end = 0;
    uint64_t stop_at = start + (uint64_t)(opt.duration * 1e9);
    int64_t measured_from = opt.warmup;
    while (dead_count == 0) {
        uint64_t now = now_ns();
        int sending = now < stop_at && sent < opt.max_actions;
        if (sending) {
            if (opt.window > 0) {
                while (sent - completed < opt.window && sent < opt.max_actions) publish();
            } else {
                for (; ticks > 0 && sent < opt.max_actions; ticks--) publish();
            }
            if (!measure_start && sent > measured_from) measure_start = now;
        } else {
            if (!send_end) send_end = now;
            if (completed >= sent || now - send_end > 3000000000ull) break;
        }
        poll_once(sending ? 10 : 50, tfd, &ticks);
    }
    uint64_t end = now_ns();
    getrusage(RUSAGE_SELF, &ru1);
    /* Deliveries/s: measured deliveries over the time from the first measured send to the last delivery seen. */
    double cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
                 (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
    int64_t missing = 0;
    for (int64_t i = measured_from; i < sent; i++) missing += opt.subs - (int64_t)counts[i];
    double window_s = send_end && measure_start ? (double)(send_end - measure_start) / 1e9 : 0;
    printf("RESULT subs=%d mode=%s connect_s=%.2f actions=%lld measured_actions=%lld deliveries=%lld "
           "deliveries_per_s=%.0f actions_per_s=%.0f p50_us=%.0f p99_us=%.0f max_us=%.0f missing=%lld "
           "conflated=%lld reordered=%lld dead=%d client_cpu=%.2f\n",
           opt.subs, opt.window > 0 ? "window" : "rate", connect_s, (long long)sent,
           (long long)(sent > measured_from ? sent - measured_from : 0), (long long)measured_deliveries,
           window_s > 0 ? (double)measured_deliveries / window_s : 0,
           window_s > 0 ? (double)(sent - measured_from) / window_s : 0, hist_pct(0.50), hist_pct(0.99),
           (double)lat_max_ns / 1000, (long long)missing, (long long)conflated, (long long)reordered, dead_count,
           cpu / ((double)(end - start) / 1e9));
    return dead_count ? 1 : 0;
}
