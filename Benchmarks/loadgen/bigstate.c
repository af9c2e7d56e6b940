/* bigstate: one big TodoList store, many WebSocket subscribers, a run of changes (epoll, one process, loopback only).
 *
 *   bigstate --port P --store NAME --bytes N [--subs 100] [--changes 70] [--max-seconds 240] [--format state|patch]
 *            [--minimal 0|1] [--probe 1|0]
 *
 *   1. PUT /stores/NAME {"reducer":"TodoList","state":{"items":[…],"nextID":…}}: about N bytes of state JSON
 *      (items of about 140 bytes each). The server needs limits.maxBodyBytes above N.
 *   2. Opens --subs WebSocket subscribers on /stores/NAME/ws (the whole state, as `state` messages; with --format
 *      patch, /stores/NAME/ws?format=patch: a snapshot, then RFC 6902 `patch` messages) and waits for each one's
 *      snapshot. Prints "READY put_ms=... connect_ms=..." and waits for one line on stdin.
 *   3. --changes times, one after another: POST /stores/NAME/actions {"type":"add","payload":{"text":"…"}} (with
 *      --minimal 1, `Prefer: return=minimal`: the answer holds the version, not the state) and
 *      waits until its answer has come and every subscriber holds that version (a `state` or `patch` message whose
 *      "version" is at least the answer's). Meanwhile a probe connection sends GET /healthz whenever its previous
 *      answer came (not with --probe 0). Prints "CHANGES change_ms_p50=... change_ms_max=... post_ms_p50=... probe_ms_p50=...
 *      probe_ms_max=..." (change: from the POST's write until the last subscriber has it) and waits for a line.
 *   4. DELETE /stores/NAME; waits for every subscriber to be closed (after its `deleted` message) and closes the
 *      HTTP connections. Prints "RESULT deleted=1" and waits for stdin to close.
 *
 * Subscriber frames are parsed as they stream in: only a frame's header and the first bytes of its payload are kept
 * (the "version" is near the start of every envelope), so the client does not hold copies of the big states.
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

enum { HEAD_KEEP = 256, MAX_CHANGES = 1000, MAX_PROBES = 1 << 20 };

struct conn {
    int fd, connecting, upgraded, closed;
    unsigned char *in; /* HTTP: the bytes not yet consumed; WebSocket: the current frame's header and payload start */
    size_t in_len, in_cap;
    unsigned char *out;
    size_t out_len, out_cap;
    uint64_t skip;    /* WebSocket: payload bytes of the current frame still to discard */
    int64_t version;  /* WebSocket: the newest version received (-1: no snapshot yet) */
};

static struct {
    int port, subs, changes;
    long bytes;
    const char *store;
    double max_seconds;
    int patch, minimal, probe;
} opt = {0, 100, 70, 1000000, "big", 240, 0, 0, 1};

static int epfd;
static unsigned char rbuf[1 << 18];
static struct conn *subs, http, probe;
static int snapshots, closed_subs;

static void fail(const char *what) {
    printf("RESULT error=%s\n", what);
    fprintf(stderr, "bigstate: %s (%s)\n", what, errno ? strerror(errno) : "");
    exit(2);
}

