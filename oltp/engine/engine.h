/*
 * engine.h — runs a workload: worker threads, each with a libuv loop that
 * drives its share of the connections without blocking; warm-up then
 * measured phase; interval samples; open-loop --rate schedule.
 */
#ifndef OLTP_ENGINE_H
#define OLTP_ENGINE_H

#include "attributes.h"

#include <stdint.h>

#include "hist.h"
#include "results_oltp.h"
#include "workloads/workload.h"

/* Counters and latency of a span of time (an interval or a phase). */
typedef struct stats {
    int64_t trx, reads, writes, others, errors, reconnects, rollbacks;
    int64_t down_ns;                    /* connection-time without a working connection */
    hist   *lat;                        /* µs from intended start to commit */
    hist   *queue;                      /* µs from intended to actual start */
    int     ntypes;
    int64_t type_trx[WL_MAX_TYPES], type_rollbacks[WL_MAX_TYPES], type_retries[WL_MAX_TYPES];
    hist   *type_lat[WL_MAX_TYPES];     /* only when ntypes > 1 */
} stats;

int  stats_init(stats *s, int ntypes);
void stats_clear(stats *s);               /* accepts a zeroed struct */
void stats_reset(stats *s);
void stats_add(stats *dst, const stats *src);

/* An interval: [t - duration_s, t]; t is a boundary of the phase
 * (k * interval_s) except for the last interval of a run that ended early. */
typedef struct interval_sample {
    double  t;                          /* seconds since phase start, at the end */
    double  duration_s;
    hist_sparse *lat;                   /* its latency (RES_IV_HIST_DIGITS), owned
                                         * by the phase; NULL when out of memory */
    int64_t trx, queries, errors, reconnects;
    double  lat_avg_ms, lat_pct_ms;     /* pct: first --percentile */
    int64_t queue_len;                  /* --rate: transactions waiting */
} interval_sample;

typedef struct phase_result {
    res_phase_id     phase;             /* RES_PHASE_WARMUP or RES_PHASE_MEASURE */
    double           duration_s;
    uint64_t         t0_ns;             /* its start, uv_hrtime() (CLOCK_MONOTONIC) */
    double           interval_s;        /* its boundaries: t0 + k * interval_s */
    int64_t          unserved;          /* --rate: arrivals queued at the end; their
                                         * latency so far is in st.lat */
    stats            st;
    /* outages: seconds without a working connection, averaged over the
     * connections (all of them down for 5 s gives 5), and per connection
     * the longest single outage that overlapped the phase */
    double           unavailable_s;
    double          *longest_outage_s;  /* nconns entries */
    double           cpu_s;             /* this process's CPU (user + system,
                                         * getrusage) during the phase, s */
    int              nconns;
    interval_sample *iv;
    int              niv, cap;
    /* Filled by the caller, not the engine (engine_hooks.on_measure):
     * transactions of the workload's tpm_type the server counted as
     * committed during the phase (workload.server_count), and how many
     * of them may differ from the clients' count because they were in
     * flight when the server was read. */
    bool             server_counted;
    int64_t          server_trx;
    int64_t          server_margin;
    /* Filled by the engine: transactions of the workload's tpm_type
     * committed after the phase's cut, which the clients do not count;
     * the server's count read at its end (once the workers ended) holds
     * them, and server_trx is without them. */
    int64_t          late_tpm;
    /* Filled by the engine on the phase the run ended in: every
     * transaction that ended after the cut (late_tpm among them) */
    bool             has_after_end;
    res_after_end    after_end;
    /* Filled by the engine on that phase too: the transactions that
     * were in flight at the cut and ended after it (after_end's committed
     * and rolled back), their statements and latency, and how long after
     * the cut the last of them ended. The result document keeps them
     * apart (after_end); the text report counts them in, as sysbench
     * does: every transaction sent is counted once. */
    stats            tail;
    double           tail_s;
} phase_result;

