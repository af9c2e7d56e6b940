/* wsframe.h: the minimal RFC 6455 framing wsfanout needs (section 5.2): masked client frames out, unmasked server
 * frames in. Payloads over 2^32 bytes and fragmented messages are not supported (the servers under test send
 * single-frame messages of about 100 bytes). */
#ifndef WSFRAME_H
#define WSFRAME_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { WS_OP_CONT = 0, WS_OP_TEXT = 1, WS_OP_BINARY = 2, WS_OP_CLOSE = 8, WS_OP_PING = 9, WS_OP_PONG = 10 };
enum { WS_MAX_HEADER = 14 };

struct ws_frame {
    int fin, opcode;
    const unsigned char *payload;
    size_t length;
};

/* Writes one FIN frame with the masking key `mask` (section 5.3) into out (room: WS_MAX_HEADER + n bytes);
 * returns the frame's size in bytes. */
static inline size_t ws_encode_client_frame(unsigned char *out, int opcode, const void *payload, size_t n,
                                            uint32_t mask) {
    size_t h = 0;
    out[h++] = (unsigned char)(0x80 | opcode);
    if (n < 126) {
        out[h++] = (unsigned char)(0x80 | n);
    } else if (n < 65536) {
        out[h++] = 0x80 | 126;
        out[h++] = (unsigned char)(n >> 8);
        out[h++] = (unsigned char)n;
    } else {
        out[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) out[h++] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    unsigned char key[4] = {(unsigned char)(mask >> 24), (unsigned char)(mask >> 16), (unsigned char)(mask >> 8),
                            (unsigned char)mask};
    memcpy(out + h, key, 4);
    h += 4;
    const unsigned char *p = payload;
    for (size_t i = 0; i < n; i++) out[h + i] = p[i] ^ key[i & 3];
    return h + n;
}

/* Parses one server frame from p[0..n). Returns its size in bytes, 0 if incomplete, -1 if the frame is masked
 * (a server must not mask, section 5.1) or too long. */
static inline long ws_parse_server_frame(const unsigned char *p, size_t n, struct ws_frame *f) {
    if (n < 2) return 0;
    if (p[1] & 0x80) return -1;
    size_t h = 2;
    uint64_t len = p[1] & 0x7f;
    if (len == 126) {
        if (n < 4) return 0;
        len = ((uint64_t)p[2] << 8) | p[3];
        h = 4;
    } else if (len == 127) {
        if (n < 10) return 0;
        len = 0;
        for (int i = 0; i < 8; i++) len = (len << 8) | p[2 + i];
        h = 10;
        if (len > (1u << 30)) return -1;
    }
    if (n - h < len) return 0;
    f->fin = (p[0] & 0x80) != 0;
    f->opcode = p[0] & 0x0f;
    f->payload = p + h;
    f->length = (size_t)len;
    return (long)(h + len);
}
#endif
