/* uws_native_peer: uWebSockets through its C API, no Python: the semantics of ticker.py + socketify_peer.py.
 *
 *   POST /stores/counter/actions {"type":"increment"} -> {"store":"counter","version":V,"state":{"count":C}};
 *     anything else -> 400 with ticker.py's error body. The body may come in several chunks.
 *   WebSocket /stores/ticker/ws: a snapshot on open, then subscribed to "ticker"; a publish action
 *     {"type":"action","action":{"type":"publish","payload":{"seq":S,"t":T}}} sets the state, which uWS publishes to
 *     every subscriber (the sender included), then the sender gets {"type":"ack","version":V}. Anything else: no
 *     answer. JSON is read with yyjson the way Python's json.loads reads it (pyjson.h), once per action.
 *
 * Usage: uws_native_peer PORT (127.0.0.1). One thread. SIGTERM or SIGINT: closes the listening socket, stops the
 * loop, exits 0. Links the uWS + uSockets build inside PyPI socketify (libsocketify_linux_amd64.so), which ships
 * no header: the few functions used are declared below, as socketify's native.py declares them.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyjson.h"

/* ---- the part of the uWS / uSockets / socketify C API used here ---- */
typedef struct uws_app_s uws_app_t;
typedef struct uws_req_s uws_req_t;
typedef struct uws_res_s uws_res_t;
typedef struct uws_websocket_s uws_websocket_t;
typedef struct uws_socket_context_s uws_socket_context_t;
struct us_loop_t;
struct us_listen_socket_t;
typedef struct socketify_loop_s socketify_loop; /* opaque here */
typedef struct socketify_timer_s socketify_timer;

enum { OPCODE_TEXT = 1, OPCODE_BINARY = 2 };
typedef int uws_opcode_t;

struct us_socket_context_options_t { /* TLS settings: all empty for plain TCP */
    const char *key_file_name, *cert_file_name, *passphrase, *dh_params_file_name, *ca_file_name, *ssl_ciphers;
    int ssl_prefer_low_memory_usage;
};

typedef struct {
    int port;
    const char *host;
    int options;
} uws_app_listen_config_t;

typedef struct {
    int compression; /* uws_compress_options_t; 0 = off */
    unsigned int maxPayloadLength;
    unsigned short idleTimeout;
    unsigned int maxBackpressure;
    bool closeOnBackpressureLimit, resetIdleTimeoutOnSend, sendPingsAutomatically;
    unsigned short maxLifetime;
    void (*upgrade)(uws_res_t *, uws_req_t *, uws_socket_context_t *, void *);
    void (*open)(uws_websocket_t *, void *);
    void (*message)(uws_websocket_t *, const char *, size_t, uws_opcode_t, void *);
    void (*drain)(uws_websocket_t *, void *);
    void (*ping)(uws_websocket_t *, const char *, size_t, void *);
    void (*pong)(uws_websocket_t *, const char *, size_t, void *);
    void (*close)(uws_websocket_t *, int, const char *, size_t, void *);
    void (*subscription)(uws_websocket_t *, const char *, size_t, int, int, void *);
} uws_socket_behavior_t;

socketify_loop *socketify_create_loop(void);
void *socketify_get_native_loop(socketify_loop *loop);
void socketify_loop_stop(socketify_loop *loop);
socketify_timer *socketify_create_check(socketify_loop *loop, void (*handler)(void *), void *user_data);
struct us_loop_t *uws_get_loop_with_native(void *native_loop);
void us_wakeup_loop(struct us_loop_t *loop);
void us_listen_socket_close(int ssl, struct us_listen_socket_t *ls);

uws_app_t *uws_create_app(int ssl, struct us_socket_context_options_t options);
bool uws_constructor_failed(int ssl, uws_app_t *app);
void uws_app_post(int ssl, uws_app_t *app, const char *pattern,
                  void (*handler)(uws_res_t *, uws_req_t *, void *), void *user_data);
void uws_ws(int ssl, uws_app_t *app, const char *pattern, uws_socket_behavior_t behavior, void *user_data);
void uws_app_listen_with_config(int ssl, uws_app_t *app, uws_app_listen_config_t config,
                                void (*handler)(struct us_listen_socket_t *, uws_app_listen_config_t, void *),
                                void *user_data);
void uws_app_run(int ssl, uws_app_t *app);
bool uws_publish(int ssl, uws_app_t *app, const char *topic, size_t topic_length, const char *message,
                 size_t message_length, uws_opcode_t opcode, bool compress);

