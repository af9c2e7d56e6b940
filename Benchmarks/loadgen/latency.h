/* latency.h: what the WebSocket load generators share for their latencies (header-only, static), and on_alarm
 * (max_seconds.h).
 *
 *   LOADGEN_NAME  the program's name in error messages; define it before including this header.
 *   die(what)     prints "NAME: what: strerror(errno)" and exits 2.
 *   hist_add(ns)  records one latency: 1 µs buckets below 16,384 µs, then 64 µs buckets (about 12.8 s in all);
 *                 lat_max_ns keeps the largest.
 *   hist_pct(p)   the p-quantile (0 to 1) of what was recorded, in µs (0 when nothing was). */
#ifndef LOADGEN_LATENCY_H
#define LOADGEN_LATENCY_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "max_seconds.h"

#ifndef LOADGEN_NAME
#error "define LOADGEN_NAME before including latency.h"
#endif

#define HIST_LINEAR 16384
#define HIST_BUCKETS (HIST_LINEAR + 200000)
static uint32_t hist[HIST_BUCKETS];
static uint64_t lat_max_ns;

static void die(const char *what) {
    fprintf(stderr, LOADGEN_NAME ": %s: %s\n", what, strerror(errno));
    exit(2);
}

static void hist_add(uint64_t ns) {
    uint64_t us = ns / 1000;
    size_t b = us < HIST_LINEAR ? (size_t)us : HIST_LINEAR + (size_t)((us - HIST_LINEAR) / 64);
    if (b >= HIST_BUCKETS) b = HIST_BUCKETS - 1;
    hist[b]++;
    if (ns > lat_max_ns) lat_max_ns = ns;
}

static double hist_pct(double p) {
    uint64_t total = 0, acc = 0;
    for (size_t i = 0; i < HIST_BUCKETS; i++) total += hist[i];
    if (total == 0) return 0;
    uint64_t rank = (uint64_t)(p * (double)total);
    if (rank >= total) rank = total - 1;
    for (size_t i = 0; i < HIST_BUCKETS; i++) {
        acc += hist[i];
        if (acc > rank) return i < HIST_LINEAR ? (double)i : HIST_LINEAR + (double)(i - HIST_LINEAR) * 64;
    }
    return 0;
}

#endif
