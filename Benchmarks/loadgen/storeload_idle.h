/* storeload_idle.h: "storeload idle" (included once by storeload.c): N idle WebSocket subscribers over S stores,
 * then broadcast rounds (one POST to every store, pipelined on one connection). */

static struct conn *subs, http_conn;
static int opened, ready, got, round_no;
static uint64_t *arrivals, last_response;

static void queue_handshake(struct conn *c) {
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET /stores/%s%d/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     opt.prefix, c->index % opt.stores);
    queue_out(c, req, (size_t)n);
}

static void open_more(void) {
    int sources = opt.count > 20000 ? 1 + opt.count / 20000 : 0;
    while (opened < opt.count && opened - ready < MAX_OPEN_HANDSHAKES) {
        struct conn *c = &subs[opened];
        c->index = opened++;
        open_conn(c, sources ? 2 + c->index % sources : 0);
    }
}

/* Handles the frames buffered on subscriber c: the first data message is the snapshot, later ones count for the
 * round in progress. Pings are answered. */
static void on_frames(struct conn *c) {
    struct ws_frame f;
    long used;
    while ((used = ws_parse_server_frame(c->in, c->in_len, &f)) > 0) {
        if (f.opcode == WS_OP_PING) {
            unsigned char pong[WS_MAX_HEADER + 125];
            if (f.length <= 125) {
                size_t n = ws_encode_client_frame(pong, WS_OP_PONG, f.payload, f.length, 0x1234abcdu);
                queue_out(c, (const char *)pong, n);
                flush_out(c);
            }
        } else if (f.opcode == WS_OP_CLOSE) {
            fail("a subscriber received a close frame");
        } else if (c->state == ST_SNAPSHOT) {
            c->state = ST_READY;
            ready++;
        } else if (++c->received == (uint64_t)round_no) {
            arrivals[got++] = now_ns();
        }
        consume(c, (size_t)used);
    }
    if (used < 0) fail("bad frame from the server");
}

static void on_head(struct conn *c) {
    unsigned char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) return;
    if (c->in_len < 12 || memcmp(c->in, "HTTP/1.1 101", 12) != 0) fail("the upgrade was refused");
    consume(c, (size_t)(end - c->in) + 4);
    c->state = ST_SNAPSHOT;
}

static void on_event(struct epoll_event *ev) {
    struct conn *c = ev->data.ptr;
    if (ev->events & (EPOLLERR | EPOLLHUP)) fail("connection error");
    if (c->state == ST_CONNECTING && (ev->events & EPOLLOUT)) {
        c->state = c == &http_conn ? ST_READY : ST_HEAD;
        if (c != &http_conn) queue_handshake(c);
    }
    if (ev->events & EPOLLOUT) flush_out(c);
    if (!(ev->events & EPOLLIN)) return;
    if (!fill_in(c)) fail("the server closed a connection");
    if (c == &http_conn) {
        int status;
        while ((status = take_response(c, NULL)) != 0) {
            if (status != 200) fail("a broadcast POST was not answered 200");
            c->pending--;
            last_response = now_ns();
        }
        return;
    }
    if (c->state == ST_HEAD) on_head(c);
    if (c->state == ST_SNAPSHOT || c->state == ST_READY) on_frames(c);
}

static void pump(int timeout_ms) {
    struct epoll_event evs[512];
    int n = epoll_wait(epfd, evs, 512, timeout_ms);
    if (n < 0 && errno != EINTR) fail("epoll_wait");
    for (int e = 0; e < n; e++) on_event(&evs[e]);
}

/* One broadcast round; sets the three durations in ns. */
static void broadcast(uint64_t *all, uint64_t *p50, uint64_t *posts) {
    static const char body[] = "{\"type\":\"increment\"}";
    char req[512];
    round_no++;
    got = 0;
    for (int j = 0; j < opt.stores; j++) {
        int n = snprintf(req, sizeof req,
                         "POST /stores/%s%d/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         "Content-Length: %zu\r\n\r\n%s",
                         opt.prefix, j, sizeof body - 1, body);
        queue_out(&http_conn, req, (size_t)n);
        http_conn.pending++;
    }
    uint64_t t0 = now_ns(), deadline = t0 + 60000000000ull;
    flush_out(&http_conn);
    while (got < opt.count || http_conn.pending > 0) {
        if (now_ns() > deadline) fail("a broadcast round took over 60 s");
        pump(1000);
    }
    qsort(arrivals, (size_t)opt.count, sizeof *arrivals, cmp_u64);
    *all = arrivals[opt.count - 1] - t0;
    *p50 = arrivals[opt.count / 2] - t0;
    *posts = last_response - t0;
}

static int run_idle(void) {
    opt.count = opt.conns; /* in idle mode --conns is the number of subscribers */
    if (opt.count < opt.stores) fail("--conns must be at least --stores (every store needs a subscriber)");
    subs = calloc((size_t)opt.count, sizeof *subs);
    arrivals = calloc((size_t)opt.count, sizeof *arrivals);
    if (!subs || !arrivals) fail("calloc");
    uint64_t t0 = now_ns();
    open_more();
    while (ready < opt.count) {
        pump(1000);
        open_more();
    }
    http_conn.index = -1;
    open_conn(&http_conn, 0);
    while (http_conn.state != ST_READY) pump(1000);
    printf("CONNECTIONS_READY n=%d seconds=%.2f\n", ready, (double)(now_ns() - t0) / 1e9);
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof line, stdin)) return 0; /* stdin closed: no broadcast wanted */
    uint64_t all[MAX_ROUNDS], p50[MAX_ROUNDS], posts[MAX_ROUNDS];
    for (int r = 0; r < opt.rounds; r++) {
        broadcast(&all[r], &p50[r], &posts[r]);
        printf("ROUND all_ms=%.2f p50_ms=%.2f posts_ms=%.2f\n", ms(all[r]), ms(p50[r]), ms(posts[r]));
    }
    printf("RESULT all_ms=%.2f p50_ms=%.2f posts_ms=%.2f\n", median_ms(all, opt.rounds), median_ms(p50, opt.rounds),
           median_ms(posts, opt.rounds));
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {} /* hold the connections until stdin closes */
    return 0;
}