static void watch(struct conn *c, int op) {
    struct epoll_event ev = {.events = EPOLLIN | (c->out_len || c->connecting ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) fail("epoll_ctl");
}

#include "loadgen_conn.h"

static void open_conn(struct conn *c) {
    memset(c, 0, sizeof *c);
    c->version = -1;
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) fail("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    a.sin_addr.s_addr = htonl(0x7f000001u);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) fail("connect");
    c->connecting = 1;
    watch(c, EPOLL_CTL_ADD);
}

static void queue_out(struct conn *c, const char *p, size_t n) {
    grow(&c->out, &c->out_cap, c->out_len + n);
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
    if (!c->connecting) flush_out(c);
}

static void append_in(struct conn *c, const unsigned char *p, size_t n) {
    grow(&c->in, &c->in_cap, c->in_len + n);
    memcpy(c->in + c->in_len, p, n);
    c->in_len += n;
}

/* A subscriber's complete frame head (header + up to HEAD_KEEP payload bytes) is in c->in: handle it. */
static void on_frame_head(struct conn *c, int opcode, const unsigned char *payload, size_t kept) {
    if (opcode == 8) {
        c->closed = 1;
        closed_subs++;
        return;
    }
    if (opcode != 1) return;
    unsigned char *v = memmem(payload, kept, "\"version\":", 10);
    if (!v) return; /* deleted */
    int64_t version = strtoll((const char *)v + 10, NULL, 10);
    if (c->version < 0) snapshots++;
    if (version > c->version) c->version = version;
}

/* The bytes of subscriber c's current frame head still missing: the header, then up to HEAD_KEEP payload bytes. */
static size_t head_missing(const struct conn *c, size_t *header, uint64_t *length) {
    if (c->in_len < 2) return 2 - c->in_len;
    size_t h = 2;
    uint64_t len = c->in[1] & 0x7f;
    if (len == 126) h = 4;
    if (len == 127) h = 10;
    if (c->in_len < h) return h - c->in_len;
    if (len == 126) len = ((uint64_t)c->in[2] << 8) | c->in[3];
    if (len == 127) {
        len = 0;
        for (int i = 0; i < 8; i++) len = (len << 8) | c->in[2 + i];
    }
    *header = h, *length = len;
    size_t want = h + (len < HEAD_KEEP ? (size_t)len : HEAD_KEEP);
    return want - c->in_len;
}

/* Streams n bytes of server frames into subscriber c: keeps only each frame's header and payload start. */
static void sub_bytes(struct conn *c, const unsigned char *p, size_t n) {
    while (n > 0) {
        if (c->skip > 0) {
            size_t k = n < c->skip ? n : (size_t)c->skip;
            c->skip -= k, p += k, n -= k;
            continue;
        }
        size_t h = 0;
        uint64_t len = 0;
        size_t missing = head_missing(c, &h, &len);
        size_t take = missing < n ? missing : n;
        append_in(c, p, take), p += take, n -= take;
        if (head_missing(c, &h, &len) > 0 || h == 0) continue;
        size_t kept = c->in_len - h;
        on_frame_head(c, c->in[0] & 0x0f, c->in + h, kept);
        c->skip = len - kept;
        c->in_len = 0;
    }
}

static void on_sub_readable(struct conn *c) {
    for (;;) {
        ssize_t n = recv(c->fd, rbuf, sizeof rbuf, 0);
        if (n == 0) {
            if (!c->closed) c->closed = 1, closed_subs++;
            epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
            return;
        }
        if (n < 0) {
            if (errno == EAGAIN) return;
            fail("recv (subscriber)");
        }
        const unsigned char *p = rbuf;
        size_t len = (size_t)n;
        if (!c->upgraded) {
            append_in(c, p, len);
            unsigned char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
            if (!end) continue;
            if (c->in_len < 12 || memcmp(c->in, "HTTP/1.1 101", 12) != 0) fail("the upgrade was refused");
            size_t head = (size_t)(end - c->in) + 4, rest = c->in_len - head;
            unsigned char *tmp = malloc(rest + 1);
            if (!tmp) fail("malloc");
            memcpy(tmp, c->in + head, rest);
            c->in_len = 0;
            c->upgraded = 1;
            sub_bytes(c, tmp, rest);
            free(tmp);
            continue;
        }
        sub_bytes(c, p, len);
    }
}

static int fill_http(struct conn *c) {
    for (;;) {
        ssize_t n = recv(c->fd, rbuf, sizeof rbuf, 0);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EAGAIN) return 1;
            fail("recv (http)");
        }
        append_in(c, rbuf, (size_t)n);
    }
}

static int http_status;
static int64_t http_version;
static uint64_t probe_sent, probe_ms_us[MAX_PROBES];
static int probes, probing;

static void send_probe(void) {
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    probe_sent = now_ns();
    queue_out(&probe, req, sizeof req - 1);
}

