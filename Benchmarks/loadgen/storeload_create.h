/* storeload_create.h: "storeload create" (included once by storeload.c): N PUTs pipelined over --conns
 * connections, at most --depth in flight on each. */

static int next_store, answered, create_errors;

static void queue_put(struct conn *c) {
    static const char body[] = "{\"reducer\":\"Counter\"}";
    char req[512];
    int n = snprintf(req, sizeof req,
                     "PUT /stores/%s%d HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     opt.prefix, next_store++, sizeof body - 1, body);
    queue_out(c, req, (size_t)n);
    c->pending++;
}

static void top_up(struct conn *c) {
    while (c->pending < opt.depth && next_store < opt.count) queue_put(c);
    if (c->out_len) flush_out(c);
}

static int run_create(void) {
    int nconns = opt.conns;
    struct conn *conns = calloc((size_t)nconns, sizeof *conns);
    if (!conns) fail("calloc");
    uint64_t t0 = now_ns();
    for (int i = 0; i < nconns; i++) {
        open_conn(&conns[i], 0);
        top_up(&conns[i]);
    }
    struct epoll_event evs[256];
    while (answered < opt.count) {
        int n = epoll_wait(epfd, evs, 256, 1000);
        if (n < 0 && errno != EINTR) fail("epoll_wait");
        for (int e = 0; e < n; e++) {
            struct conn *c = evs[e].data.ptr;
            if (evs[e].events & (EPOLLERR | EPOLLHUP)) fail("connection error");
            if (evs[e].events & EPOLLOUT) {
                c->state = ST_READY;
                flush_out(c);
            }
            if (!(evs[e].events & EPOLLIN)) continue;
            int open = fill_in(c), status;
            while ((status = take_response(c, NULL)) != 0) {
                if (status != 200 && status != 201) create_errors++;
                c->pending--;
                answered++;
            }
            if (!open) fail("server closed a connection");
            top_up(c);
        }
    }
    double seconds = (double)(now_ns() - t0) / 1e9;
    printf("RESULT created=%d seconds=%.2f per_s=%.0f errors=%d\n", answered, seconds, answered / seconds,
           create_errors);
    return create_errors ? 1 : 0;
}
