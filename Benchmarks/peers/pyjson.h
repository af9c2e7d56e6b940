/* pyjson.h: read JSON the way Python's json.loads does (ticker.py uses the stdlib), on top of yyjson, and take
 * Python's int() of a parsed value. Header-only; used by uws_native_peer.c.
 *
 * Where json.loads and a plain yyjson_read differ, and what is done about it:
 *  - bytes (POST bodies, binary frames): Python picks UTF-8, UTF-16 or UTF-32 from the first bytes
 *    (json.detect_encoding), drops a BOM and decodes with errors="surrogatepass". Done here into UTF-8; a surrogate
 *    (U+D800..U+DFFF, which yyjson rejects) becomes U+FFFF: neither can equal a key or value the peers compare,
 *    nor be part of an int(), and both are errors outside a string.
 *  - str (text frames): strict UTF-8, and a leading U+FEFF is an error.
 *  - NaN, Infinity and -Infinity are accepted in exactly these spellings (yyjson's ALLOW_INF_AND_NAN takes more),
 *    so every number is read raw and checked; an integer literal of more than 4300 digits raises ValueError
 *    (sys.get_int_max_str_digits()).
 *  - An unpaired \ud800..\udfff escape is fine for Python, an error for yyjson: on a failed read such escapes become
 *    \uffff (as above) and the text is read again.
 * Not bridged: nesting deeper than Python's recursion limit, where ticker.py dies with an uncaught RecursionError.
 */
#ifndef PYJSON_H
#define PYJSON_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yyjson.h>

#define PYJSON_MAX_DIGITS 4300                /* Python's default int_max_str_digits */
#define PYJSON_INT_CAP (PYJSON_MAX_DIGITS + 2) /* sign, digits, NUL */

/* Strict UTF-8 (Python's "utf-8" codec): 0 if valid, 1 if valid once U+D800..U+DFFF are let pass
 * ("surrogatepass"), -1 otherwise. */
static int pyjson_utf8_check(const unsigned char *s, size_t n) {
    int surrogates = 0;
    for (size_t i = 0; i < n;) {
        uint64_t word;
        if (n - i >= 8 && (memcpy(&word, s + i, 8), !(word & 0x8080808080808080ull))) { i += 8; continue; }
        unsigned c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t more;
        uint32_t cp, least;
        if (c >= 0xC2 && c <= 0xDF) more = 1, cp = c & 0x1F, least = 0x80;
        else if ((c & 0xF0) == 0xE0) more = 2, cp = c & 0x0F, least = 0x800;
        else if (c >= 0xF0 && c <= 0xF4) more = 3, cp = c & 0x07, least = 0x10000;
        else return -1;
        if (n - i <= more) return -1;
        for (size_t j = 1; j <= more; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return -1;
            cp = cp << 6 | (s[i + j] & 0x3F);
        }
        if (cp < least || cp > 0x10FFFF) return -1;
        if (cp >= 0xD800 && cp <= 0xDFFF) surrogates = 1;
        i += more + 1;
    }
    return surrogates;
}

