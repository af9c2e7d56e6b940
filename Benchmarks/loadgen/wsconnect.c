/* wsconnect: a one-core WebSocket connection-setup load generator (epoll, non-blocking, loopback only).
 *
 * K clients (--clients K), each in a loop until --duration s have passed:
 *   1. TCP connect to 127.0.0.1:PORT (non-blocking, TCP_NODELAY);
 *   2. the opening handshake on PATH (RFC 6455 section 4.1, wsclient.h's request);
 *   3. waits for the 101 and the first message (a text or binary frame: the snapshot);
 *   4. sends a close frame (code 1000, masked, section 5.5.1) and waits for the server's close frame or EOF (at most
 *      --close-ms ms), then close(2)s the socket.
 * Every server gets exactly this sequence, so the server's close handling is in what is measured. Latency is from the
 * connect(2) call to the first message, per connection (1 µs histogram below 16 ms). --warmup S seconds of cycles are
 * not measured. --max-seconds is a hard stop (exit 3).
 *
 * Output: one line "RESULT key=value ..." with connects (completed cycles measured), connects_per_s, p50_us, p99_us,
 * max_us, refused (handshakes answered with anything but 101), errors (resets, EOF before the first message, close
 * timeouts), client_cpu (fraction of a core).
 */
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wsclient.h"
#include "wsframe.h"

#define LOADGEN_NAME "wsconnect"
#include "latency.h"

/* One client's cycle: CONNECTING → HANDSHAKE (request written, waiting for 101) → OPEN (101 seen, waiting for the
 * first message) → CLOSING (close frame sent, waiting for the server's close frame or EOF) → back to CONNECTING. */
enum { ST_IDLE, ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_CLOSING };

struct client {
    int fd, state;
    uint64_t started_ns, first_message_ns, closing_since_ns;
    unsigned char *carry; /* bytes of an incomplete handshake head or frame kept between reads */
    size_t carry_len, carry_cap;
    unsigned char *out; /* bytes not yet written */
    size_t out_len, out_cap;
};

static struct {
    const char *host, *path;
    int port, clients, close_ms;
    double duration, warmup, max_seconds;
} opt = {"127.0.0.1", "/stores/ticker/ws", 0, 1, 5000, 5, 1, 60};

static struct client *clients;
static int epfd;
static int measuring, stopping;
static int64_t connects, refused, errors;
static unsigned char rbuf[1 << 16];
static char request[512];
static int request_len;

static void set_events(struct client *c, int want_out) {
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | (want_out ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl mod");
}

static void start_connect(struct client *c);

/* Ends this cycle (close(2)) and starts the next one unless the run is over. `ok`: the cycle completed. */
static void finish(struct client *c, int ok, const char *why) {
    if (!ok) {
        errors++;
        if (errors <= 5) fprintf(stderr, "wsconnect: client %ld: %s\n", (long)(c - clients), why);
    } else if (measuring) {
        connects++;
        hist_add(c->first_message_ns - c->started_ns);
    }
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    c->state = ST_IDLE;
    c->carry_len = c->out_len = 0;
    if (!stopping) start_connect(c);
}

static void flush_out(struct client *c) {
    while (c->out_len > 0) {
        ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN) break;
            finish(c, c->state == ST_CLOSING, strerror(errno));
            return;
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
    }
    set_events(c, c->out_len > 0);
}

static void queue_out(struct client *c, const void *p, size_t n) {
    grow(&c->out, &c->out_cap, c->out_len + n);
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
}

static void send_close(struct client *c) {
    static const unsigned char normal[2] = {0x03, 0xe8}; /* 1000: normal closure (section 7.4.1) */
    unsigned char frame[WS_MAX_HEADER + 2];
    size_t len = ws_encode_client_frame(frame, WS_OP_CLOSE, normal, 2, (uint32_t)rand());
    c->state = ST_CLOSING;
    c->closing_since_ns = now_ns();
    queue_out(c, frame, len);
    flush_out(c);
}

/* Frames in data[0..n) after the 101: the first text/binary frame completes OPEN; in CLOSING a close frame from the
 * server ends the cycle. Anything else (pings, further messages) is skipped. */
static void on_frames(struct client *c, const unsigned char *data, size_t n) {
    size_t off = 0;
    while (off < n) {
        struct ws_frame f;
        long used = ws_parse_server_frame(data + off, n - off, &f);
        if (used == 0) break;
        if (used < 0) { finish(c, 0, "bad frame from server"); return; }
        off += (size_t)used;
        if (c->state == ST_OPEN && (f.opcode == WS_OP_TEXT || f.opcode == WS_OP_BINARY)) {
            c->first_message_ns = now_ns();
            send_close(c);
            if (c->state != ST_CLOSING) return; /* the send failed and finished the cycle */
        } else if (f.opcode == WS_OP_CLOSE) {
            finish(c, c->state == ST_CLOSING, "close frame before the first message");
            return;
        }
    }
    keep_carry(&c->carry, &c->carry_len, &c->carry_cap, data + off, n - off);
}

