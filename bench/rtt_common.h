/*
 * rtt_common.h — what bench/rtt_client.c and bench/echo_rtt.c share: the
 * clock, the timed loop of round trips and the one result line
 * bench/client_paths.sh parses,
 *   round_trips=N seconds=S avg_us=A p50_us=M p99_us=P
 * Header-only: the bench scripts build each client from its one .c file.
 */
#ifndef BENCH_RTT_COMMON_H
#define BENCH_RTT_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RTT_MAX_SAMPLES = 4 * 1000 * 1000 };

static inline uint64_t rtt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int rtt_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sort lat[0..n) (n > 0, microseconds per round trip) and print the line
 * for the n round trips between t0 and t (CLOCK_MONOTONIC ns). */
static inline void rtt_print(uint32_t *lat, size_t n, uint64_t t0, uint64_t t)
{
    double el = (double)(t - t0) / 1e9;
    qsort(lat, n, sizeof *lat, rtt_cmp_u32);
    printf("round_trips=%zu seconds=%.3f avg_us=%.1f p50_us=%u p99_us=%u\n", n, el,
           el * 1e6 / (double)n, lat[n / 2], lat[(size_t)((double)n * 0.99)]);
}

/* Round trips, each one call of once(ctx, i) (i from 1; 0, or -1 after
 * saying why on stderr), for `seconds` or RTT_MAX_SAMPLES of them, then
 * the line. 0, or 1 when once failed, none ran (said as `prog: ...`) or
 * memory ran out. */
static inline int rtt_measure(const char *prog, double seconds, int (*once)(void *ctx, size_t i),
                              void *ctx)
{
    uint32_t *lat = malloc(sizeof *lat * RTT_MAX_SAMPLES);
    uint64_t t0 = rtt_now_ns(), end = t0 + (uint64_t)(seconds * 1e9), t = t0;
    size_t n = 0;
    int rc = 1;
    if (!lat) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    while (t < end && n < RTT_MAX_SAMPLES) {
        if (once(ctx, n + 1) < 0)
            goto cleanup;
        uint64_t t1 = rtt_now_ns();
        lat[n++] = (uint32_t)((t1 - t) / 1000u);
        t = t1;
    }
    if (n == 0) {
        fprintf(stderr, "%s: no round trip in %.1f s\n", prog, seconds);
        goto cleanup;
    }
    rtt_print(lat, n, t0, t);
    rc = 0;
cleanup:
    free(lat);
    return rc;
}

#endif
