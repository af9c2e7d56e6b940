/* wsclient.h: what the WebSocket load generators (wsfanout, fairness) share besides the framing in wsframe.h: the
 * clock, a growing buffer, an integer field found in a JSON message, and the opening handshake request (RFC 6455
 * section 4.1, a fixed key: the servers under test do not care). */
#ifndef WSCLIENT_H
#define WSCLIENT_H
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Grows *buf (capacity *cap) to hold at least need bytes, doubling; exits when out of memory. */
static inline void grow(unsigned char **buf, size_t *cap, size_t need) {
    if (need <= *cap) return;
    size_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    *buf = realloc(*buf, c);
    if (!*buf) { perror("realloc"); exit(2); }
    *cap = c;
}

/* Finds "key": followed by an integer in p[0..n); returns 1 and sets *out when found. */
static inline int find_int(const unsigned char *p, size_t n, const char *key, int64_t *out) {
    size_t kl = strlen(key);
    const unsigned char *k = memmem(p, n, key, kl);
    if (!k) return 0;
    const unsigned char *q = k + kl, *end = p + n;
    int64_t v = 0;
    int digits = 0;
    while (q < end && *q >= '0' && *q <= '9') v = v * 10 + (*q++ - '0'), digits++;
    if (!digits) return 0;
    *out = v;
    return 1;
}

/* Writes the upgrade request for path on host:port into out (room: cap bytes); returns its length. */
static inline int ws_upgrade_request(char *out, size_t cap, const char *path, const char *host, int port) {
    return snprintf(out, cap,
                    "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                    path, host, port);
}
/* Keeps data[0..n) (an incomplete frame or handshake) in *carry for the next read. */
static inline void keep_carry(unsigned char **carry, size_t *len, size_t *cap, const unsigned char *data, size_t n) {
    grow(carry, cap, n);
    memmove(*carry, data, n);
    *len = n;
}

/* The opening handshake's response in buf[0..len): the length of its head when it is a complete 101, 0 when the head
 * is not complete yet, -1 when the server refused the upgrade. */
static inline long ws_handshake_head(const unsigned char *buf, size_t len) {
    const unsigned char *end = memmem(buf, len, "\r\n\r\n", 4);
    if (!end) return 0;
    if (len < 12 || memcmp(buf + 9, "101", 3) != 0) return -1;
    return (long)(end + 4 - buf);
}
#endif
