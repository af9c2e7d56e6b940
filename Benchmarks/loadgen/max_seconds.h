/* max_seconds.h: the --max-seconds hard stop every C load generator has (header-only).
 *
 *   signal(SIGALRM, on_alarm); alarm(seconds);
 *
 * on_alarm prints "RESULT error=max_seconds_exceeded" and exits 3 (4 if even that write fails). */
#ifndef LOADGEN_MAX_SECONDS_H
#define LOADGEN_MAX_SECONDS_H
#include <unistd.h>

static inline void on_alarm(int sig) {
    (void)sig;
    static const char m[] = "RESULT error=max_seconds_exceeded\n";
    if (write(1, m, sizeof m - 1) < 0) _exit(4);
    _exit(3);
}
#endif
