/* fsyncrate: this machine's rate of one-at-a-time durable appends (the physical limit of commit-per-request).
 *
 *   fsyncrate --file PATH [--seconds 3] [--bytes 100]
 *     Creates PATH (O_CREAT|O_TRUNC), then for --seconds: write(--bytes bytes) at the end, fdatasync; one after the
 *     other. The file is removed at the end. Prints
 *     "RESULT per_s=R p50_us=A p99_us=B n=N" (per_s: appends per second; p50/p99: one write + fdatasync, in µs).
 *
 * Any error prints "RESULT error=..." and exits non-zero. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_SAMPLES = 1 << 22, MAX_BYTES = 65536 };

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    double seconds = 3;
    long bytes = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--file")) path = argv[i + 1];
        else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--bytes")) bytes = atol(argv[i + 1]);
        else { printf("RESULT error=unknown_option_%s\n", argv[i]); return 2; }
    }
    if (!path || seconds <= 0 || seconds > 60 || bytes < 1 || bytes > MAX_BYTES) {
        printf("RESULT error=usage (--file PATH [--seconds 0<S<=60] [--bytes 1..65536])\n");
        return 2;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    if (fd < 0) { printf("RESULT error=open_%s\n", strerror(errno)); return 1; }
    int64_t *samples = malloc(sizeof *samples * MAX_SAMPLES);
    char buffer[MAX_BYTES];
    memset(buffer, 'x', (size_t)bytes);
    buffer[bytes - 1] = '\n';
    long n = 0;
    int64_t start = now_ns(), end = start + (int64_t)(seconds * 1e9), t = start;
    while (t < end && n < MAX_SAMPLES) {
        if (write(fd, buffer, (size_t)bytes) != bytes) { printf("RESULT error=write_%s\n", strerror(errno)); return 1; }
        if (fdatasync(fd) != 0) { printf("RESULT error=fdatasync_%s\n", strerror(errno)); return 1; }
        int64_t after = now_ns();
        samples[n++] = after - t;
        t = after;
    }
    close(fd);
    unlink(path);
    qsort(samples, (size_t)n, sizeof *samples, compare);
    printf("RESULT per_s=%.0f p50_us=%.0f p99_us=%.0f n=%ld\n", n / ((t - start) / 1e9), samples[n / 2] / 1e3,
           samples[(n * 99) / 100] / 1e3, n);
    free(samples);
    return 0;
}