static size_t pyjson_put_utf8(unsigned char *o, uint32_t cp) {
    if (cp < 0x80) { o[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { o[0] = (unsigned char)(0xC0 | cp >> 6); o[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* UTF-16 (width 2) or UTF-32 (width 4) with surrogatepass, into UTF-8 in *out (malloc'd). */
static bool pyjson_decode_wide(const unsigned char *b, size_t n, int width, bool big, unsigned char **out,
                               size_t *out_len) {
    if (n % (size_t)width) return false; /* "truncated data" */
    unsigned char *o = malloc(n / (size_t)width * 4 + 1);
    if (!o) return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i += (size_t)width) {
        uint32_t u = width == 2 ? (big ? (uint32_t)b[i] << 8 | b[i + 1] : (uint32_t)b[i + 1] << 8 | b[i])
                     : big ? (uint32_t)b[i] << 24 | (uint32_t)b[i + 1] << 16 | (uint32_t)b[i + 2] << 8 | b[i + 3]
                           : (uint32_t)b[i + 3] << 24 | (uint32_t)b[i + 2] << 16 | (uint32_t)b[i + 1] << 8 | b[i];
        if (u > 0x10FFFF) { free(o); return false; }
        if (width == 2 && u >= 0xD800 && u <= 0xDBFF && i + 3 < n) {
            uint32_t low = big ? (uint32_t)b[i + 2] << 8 | b[i + 3] : (uint32_t)b[i + 3] << 8 | b[i + 2];
            if (low >= 0xDC00 && low <= 0xDFFF) { u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00); i += 2; }
        }
        k += pyjson_put_utf8(o + k, u >= 0xD800 && u <= 0xDFFF ? 0xFFFF : u);
    }
    *out = o;
    *out_len = k;
    return true;
}

/* json.loads(bytes): json.detect_encoding, then decode. *text is b or *owned (to free). */
static bool pyjson_decode_bytes(const unsigned char *b, size_t n, const unsigned char **text, size_t *len,
                                unsigned char **owned) {
    int width = 1, skip = 0;
    bool big = false;
    if (n >= 4 && ((b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) ||
                   (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0)))
        width = 4, skip = 4, big = b[0] == 0;
    else if (n >= 2 && ((b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE)))
        width = 2, skip = 2, big = b[0] == 0xFE;
    else if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
        skip = 3;
    else if (n >= 4 && b[0] == 0)
        width = b[1] ? 2 : 4, big = true;
    else if (n >= 4 && b[1] == 0)
        width = b[2] || b[3] ? 2 : 4;
    else if (n == 2 && (b[0] == 0 || b[1] == 0))
        width = 2, big = b[0] == 0;
    b += skip, n -= (size_t)skip;
    if (width == 1) {
        *text = b, *len = n;
        int check = pyjson_utf8_check(b, n);
        if (check <= 0) return check == 0;
        if (!(*owned = malloc(n))) return false;
        memcpy(*owned, b, n);
        for (size_t i = 0; i + 2 < n; i++) { /* ED A0..BF xx: a surrogate; ED is never a continuation byte */
            if ((*owned)[i] != 0xED || (*owned)[i + 1] < 0xA0) continue;
            memcpy(*owned + i, "\xEF\xBF\xBF", 3);
            i += 2;
        }
        *text = *owned;
        return true;
    }
    if (!pyjson_decode_wide(b, n, width, big, owned, len)) return false;
    *text = *owned;
    return true;
}

static int pyjson_hex4(const char *s) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v << 4 | d;
    }
    return v;
}

/* Rewrites every unpaired surrogate escape in s to \uffff; true if there was one. */
static bool pyjson_fix_surrogates(char *s, size_t n) {
    bool fixed = false;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != '\\') continue;
        int u = s[i + 1] == 'u' && i + 6 <= n ? pyjson_hex4(s + i + 2) : -1;
        if (u < 0xD800 || u > 0xDFFF) { i += u < 0 ? 1 : 5; continue; }
        if (u <= 0xDBFF && i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u') {
            int low = pyjson_hex4(s + i + 8);
            if (low >= 0xDC00 && low <= 0xDFFF) { i += 11; continue; }
        }
        memcpy(s + i + 2, "ffff", 4);
        fixed = true;
        i += 5;
    }
    return fixed;
}

static bool pyjson_is_digit(char c) { return c >= '0' && c <= '9'; }

/* Every number of the document is one json.loads accepts. */
static bool pyjson_numbers_ok(yyjson_doc *doc) {
    yyjson_val *v = yyjson_doc_get_root(doc); /* an immutable document's values are one array */
    for (size_t i = 0, n = yyjson_doc_get_val_count(doc); i < n; i++, v++) {
        if (!yyjson_is_raw(v)) continue;
        const char *r = yyjson_get_raw(v);
        size_t len = yyjson_get_len(v);
        bool negative = r[0] == '-';
        if (!pyjson_is_digit(r[negative])) {
            if (strcmp(r, "NaN") && strcmp(r, "Infinity") && strcmp(r, "-Infinity")) return false;
        } else if (!strpbrk(r, ".eE") && len - negative > PYJSON_MAX_DIGITS) {
            return false;
        }
    }
    return true;
}

static const yyjson_read_flag PYJSON_FLAGS = YYJSON_READ_NUMBER_AS_RAW | YYJSON_READ_ALLOW_INF_AND_NAN;

/* json.loads of a str (is_bytes false: the UTF-8 of a text frame) or of bytes; NULL where Python raises. */
static yyjson_doc *pyjson_loads(const char *data, size_t n, bool is_bytes) {
    const unsigned char *text = (const unsigned char *)data;
    unsigned char *owned = NULL;
    size_t len = n;
    if (is_bytes) {
        if (!pyjson_decode_bytes(text, n, &text, &len, &owned)) { free(owned); return NULL; }
    } else if (pyjson_utf8_check(text, n) != 0 || (n >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))) {
        return NULL;
    }
    yyjson_doc *doc = yyjson_read_opts((char *)text, len, PYJSON_FLAGS, NULL, NULL);
    if (!doc && memchr(text, '\\', len)) {
        char *copy = malloc(len ? len : 1);
        if (copy) {
            memcpy(copy, text, len);
            if (pyjson_fix_surrogates(copy, len)) doc = yyjson_read_opts(copy, len, PYJSON_FLAGS, NULL, NULL);
            free(copy);
        }
    }
    free(owned);
    if (doc && !pyjson_numbers_ok(doc)) { yyjson_doc_free(doc); doc = NULL; }
    return doc;
}

