/* httprate: HTTP POSTs at a fixed total rate, latency from each request's scheduled send time (one core, epoll,
 * non-blocking keep-alive connections, loopback only).
 *
 *   httprate --port P --rate R [--conns 64] [--seconds 10] [--warmup 1] [--store counter | --stores N --prefix NAME]
 *            [--pid SERVER_PID] [--max-seconds 60]
 *
 * Request j (j = 0, 1, ...) is due at start + j / R and belongs to connection j mod C, so each connection sends one
 * POST /stores/<store>/actions {"type":"increment"} every C / R seconds. A connection has at most one request in
 * flight: when an answer comes late, the connection's next request goes out as soon as it arrives, and its latency
 * still counts from the time it was due (no coordinated omission: a stalled server shows as latency, not as fewer
 * samples). With --stores N each request goes to NAME<i>, i uniformly random in [0, N) (a fixed seed).
 *
 * Requests due during the --warmup seconds are sent but not measured; then, for --seconds, every request due is
 * measured. Afterwards the answers in flight get up to 2 s. With --pid, the CPU time of each of the server's threads
 * (/proc/PID/task/TID/schedstat: time on a CPU, ns; time waiting for one; how many times it was put on a CPU) over
 * the measured window is printed as
 *   THREAD tid=T name=NAME cpu_ms=X wait_ms=Y runs=N
 * (an event loop is put on a CPU once per wake-up from epoll_wait, plus once per preemption)
 * then one line
 *   RESULT rate=R conns=C seconds=S due=N completed=N per_s=X non2xx=N unsent=N p50_us=.. p90_us=.. p99_us=..
 *          p999_us=.. max_us=.. server_cpu_ms=X server_us_per_req=X client_cpu_ms=X
 * "unsent" counts measured requests without an answer at the end (not sent yet because their connection still
 * waited for an earlier answer, or answered after the 2 s drain): the server fell behind the rate;
 * server_us_per_req divides the server's CPU time in the window by the measured answers.
 *
 * Any error prints "RESULT error=..." and exits non-zero; --max-seconds is a hard stop (exit 3). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
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
#include <time.h>
#include <unistd.h>

struct conn {
    int fd, index;
    unsigned char *in; /* bytes received and not yet consumed */
    size_t in_len, in_cap;
    unsigned char *out; /* bytes not yet written */
    size_t out_len, out_cap;
    uint64_t next;     /* the index k of this connection's next request: global request k * C + index */
    uint64_t due_ns;   /* when the request in flight was due (0: none in flight) */
};

enum { MAX_THREADS = 256 };

static struct {
    int port, conns, stores, pid;
    double rate, seconds, warmup, max_seconds;
    const char *store, *prefix;
} opt = {0, 64, 0, 0, 0, 10, 1, 60, "counter", "s-"};

static int epfd;
static unsigned char rbuf[1 << 16];
static const char body[] = "{\"type\":\"increment\"}";

static void fail(const char *what) {
    printf("RESULT error=%s\n", what);
    fprintf(stderr, "httprate: %s (%s)\n", what, errno ? strerror(errno) : "");
    exit(2);
}

static void watch(struct conn *c, int op) {
    struct epoll_event ev = {.events = EPOLLIN | (c->out_len ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) fail("epoll_ctl");
}

#include "loadgen_conn.h"

/* One server thread's CPU: time on a CPU and waiting for one (ns), and times put on a CPU, from
 * /proc/PID/task/TID/schedstat. */
struct thread_cpu {
    int tid;
    char name[32];
    uint64_t run_ns, wait_ns, runs;
};

/* Reads every thread of opt.pid into out (at most MAX_THREADS); returns how many. */
static int read_threads(struct thread_cpu *out) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", opt.pid);
    DIR *dir = opendir(path);
    if (!dir) fail("opendir /proc/PID/task (is --pid the server?)");
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && n < MAX_THREADS) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        struct thread_cpu *t = &out[n];
        t->tid = atoi(e->d_name);
        char file[128];
        snprintf(file, sizeof file, "/proc/%d/task/%d/schedstat", opt.pid, t->tid);
        FILE *f = fopen(file, "r");
        if (!f) continue; /* the thread ended meanwhile */
        unsigned long long run = 0, wait = 0, runs = 0;
        int ok = fscanf(f, "%llu %llu %llu", &run, &wait, &runs) == 3;
        fclose(f);
        if (!ok) continue;
        t->run_ns = run;
        t->wait_ns = wait;
        t->runs = runs;
        snprintf(file, sizeof file, "/proc/%d/task/%d/comm", opt.pid, t->tid);
        t->name[0] = 0;
        if ((f = fopen(file, "r"))) {
            if (fgets(t->name, sizeof t->name, f)) t->name[strcspn(t->name, "\n")] = 0;
            fclose(f);
        }
        n++;
    }
    closedir(dir);
    return n;
}