static void on_event(struct epoll_event *ev) {
    struct conn *c = ev->data.ptr;
    if (c->connecting && (ev->events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0;
        socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) fail("connect failed");
        c->connecting = 0;
    }
    if (ev->events & EPOLLOUT) flush_out(c);
    if (!(ev->events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
    if (c != &http && c != &probe) return on_sub_readable(c);
    if (!fill_http(c)) fail(c == &http ? "the server closed the HTTP connection" : "the server closed the probe connection");
    int64_t version;
    int status;
    while ((status = take_response(c, &version)) != 0) {
        if (c == &http) {
            http_status = status, http_version = version;
        } else {
            if (probes < MAX_PROBES) probe_ms_us[probes++] = (now_ns() - probe_sent) / 1000;
            if (probing) send_probe();
        }
    }
}

static void pump(void) {
    struct epoll_event evs[256];
    int n = epoll_wait(epfd, evs, 256, 1000);
    if (n < 0 && errno != EINTR) fail("epoll_wait");
    for (int e = 0; e < n; e++) on_event(&evs[e]);
}

/* Sends a request on the HTTP connection and pumps until its answer. */
static int request(const char *head, const char *body, size_t body_len) {
    http_status = 0;
    queue_out(&http, head, strlen(head));
    if (body_len) queue_out(&http, body, body_len);
    while (!http_status) pump();
    return http_status;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct_ms(uint64_t *v, int n, double q, double unit) {
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    int i = (int)(q * (n - 1) + 0.5);
    return (double)v[i] / unit;
}

static void wait_line(void) {
    char line[64];
    if (!fgets(line, sizeof line, stdin)) exit(0);
}

static char *put_body(size_t *len) {
    const char *text = "The quick brown fox jumps over the lazy dog, then rests; the dog chases it round the yard again.";
    size_t cap = (size_t)opt.bytes + 4096, n = 0;
    char *b = malloc(cap);
    if (!b) fail("malloc");
    n += (size_t)sprintf(b, "{\"reducer\":\"TodoList\",\"state\":{\"items\":[");
    long id = 1;
    while ((long)n < opt.bytes) {
        n += (size_t)sprintf(b + n, "%s{\"done\":%s,\"id\":%ld,\"text\":\"%ld %s\"}", id > 1 ? "," : "",
                             id % 3 ? "false" : "true", id, id, text);
        id++;
    }
    n += (size_t)sprintf(b + n, "],\"nextID\":%ld}}", id);
    *len = n;
    return b;
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--port")) opt.port = atoi(v);
        else if (!strcmp(k, "--store")) opt.store = v;
        else if (!strcmp(k, "--bytes")) opt.bytes = atol(v);
        else if (!strcmp(k, "--subs")) opt.subs = atoi(v);
        else if (!strcmp(k, "--changes")) opt.changes = atoi(v);
        else if (!strcmp(k, "--max-seconds")) opt.max_seconds = atof(v);
        else if (!strcmp(k, "--format")) opt.patch = !strcmp(v, "patch");
        else if (!strcmp(k, "--minimal")) opt.minimal = atoi(v);
        else if (!strcmp(k, "--probe")) opt.probe = atoi(v);
        else fail("unknown option");
    }
    if (opt.port <= 0 || opt.subs <= 0 || opt.changes < 1 || opt.changes > MAX_CHANGES) fail("bad options");
    signal(SIGALRM, on_alarm);
    alarm((unsigned)opt.max_seconds);
    if ((epfd = epoll_create1(0)) < 0) fail("epoll_create1");
    open_conn(&http);
    if (opt.probe) open_conn(&probe); /* an idle probe connection would meet the server's idle timeout */
    char head[512];

    size_t body_len;
    char *body = put_body(&body_len);
    uint64_t t0 = now_ns();
    snprintf(head, sizeof head, "PUT /stores/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %zu\r\n\r\n", opt.store,
             body_len);
    if (request(head, body, body_len) != 201) fail("the PUT was not answered 201");
    free(body);
    uint64_t t1 = now_ns();

    subs = calloc((size_t)opt.subs, sizeof *subs);
    if (!subs) fail("calloc");
    for (int i = 0; i < opt.subs; i++) {
        open_conn(&subs[i]);
        char req[512];
        int n = snprintf(req, sizeof req,
                         "GET /stores/%s/ws%s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n",
                         opt.store, opt.patch ? "?format=patch" : "");
        queue_out(&subs[i], req, (size_t)n);
    }
    while (snapshots < opt.subs) pump();
    printf("READY put_ms=%.1f connect_ms=%.1f\n", (double)(t1 - t0) / 1e6, (double)(now_ns() - t1) / 1e6);
    fflush(stdout);
    wait_line();

    static uint64_t change_us[MAX_CHANGES], post_us[MAX_CHANGES];
    probing = opt.probe;
    if (probing) send_probe();
    for (int k = 0; k < opt.changes; k++) {
        char action[256];
        int an = snprintf(action, sizeof action, "{\"type\":\"add\",\"payload\":{\"text\":\"change %d of the benchmark\"}}", k);
        snprintf(head, sizeof head,
                 "POST /stores/%s/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n%sContent-Length: %d\r\n\r\n", opt.store,
                 opt.minimal ? "Prefer: return=minimal\r\n" : "", an);
        uint64_t s = now_ns();
        if (request(head, action, (size_t)an) != 200) fail("a change POST was not answered 200");
        post_us[k] = (now_ns() - s) / 1000;
        int64_t want = http_version;
        for (;;) {
            int behind = 0;
            for (int i = 0; i < opt.subs; i++) behind += subs[i].version < want;
            if (!behind) break;
            pump();
        }
        change_us[k] = (now_ns() - s) / 1000;
    }
    probing = 0;
    printf("CHANGES change_ms_p50=%.1f change_ms_max=%.1f post_ms_p50=%.1f probe_ms_p50=%.2f probe_ms_max=%.1f\n",
           pct_ms(change_us, opt.changes, 0.5, 1000), pct_ms(change_us, opt.changes, 1, 1000),
           pct_ms(post_us, opt.changes, 0.5, 1000), pct_ms(probe_ms_us, probes, 0.5, 1000),
           pct_ms(probe_ms_us, probes, 1, 1000));
    fflush(stdout);
    wait_line();

    snprintf(head, sizeof head, "DELETE /stores/%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", opt.store);
    if (request(head, NULL, 0) != 204) fail("the DELETE was not answered 204");
    while (closed_subs < opt.subs) pump();
    for (int i = 0; i < opt.subs; i++) close(subs[i].fd);
    close(http.fd);
    close(probe.fd);
    printf("RESULT deleted=1\n");
    fflush(stdout);
    while (fgets(head, sizeof head, stdin)) {}
    return 0;
}