/* obj[key] as a Python dict built from the object has it (the last of repeated keys); NULL if absent or obj is
 * not an object. */
static yyjson_val *pyjson_get(yyjson_val *obj, const char *key) {
    yyjson_val *found = NULL, *k;
    size_t len = strlen(key);
    yyjson_obj_iter it;
    if (!yyjson_obj_iter_init(obj, &it)) return NULL;
    while ((k = yyjson_obj_iter_next(&it)))
        if (yyjson_equals_strn(k, key, len)) found = yyjson_obj_iter_get_val(k);
    return found;
}

/* Unicode 14.0 (Python 3.11) decimal digit zeros above U+007F: each starts a run of ten. */
static const uint32_t pyjson_zeros[] = {
    0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50,
    0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50,
    0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136,
    0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0,
    0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0};

/* The next character of a str as int() sees it: non-ASCII white space becomes ' ', a decimal digit its ASCII
 * digit, anything else non-ASCII '?'; -1 at the end. s holds valid UTF-8. */
static int pyjson_int_char(const unsigned char **s, const unsigned char *end) {
    if (*s == end) return -1;
    unsigned c = *(*s)++;
    if (c < 0x80) return (int)c;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    uint32_t cp = c & (0x3Fu >> more);
    while (more-- && *s < end) cp = cp << 6 | (*(*s)++ & 0x3F);
    if (cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
        cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000)
        return ' ';
    for (size_t i = 0; i < sizeof pyjson_zeros / sizeof *pyjson_zeros; i++)
        if (cp >= pyjson_zeros[i] && cp < pyjson_zeros[i] + 10) return '0' + (int)(cp - pyjson_zeros[i]);
    return '?';
}

static bool pyjson_is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* int(s) for a str s: white space, a sign, digits with single '_' between them, white space. */
static bool pyjson_int_of_str(const char *str, size_t n, char out[PYJSON_INT_CAP]) {
    const unsigned char *s = (const unsigned char *)str, *end = s + n;
    int c = pyjson_int_char(&s, end);
    while (pyjson_is_space(c)) c = pyjson_int_char(&s, end);
    bool negative = c == '-';
    if (c == '-' || c == '+') c = pyjson_int_char(&s, end);
    size_t digits = 0, k = 1;
    while (pyjson_is_digit((char)c)) {
        if (++digits > PYJSON_MAX_DIGITS) return false;
        if (c != '0' || k > 1) out[k++] = (char)c;
        c = pyjson_int_char(&s, end);
        if (c == '_') {
            c = pyjson_int_char(&s, end);
            if (!pyjson_is_digit((char)c)) return false;
        }
    }
    if (!digits) return false;
    while (pyjson_is_space(c)) c = pyjson_int_char(&s, end);
    if (c != -1) return false;
    if (k == 1) out[k++] = '0', negative = false;
    out[k] = 0;
    if (negative) out[0] = '-';
    else memmove(out, out + 1, k);
    return true;
}

/* int(v) in decimal into out, as ticker.py's int(payload[...]); false where Python raises. */
static bool pyjson_int(yyjson_val *v, char out[PYJSON_INT_CAP]) {
    if (yyjson_is_bool(v)) {
        strcpy(out, yyjson_get_bool(v) ? "1" : "0");
        return true;
    }
    if (yyjson_is_str(v)) return pyjson_int_of_str(yyjson_get_str(v), yyjson_get_len(v), out);
    if (!yyjson_is_raw(v)) return false;
    const char *r = yyjson_get_raw(v);
    if (!pyjson_is_digit(r[r[0] == '-'])) return false; /* NaN: ValueError; Infinity: OverflowError */
    if (!strpbrk(r, ".eE")) {                           /* an int literal, at most 4300 digits (numbers_ok) */
        strcpy(out, strcmp(r, "-0") ? r : "0");
        return true;
    }
    double d = trunc(strtod(r, NULL));
    if (isinf(d)) return false;
    if (d == 0) d = 0; /* no -0 */
    snprintf(out, PYJSON_INT_CAP, "%.0f", d);
    return true;
}

#endif