typedef struct conn_fairness { int64_t trx; double busy_s; } conn_fairness;

/* Each connection's transactions and busy time so far (engine_hooks.snap):
 * the caller's array of cap entries, n of them filled. */
typedef struct conn_snapshot {
    conn_fairness *conns;
    int            cap, n;
} conn_snapshot;

typedef struct run_result {
    phase_result     phases[2];
    int              nphases;
    conn_fairness   *conns;             /* per connection, for "Threads fairness" */
    int              nconns;
    char             server_version[128];
    int              fatal;             /* a non-retryable error stopped the run */
    int              disk_full;         /* ... and it was the server's disk full */
    int              unavailable;       /* a connection stayed lost past --reconnect-timeout:
                                         * the run ended early; results are valid up to then */
    int              stopped;           /* hooks.stop_requested ended the run early */
    char             why[DB_ERR_LEN];          /* fatal or unavailable: the message printed,
                                         * without "oltp: " and the newline */
    /* filled by the caller (main.c, dbsize.h): the database's size before
     * the run and after it; RES_UNSET: not read */
    res_db_size      db_start, db_end;
} run_result;

/* What the caller wants to hear while a run goes on. The engine calls
 * each hook that is set from the thread that called engine_run(), never
 * from a worker, with ctx as its first argument.
 *   on_interval: an interval closed. `acc` holds its counters and
 *   latency (valid only during the call), `s` its sample (also appended to
 *   the phase), t_run the seconds since the run started.
 *   on_measure: the measured phase starts (end = false: before the
 *   workers start when there is no warm-up, else right after the warm-up
 *   closed) or ends (end = true: at its end, while transactions in flight
 *   still finish; its last interval closes after them). Not called for
 *   the end when a fatal error stopped the run.
 *   stop_requested: asked about every 50 ms; true ends the run as its
 *   --time would, at once (res->stopped set): the current interval and
 *   phase close there, transactions in flight get half a second, not the
 *   usual 10 s. Must be cheap (a flag set by a signal handler). */
typedef struct engine_hooks {
    void (*on_interval)(void *ctx, const stats *acc, const interval_sample *s, double t_run);
    void (*on_measure)(void *ctx, bool end);
    bool (*stop_requested)(void *ctx);
    void  *ctx;
    /* when set, filled before each on_interval call (its first cap
     * connections): what the report's checkpoints need */
    conn_snapshot *snap;
} engine_hooks;

/* Run the workload as configured; hooks may be NULL. Returns 0 when it ran
 * to the end or was ended early by a connection lost for longer than
 * --reconnect-timeout (res->unavailable set, message printed) or by
 * hooks.stop_requested (res->stopped set), -1 when it could not start or
 * a fatal error stopped it (message printed; res->fatal set). Ended early,
 * fatal error included, the phases hold what was measured up to then (the
 * last one shorter than asked). The caller empties the result with
 * run_result_clear(). */
int  engine_run(const wl_run *run, const workload *wl, const struct db_driver *drv,
                const engine_hooks *hooks, run_result *res) DB_MUST_CHECK;
void run_result_clear(run_result *res);

/* How many event-loop threads drive nconns connections (>= 1).
 * requested > 0 (--event-threads=N): N, but no more than the connections.
 * requested 0, the default: one loop per CPU oltp may run on (ncpu: its
 * affinity mask), no more than the connections — as many threads as
 * can run at once, so a thread-per-connection client (sysbench, the
 * server's own threads) on the same cores does not get a larger share of
 * them; more loops cost client CPU per transaction (fewer answers per
 * epoll_wait, more context switches: bench/RESULTS-client.md).
 * pooled (--rate, or TPC-C terminals): the connections of a loop are one
 * pool that its arrivals or terminals share, so the default keeps pools
 * large: one loop per 256 connections, at most one per CPU. */
int  engine_event_threads(int requested, int nconns, bool pooled, int ncpu);

#endif
