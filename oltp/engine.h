/*
 * engine.h — runs a workload: worker threads, each with a libuv loop that
 * drives its share of the connections without blocking; warm-up then
 * measured phase; interval samples; open-loop --rate schedule.
 */
#ifndef OLTP_ENGINE_H
#define OLTP_ENGINE_H

#include <stdint.h>

#include "hist.h"
#include "workload.h"

/* Counters and latency of a span of time (an interval or a phase). */
typedef struct stats {
    int64_t trx, reads, writes, others, errors, reconnects, rollbacks;
    hist   *lat;                        /* µs from intended start to commit */
    hist   *queue;                      /* µs from intended to actual start */
    int     ntypes;
    int64_t type_trx[WL_MAX_TYPES], type_rollbacks[WL_MAX_TYPES], type_retries[WL_MAX_TYPES];
    hist   *type_lat[WL_MAX_TYPES];     /* only when ntypes > 1 */
} stats;

int  stats_init(stats *s, int ntypes);
void stats_free(stats *s);               /* accepts a zeroed struct */
void stats_reset(stats *s);
void stats_add(stats *dst, const stats *src);

typedef struct interval_sample {
    double  t;                          /* seconds since phase start, at the end */
    double  duration_s;
    int64_t trx, queries, errors, reconnects;
    double  lat_avg_ms, lat_pct_ms;     /* pct: first --percentile */
    int64_t queue_len;                  /* --rate: transactions waiting */
} interval_sample;

typedef struct phase_result {
    const char      *name;              /* "warmup" or "measure" */
    double           duration_s;
    stats            st;
    interval_sample *iv;
    int              niv, cap;
} phase_result;

typedef struct conn_fairness { int64_t trx; double busy_s; } conn_fairness;

typedef struct run_result {
    phase_result     phases[2];
    int              nphases;
    conn_fairness   *conns;             /* per connection, for "Threads fairness" */
    int              nconns;
    char             server_version[128];
    int              fatal;             /* a non-retryable error stopped the run */
} run_result;

/* What the caller wants to hear while a run goes on. The engine calls
 * each hook that is set from the thread that called engine_run(), never
 * from a worker, with ctx as its first argument.
 *   on_interval: an interval closed. `acc` holds its counters and
 *   latency (valid only during the call), `s` its sample (also appended to
 *   the phase), t_run the seconds since the run started. */
typedef struct engine_hooks {
    void (*on_interval)(void *ctx, const stats *acc, const interval_sample *s, double t_run);
    void  *ctx;
} engine_hooks;

/* Run the workload as configured; hooks may be NULL. Returns 0 when it ran
 * to the end, -1 when it could not start or a fatal error stopped it
 * (message printed). The caller frees the result with run_result_free(). */
int  engine_run(const wl_run *run, const workload *wl, const struct db_driver *drv,
                const engine_hooks *hooks, run_result *res);
void run_result_free(run_result *res);

#endif