void uws_res_on_data(int ssl, uws_res_t *res, void (*handler)(uws_res_t *, const char *, size_t, bool, void *),
                     void *user_data);
void uws_res_on_aborted(int ssl, uws_res_t *res, void (*handler)(uws_res_t *, void *), void *user_data);
bool socketify_res_write_int_status(int ssl, uws_res_t *res, int code);
void uws_res_write_header(int ssl, uws_res_t *res, const char *key, size_t key_length, const char *value,
                          size_t value_length);
void uws_res_end(int ssl, uws_res_t *res, const char *data, size_t length, bool close_connection);

int uws_ws_send_with_options(int ssl, uws_websocket_t *ws, const char *message, size_t length, uws_opcode_t opcode,
                             bool compress, bool fin);
bool uws_ws_subscribe(int ssl, uws_websocket_t *ws, const char *topic, size_t length);
/* ---- end of the C API ---- */

static uws_app_t *app;
static socketify_loop *loop;
static struct us_loop_t *us_loop;
static struct us_listen_socket_t *listener;
static volatile sig_atomic_t stop_requested;

/* ---- ticker.py's Ticker: versions, seq and t as Python ints (decimal text) ---- */
#define EPOCH "5f3c9a1be07d4c28"
#define PAD "0123456789abcdef"
static unsigned long long ticker_version;
static char ticker_seq[PYJSON_INT_CAP] = "0", ticker_t[PYJSON_INT_CAP] = "0";
static char state_message[2 * PYJSON_INT_CAP + 160];

static size_t ticker_message(void) {
    return (size_t)snprintf(state_message, sizeof state_message,
                            "{\"type\":\"state\",\"store\":\"ticker\",\"epoch\":\"" EPOCH "\",\"version\":%llu,"
                            "\"state\":{\"pad\":\"" PAD "\",\"seq\":%s,\"t\":%s}}",
                            ticker_version, ticker_seq, ticker_t);
}

/* Ticker.apply: true (state set, version bumped) for a publish action; false where ticker.py returns None. */
static bool ticker_apply(const char *data, size_t len, bool is_bytes) {
    static char seq[PYJSON_INT_CAP], t[PYJSON_INT_CAP];
    yyjson_doc *doc = pyjson_loads(data, len, is_bytes);
    if (!doc) return false;
    yyjson_val *msg = yyjson_doc_get_root(doc), *action = pyjson_get(msg, "action"), *payload, *vs, *vt;
    bool ok = action && yyjson_equals_str(pyjson_get(msg, "type"), "action") && yyjson_is_obj(action) &&
              yyjson_equals_str(pyjson_get(action, "type"), "publish") &&
              (payload = pyjson_get(action, "payload")) && (vs = pyjson_get(payload, "seq")) &&
              (vt = pyjson_get(payload, "t")) && pyjson_int(vs, seq) && pyjson_int(vt, t);
    yyjson_doc_free(doc);
    if (!ok) return false;
    ticker_version++;
    strcpy(ticker_seq, seq);
    strcpy(ticker_t, t);
    return true;
}

/* ---- ticker.py's Counter ---- */
static unsigned long long counter_count;
static const char counter_error[] =
    "{\"error\":{\"code\":\"invalid_action\",\"message\":\"expected {\\\"type\\\":\\\"increment\\\"}\"}}";

static int counter_post(const char *body, size_t len, char *out, size_t cap, size_t *out_len) {
    yyjson_doc *doc = pyjson_loads(body, len, true);
    bool ok = doc && yyjson_equals_str(pyjson_get(yyjson_doc_get_root(doc), "type"), "increment");
    yyjson_doc_free(doc);
    if (!ok) {
        memcpy(out, counter_error, sizeof counter_error - 1);
        *out_len = sizeof counter_error - 1;
        return 400;
    }
    counter_count++;
    *out_len = (size_t)snprintf(out, cap, "{\"store\":\"counter\",\"version\":%llu,\"state\":{\"count\":%llu}}",
                                counter_count, counter_count);
    return 200;
}

/* ---- HTTP: POST /stores/counter/actions ---- */
struct body {
    char *data;
    size_t len, cap;
};

static void post_respond(uws_res_t *res, const char *body, size_t len) {
    char out[160];
    size_t out_len;
    int status = counter_post(body, len, out, sizeof out, &out_len);
    socketify_res_write_int_status(0, res, status);
    uws_res_write_header(0, res, "Content-Type", 12, "application/json", 16);
    uws_res_end(0, res, out, out_len, false);
}