static void on_readable(struct client *c) {
    size_t have = c->carry_len;
    if (have) memcpy(rbuf, c->carry, have);
    ssize_t n = recv(c->fd, rbuf + have, sizeof rbuf - have, 0);
    if (n == 0) { finish(c, c->state == ST_CLOSING, "EOF before the first message"); return; }
    if (n < 0) {
        if (errno != EAGAIN) finish(c, c->state == ST_CLOSING, strerror(errno));
        return;
    }
    size_t len = have + (size_t)n;
    c->carry_len = 0;
    if (c->state == ST_HANDSHAKE) {
        long head = ws_handshake_head(rbuf, len);
        if (head == 0) { keep_carry(&c->carry, &c->carry_len, &c->carry_cap, rbuf, len); return; }
        if (head < 0) {
            refused++;
            finish(c, 0, "handshake refused");
            return;
        }
        c->state = ST_OPEN;
        on_frames(c, rbuf + head, len - (size_t)head);
        return;
    }
    on_frames(c, rbuf, len);
}

static void start_connect(struct client *c) {
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    inet_pton(AF_INET, opt.host, &sa.sin_addr);
    c->started_ns = now_ns();
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS) die("connect");
    c->state = ST_CONNECTING;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl add");
}

static void on_writable(struct client *c) {
    if (c->state == ST_CONNECTING) {
        int err = 0;
        socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) { errno = err; finish(c, 0, strerror(err)); return; }
        c->state = ST_HANDSHAKE;
        queue_out(c, request, (size_t)request_len);
    }
    flush_out(c);
}

static void poll_once(int timeout_ms) {
    struct epoll_event evs[256];
    int n = epoll_wait(epfd, evs, 256, timeout_ms);
    if (n < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < n; i++) {
        struct client *c = evs[i].data.ptr;
        if (c->state == ST_IDLE) continue;
        int fd = c->fd;
        if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP)) on_readable(c);
        /* finish() may have started the next cycle on this client already: only a write for the same socket. */
        if (c->fd == fd && c->state != ST_IDLE && (evs[i].events & EPOLLOUT)) on_writable(c);
    }
}

/* Cycles stuck in CLOSING longer than --close-ms: the server never answered the close; counted as errors. */
static void expire_closing(uint64_t now) {
    for (int i = 0; i < opt.clients; i++) {
        struct client *c = &clients[i];
        if (c->state == ST_CLOSING && now - c->closing_since_ns > (uint64_t)opt.close_ms * 1000000ull)
            finish(c, 0, "no close frame or EOF from the server in time");
    }
}

static void usage(void) {
    fprintf(stderr, "usage: wsconnect --port P [--path /stores/ticker/ws] [--clients K] [--warmup S]\n"
                    "                 [--duration S] [--close-ms MS] [--max-seconds S]\n");
    exit(2);
}

static void parse_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        if (!strcmp(a, "--port")) opt.port = atoi(v);
        else if (!strcmp(a, "--host")) opt.host = v;
        else if (!strcmp(a, "--path")) opt.path = v;
        else if (!strcmp(a, "--clients")) opt.clients = atoi(v);
        else if (!strcmp(a, "--warmup")) opt.warmup = atof(v);
        else if (!strcmp(a, "--duration")) opt.duration = atof(v);
        else if (!strcmp(a, "--close-ms")) opt.close_ms = atoi(v);
        else if (!strcmp(a, "--max-seconds")) opt.max_seconds = atof(v);
        else usage();
        i++;
    }
    if (opt.port <= 0 || opt.clients <= 0 || opt.duration <= 0 || opt.max_seconds <= 0 || opt.close_ms <= 0) usage();
    if (strncmp(opt.host, "127.", 4) != 0) { fprintf(stderr, "wsconnect: loopback (127.x) only\n"); exit(2); }
}

int main(int argc, char **argv) {
    parse_args(argc, argv);
    signal(SIGALRM, on_alarm);
    alarm((unsigned)(opt.max_seconds + 0.999));
    srand((unsigned)now_ns());
    request_len = ws_upgrade_request(request, sizeof request, opt.path, opt.host, opt.port);
    clients = calloc((size_t)opt.clients, sizeof *clients);
    if (!clients) die("calloc");
    epfd = epoll_create1(0);
    if (epfd < 0) die("epoll_create1");

    uint64_t t0 = now_ns();
    uint64_t measure_at = t0 + (uint64_t)(opt.warmup * 1e9);
    uint64_t stop_at = measure_at + (uint64_t)(opt.duration * 1e9);
    for (int i = 0; i < opt.clients; i++) start_connect(&clients[i]);
    struct rusage ru0 = {0}, ru1;
    uint64_t measure_start = 0;
    for (;;) {
        uint64_t now = now_ns();
        if (!measuring && now >= measure_at) {
            measuring = 1;
            measure_start = now;
            getrusage(RUSAGE_SELF, &ru0);
        }
        if (now >= stop_at) break;
        poll_once(10);
        expire_closing(now_ns());
    }
    uint64_t end = now_ns();
    getrusage(RUSAGE_SELF, &ru1);
    measuring = 0;
    stopping = 1;
    for (int i = 0; i < opt.clients; i++)
        if (clients[i].state != ST_IDLE) { close(clients[i].fd); clients[i].state = ST_IDLE; }
    double window_s = (double)(end - measure_start) / 1e9;
    double cpu = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
                 (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
    printf("RESULT clients=%d connects=%lld connects_per_s=%.0f p50_us=%.0f p99_us=%.0f max_us=%.0f refused=%lld "
           "errors=%lld client_cpu=%.2f\n",
           opt.clients, (long long)connects, window_s > 0 ? (double)connects / window_s : 0, hist_pct(0.50),
           hist_pct(0.99), (double)lat_max_ns / 1000, (long long)refused, (long long)errors, cpu / window_s);
    return connects > 0 ? 0 : 1;
}