static int cmp_tid(const void *a, const void *b) {
    return ((const struct thread_cpu *)a)->tid - ((const struct thread_cpu *)b)->tid;
}

static uint64_t client_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void open_conn(struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) fail("socket (raise ulimit -n)");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    a.sin_addr.s_addr = htonl(0x7f000001u);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0) fail("connect");
    if (fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK) < 0) fail("set non-blocking");
    watch(c, EPOLL_CTL_ADD);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_random(void) { /* xorshift64* */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dull;
}

/* Writes connection c's next request (due at due_ns). */
static void send_request(struct conn *c, uint64_t due_ns) {
    char head[256];
    int n;
    if (opt.stores > 0)
        n = snprintf(head, sizeof head,
            "POST /stores/%s%d/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: %zu\r\n\r\n%s",
            opt.prefix, (int)(next_random() % (uint64_t)opt.stores), sizeof body - 1, body);
    else
        n = snprintf(head, sizeof head,
            "POST /stores/%s/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: %zu\r\n\r\n%s",
            opt.store, sizeof body - 1, body);
    if (n <= 0 || (size_t)n >= sizeof head) fail("request too long");
    grow(&c->out, &c->out_cap, c->out_len + (size_t)n);
    memcpy(c->out + c->out_len, head, (size_t)n);
    c->out_len += (size_t)n;
    c->due_ns = due_ns;
    c->next++;
    flush_out(c);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct_us(const uint64_t *v, uint64_t n, double p) {
    if (!n) return 0;
    uint64_t i = (uint64_t)(p * (double)(n - 1) + 0.5);
    return (double)v[i] / 1000.0;
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--port")) opt.port = atoi(v);
        else if (!strcmp(k, "--rate")) opt.rate = atof(v);
        else if (!strcmp(k, "--conns")) opt.conns = atoi(v);
        else if (!strcmp(k, "--seconds") || !strcmp(k, "--duration")) opt.seconds = atof(v);
        else if (!strcmp(k, "--warmup")) opt.warmup = atof(v);
        else if (!strcmp(k, "--store")) opt.store = v;
        else if (!strcmp(k, "--stores")) opt.stores = atoi(v);
        else if (!strcmp(k, "--prefix")) opt.prefix = v;
        else if (!strcmp(k, "--pid")) opt.pid = atoi(v);
        else if (!strcmp(k, "--max-seconds")) opt.max_seconds = atof(v);
        else {
            fprintf(stderr, "httprate: unknown option %s\n", k);
            return 2;
        }
    }
    if (opt.port <= 0 || opt.rate <= 0 || opt.conns <= 0 || opt.seconds <= 0 || opt.warmup < 0) {
        fprintf(stderr, "usage: httprate --port P --rate R [--conns C] [--seconds S] [--warmup W] "
                        "[--store NAME | --stores N --prefix NAME] [--pid PID] [--max-seconds M]\n");
        return 2;
    }
    signal(SIGALRM, on_alarm);
    alarm((unsigned)(opt.max_seconds + 0.999));
    signal(SIGPIPE, SIG_IGN);
    if ((epfd = epoll_create1(0)) < 0) fail("epoll_create1");

    struct conn *conns = calloc((size_t)opt.conns, sizeof *conns);
    if (!conns) fail("calloc");
    for (int i = 0; i < opt.conns; i++) {
        conns[i].index = i;
        open_conn(&conns[i]);
    }
    const double interval_ns = 1e9 / opt.rate; /* between two requests due, over all connections */
    const uint64_t measured_max = (uint64_t)(opt.rate * opt.seconds) + (uint64_t)opt.conns + 16;
    uint64_t *lat = malloc(measured_max * sizeof *lat);
    if (!lat) fail("malloc");
    uint64_t measured = 0, non2xx = 0;

    static struct thread_cpu before[MAX_THREADS], after[MAX_THREADS];
    int n_before = 0, n_after = 0;
    uint64_t client_before = 0, client_after = 0;
    int window_open = 0;

    const uint64_t start = now_ns() + 1000000; /* 1 ms from now */
    const uint64_t measure_from = start + (uint64_t)(opt.warmup * 1e9);
    const uint64_t stop_at = measure_from + (uint64_t)(opt.seconds * 1e9);
    /* request j is due at start + j * interval; connection i's k-th is j = k * C + i */
#define DUE(c) (start + (uint64_t)((double)((c)->next * (uint64_t)opt.conns + (uint64_t)(c)->index) * interval_ns))

    struct epoll_event events[256];
    uint64_t drain_until = 0;
    for (;;) {
        uint64_t now = now_ns();
        if (!window_open && now >= measure_from) {
            window_open = 1;
            if (opt.pid) n_before = read_threads(before);
            client_before = client_cpu_ns();
        }
        if (window_open == 1 && now >= stop_at) {
            window_open = 2;
            if (opt.pid) n_after = read_threads(after);
            client_after = client_cpu_ns();
            drain_until = now + 2000000000ull;
        }
        /* send what is due on idle connections; find the next due time of an idle connection */
        uint64_t next_wake = UINT64_MAX;
        int in_flight = 0;
        for (int i = 0; i < opt.conns; i++) {
            struct conn *c = &conns[i];
            if (c->due_ns) {
                in_flight++;
                continue;
            }
            uint64_t due = DUE(c);
            if (due >= stop_at) continue;
            if (due <= now) {
                send_request(c, due);
                in_flight++;
            } else if (due < next_wake) {
                next_wake = due;
            }
        }
        if (window_open == 2 && (in_flight == 0 || now >= drain_until)) break;
        uint64_t wake = next_wake;
        if (window_open == 0 && measure_from < wake) wake = measure_from;
        if (window_open == 1 && stop_at < wake) wake = stop_at;
        if (window_open == 2 && drain_until < wake) wake = drain_until;
        struct timespec timeout = {0, 0};
        if (wake > now) {
            uint64_t d = wake - now;
            timeout.tv_sec = (time_t)(d / 1000000000ull);
            timeout.tv_nsec = (long)(d % 1000000000ull);
        }
        int n = epoll_pwait2(epfd, events, 256, &timeout, NULL);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("epoll_pwait2");
        }
        for (int e = 0; e < n; e++) {
            struct conn *c = events[e].data.ptr;
            if (events[e].events & EPOLLOUT) flush_out(c);
            if (!(events[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP))) continue;
            if (!fill_in(c)) fail("server closed a connection");
            int status;
            while ((status = take_response(c, NULL)) != 0) {
                uint64_t t = now_ns();
                if (!c->due_ns) fail("answer without a request");
                if (c->due_ns >= measure_from && c->due_ns < stop_at) {
                    if (status < 200 || status > 299) non2xx++;
                    if (measured < measured_max) lat[measured++] = t - c->due_ns;
                }
                c->due_ns = 0;
            }
        }
    }
    /* measured requests that never went out or never came back */
    uint64_t due_total = 0;
    for (uint64_t j = 0;; j++) {
        uint64_t due = start + (uint64_t)((double)j * interval_ns);
        if (due >= stop_at) break;
        if (due >= measure_from) due_total++;
    }
    uint64_t unsent = due_total > measured ? due_total - measured : 0;
    qsort(lat, measured, sizeof *lat, cmp_u64);

    double server_ms = 0;
    if (opt.pid) {
        qsort(before, (size_t)n_before, sizeof *before, cmp_tid);
        qsort(after, (size_t)n_after, sizeof *after, cmp_tid);
        for (int i = 0; i < n_after; i++) {
            uint64_t run0 = 0, wait0 = 0, runs0 = 0;
            for (int j = 0; j < n_before; j++)
                if (before[j].tid == after[i].tid) {
                    run0 = before[j].run_ns;
                    wait0 = before[j].wait_ns;
                    runs0 = before[j].runs;
                }
            double run = (double)(after[i].run_ns - run0) / 1e6, wait = (double)(after[i].wait_ns - wait0) / 1e6;
            server_ms += run;
            if (run >= 0.05 || wait >= 0.05)
                printf("THREAD tid=%d name=%s cpu_ms=%.1f wait_ms=%.1f runs=%llu\n", after[i].tid, after[i].name, run,
                    wait, (unsigned long long)(after[i].runs - runs0));
        }
    }
    printf("RESULT rate=%.0f conns=%d seconds=%.1f due=%llu completed=%llu per_s=%.0f non2xx=%llu unsent=%llu "
           "p50_us=%.0f p90_us=%.0f p99_us=%.0f p999_us=%.0f max_us=%.0f server_cpu_ms=%.1f server_us_per_req=%.2f "
           "client_cpu_ms=%.1f\n",
        opt.rate, opt.conns, opt.seconds, (unsigned long long)due_total, (unsigned long long)measured,
        (double)measured / opt.seconds, (unsigned long long)non2xx, (unsigned long long)unsent, pct_us(lat, measured, 0.50),
        pct_us(lat, measured, 0.90), pct_us(lat, measured, 0.99), pct_us(lat, measured, 0.999),
        measured ? (double)lat[measured - 1] / 1000.0 : 0.0, server_ms, measured ? server_ms * 1000.0 / (double)measured : 0.0,
        (double)(client_after - client_before) / 1e6);
    return 0;
}