static void post_aborted(uws_res_t *res, void *user_data) {
    (void)res;
    struct body *b = user_data;
    free(b->data);
    free(b);
}

static void post_data(uws_res_t *res, const char *chunk, size_t len, bool last, void *user_data) {
    struct body *b = user_data;
    if (!chunk) len = 0;
    if (last && b->len == 0) { /* the usual case: the whole body in one chunk, no copy */
        post_respond(res, chunk ? chunk : "", len);
        free(b);
        return;
    }
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len) cap *= 2;
        if (!(b->data = realloc(b->data, cap))) { perror("uws_native_peer: realloc"); exit(1); }
        b->cap = cap;
    }
    if (len) memcpy(b->data + b->len, chunk, len);
    b->len += len;
    if (!last) return;
    post_respond(res, b->data, b->len);
    free(b->data);
    free(b);
}

static void post_action(uws_res_t *res, uws_req_t *req, void *user_data) {
    (void)req, (void)user_data;
    struct body *b = calloc(1, sizeof *b);
    if (!b) { perror("uws_native_peer: calloc"); exit(1); }
    uws_res_on_aborted(0, res, post_aborted, b);
    uws_res_on_data(0, res, post_data, b);
}

/* ---- WebSocket /stores/ticker/ws ---- */
static void ws_open(uws_websocket_t *ws, void *user_data) {
    (void)user_data;
    uws_ws_send_with_options(0, ws, state_message, ticker_message(), OPCODE_TEXT, false, true);
    uws_ws_subscribe(0, ws, "ticker", 6);
}

static void ws_message(uws_websocket_t *ws, const char *data, size_t len, uws_opcode_t opcode, void *user_data) {
    (void)user_data;
    if (opcode != OPCODE_TEXT && opcode != OPCODE_BINARY) return;
    if (!ticker_apply(data ? data : "", data ? len : 0, opcode == OPCODE_BINARY)) return;
    uws_publish(0, app, "ticker", 6, state_message, ticker_message(), OPCODE_TEXT, false);
    char ack[64];
    int n = snprintf(ack, sizeof ack, "{\"type\":\"ack\",\"version\":%llu}", ticker_version);
    uws_ws_send_with_options(0, ws, ack, (size_t)n, OPCODE_TEXT, false, true);
}

/* ---- start and stop ---- */
static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
    us_wakeup_loop(us_loop); /* uv_async_send: async-signal-safe; the loop then runs on_check */
}

static void on_check(void *user_data) { /* after every poll of the loop */
    (void)user_data;
    if (!stop_requested) return;
    if (listener) us_listen_socket_close(0, listener);
    listener = NULL;
    socketify_loop_stop(loop);
}

static void on_listen(struct us_listen_socket_t *ls, uws_app_listen_config_t config, void *user_data) {
    (void)user_data;
    if (!ls) {
        fprintf(stderr, "uws_native_peer: cannot listen on 127.0.0.1:%d\n", config.port);
        exit(1);
    }
    listener = ls;
    printf("uws-native listening on %d\n", config.port);
    fflush(stdout);
}

int main(int argc, char **argv) {
    char *end;
    long port = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || port < 1 || port > 65535) {
        fprintf(stderr, "usage: uws_native_peer PORT\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    loop = socketify_create_loop();
    if (!loop) { fprintf(stderr, "uws_native_peer: no event loop\n"); return 1; }
    us_loop = uws_get_loop_with_native(socketify_get_native_loop(loop)); /* before uws_create_app */
    struct us_socket_context_options_t tls = {0};
    app = uws_create_app(0, tls);
    if (!app || uws_constructor_failed(0, app)) { fprintf(stderr, "uws_native_peer: no app\n"); return 1; }
    uws_app_post(0, app, "/stores/counter/actions", post_action, NULL);
    uws_socket_behavior_t ws = {
        .compression = 0,
        .maxPayloadLength = 1 << 20,
        .idleTimeout = 120,
        .maxBackpressure = 1 << 20,
        .open = ws_open,
        .message = ws_message,
    };
    uws_ws(0, app, "/stores/ticker/ws", ws, NULL);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    socketify_create_check(loop, on_check, NULL);
    uws_app_listen_with_config(0, app, (uws_app_listen_config_t){(int)port, "127.0.0.1", 0}, on_listen, NULL);
    uws_app_run(0, app);
    return 0;
}
