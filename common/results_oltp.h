/*
 * results_oltp.h — the oltp result (drivebench.oltp/2; results_oltp.c,
 * results_latency.c): res_oltp and its phases, intervals and latencies,
 * written by `oltp` (res_oltp_write_file) and read by the orchestrator
 * (res_oltp_read_file). The run summary's VM figures (results_summary.h)
 * use its latencies and database sizes.
 */
#ifndef DB_RESULTS_OLTP_H
#define DB_RESULTS_OLTP_H

#include "results_base.h"
#include "hist.h"

/* ------------------------------------------------------------------ */
/* oltp result: drivebench.oltp/1                                      */

/* One percentile of a latency object: "p<pct>" (p99.9) in ms. */
typedef struct res_pct {
    double pct, ms;
} res_pct;

/* p50, p95, p99, p90 and up to 16 requested ones (OLTP_MAX_PERCENTILES),
 * with room to spare; a document with more keeps the first RES_MAX_PCT. */
#define RES_MAX_PCT 24

/* A latency object, in ms: avg, min, max and percentiles in the order they
 * are written (p50, p95, p99, then the requested ones, then p90 for a
 * transaction type; no percentile twice). */
typedef struct res_latency {
    double  avg, min, max;
    int     npct;
    res_pct pct[RES_MAX_PCT];
} res_latency;

/* Add percentile p (ms) unless already present. */
void res_latency_add_pct(res_latency *l, double pct, double ms);
/* The value at percentile p; 0 when absent. */
double res_latency_pct(const res_latency *l, double pct);

/* One --report-interval sample: [t - duration_s, t] on the phase's clock.
 * oltp ends intervals on the phase's boundaries k * interval_s; one that
 * closed late (a stalled tick) is longer, never cut short. */
typedef struct res_interval {
    double  t;              /* seconds since the phase start, end of interval */
    double  tps, qps, errors_ps, reconnects_ps;
    double  lat_avg_ms;
    double  lat_pct_ms;     /* at the phase's iv_pct */
    int64_t queue_length;   /* written when the phase has_queue */
    /* interval time (issue 21): 0 / NULL in results written before */
    double  duration_s;     /* its length, s */
    hist_sparse *histogram; /* owned: its latency (RES_IV_HIST_DIGITS), or NULL */
} res_interval;

/* Significant digits of an interval's histogram: 1 % precision keeps a
 * series of them small (results/SCHEMA.md, "Interval histograms"). */
#define RES_IV_HIST_DIGITS 2

/* Where interval i of p starts (s since the phase start): t - duration_s,
 * or, for a result without duration_s, the previous interval's t (0 for
 * the first). */
struct res_phase;
double res_interval_start(const struct res_phase *p, int i);

/* One transaction type (TPC-C). */
typedef struct res_txn_type {
    char       *name;
    int64_t     count;
    double      share;
    int64_t     rollbacks, retries;
    res_latency latency;    /* includes p90 */
    hist       *histogram;  /* owned */
} res_txn_type;

/* One TPC-C limit line. */
typedef struct res_tpcc_limit {
    char  *name;
    double p90_ms, p90_limit_ms;
    bool   p90_met;
    double share, min_share;
    bool   share_met;
} res_tpcc_limit;

/* Transactions that ended after the phase's end (its cut), in none of its
 * figures: what a server's own counters hold beyond the phase's. Written
 * on the phase the run ended in; absent in an older oltp's results. */
typedef struct res_after_end {
    int64_t committed;      /* committed (COMMIT answered) */
    int64_t rolled_back;    /* rolled back by the workload (TPC-C's 1 %) */
    int64_t errors;         /* a retryable error, rolled back, not run again */
    int64_t abandoned;      /* in flight when its connection closed or broke:
                             * neither committed nor rolled back by oltp */
} res_after_end;

/* The "tpcc" section: the specification's figures. */
typedef struct res_tpcc {
    char           *tpm_name;   /* "tpmC" */
    double          tpm;
    /* the rate the server vouches for (NOPM: New-Orders per minute from
     * SUM(d_next_o_id)); server_rate_name NULL when not counted */
    char           *server_rate_name;
    double          server_rate;
    int64_t         server_count, server_count_margin;
    int64_t         server_count_late;  /* committed after the phase's end */
    double          tps;
    res_tpcc_limit *limits;
    int             nlimits;
    bool            all_limits_met;
} res_tpcc;

typedef struct res_phase {
    res_phase_id  phase;        /* RES_PHASE_WARMUP or RES_PHASE_MEASURE */
    double        duration_s;
    int64_t       transactions;
    int64_t       reads, writes, others, total;
    double        tps, qps;
    int64_t       errors, reconnects, rollbacks;
    bool          has_outage;          /* the two below were recorded (oltp
                                        * writes them; older results lack them) */
    double        unavailable_s;       /* time without a working connection,
                                        * averaged over connections */
    double        cpu_s_per_1000_txn;  /* oltp's own CPU (getrusage) per 1,000
                                        * transactions; NAN: not recorded */
    double       *longest_outage_s;    /* per connection; NULL/0 when absent */
    int           nlongest_outage;
    res_latency   latency;
    bool          has_queue;    /* --rate: queue latency and queue lengths */
    res_latency   queue;
    int64_t       unserved;     /* has_queue: arrivals still queued at the end,
                                 * their latency so far in the histogram */
    bool          has_after_end;
    res_after_end after_end;
    /* phase time (issue 21): 0 in results written before */
    double        interval_s;   /* the intervals' boundaries: k * interval_s */
    double        start_s;      /* the phase's start, s after oltp started */
    double        iv_pct;       /* percentile of the intervals' latency */
    res_interval *intervals;
    int           nintervals;
    int64_t       iv_count;     /* read: the intervals' histograms' counts
                                 * summed; -1: none, or one without */
    hist         *histogram;    /* owned; NULL only when read without one */
    res_txn_type *types;        /* NULL/0 unless several types */
    int           ntypes;
    res_tpcc     *tpcc;         /* NULL unless TPC-C */
} res_phase;

/* Whether phase p (as read) holds every transaction in its histograms
 * once: its histogram's count, and its intervals' summed when each has
 * one, equal transactions + unserved (issue 42). 0, or -1 with "measure:
 * transactions is N, its histogram holds M (count): they must agree" in
 * err. The reader does not ask it: a measurement's reader does. */
int res_phase_counts_agree(const res_phase *p, char *err, size_t errlen);

/* A database's size at one moment, as its server reports it
 * (results/SCHEMA.md, "Database size"), in bytes: data (tables and
 * indexes, or the data files) and log. 0 or RES_UNSET: not recorded (the
 * log alone is unrecorded for an engine that keeps no log of the
 * database's own). A figure, never a failure. */
typedef struct res_db_size {
    int64_t data_bytes, log_bytes;
} res_db_size;

/* Whether v is a recorded size (> 0). */
static inline bool res_db_known(int64_t v) { return v > 0; }

/* A VM's database size after load further than this from the plan's
 * expect_database_size is marked (a warning, not a failure). */
#define RES_DB_SIZE_TOLERANCE_PCT 20.0

typedef struct res_oltp {
    res_end      ended;
    char        *end_reason;    /* why it ended early ("SIGTERM", the error); NULL
                                 * when complete */
    char        *tool_name, *tool_version;
    char        *workload, *driver;
    char        *started_at;    /* UTC ISO 8601: when the run started */
    char        *server_version;
    json_object *options;       /* owned reference: every option in effect */
    res_phase   *phases;
    int          nphases;
    /* before the run's first transaction and after its last */
    res_db_size  db_start, db_end;
} res_oltp;

/* A new zeroed phase appended to r->phases (NULL when out of memory). */
res_phase *res_oltp_add_phase(res_oltp *r);
/* The "measure" phase, or NULL. */
const res_phase *res_oltp_measure(const res_oltp *r);
void res_oltp_clear(res_oltp *r);           /* frees members; accepts NULL */

/* Write r as a drivebench.oltp/1 document at path. 0, or -1 with err. */
int res_oltp_write_file(const res_oltp *r, const char *path, char *err, size_t errlen) DB_MUST_CHECK;
/* Read path into *r (zeroed first). Refuses another schema major, a
 * document without a "measure" phase, a measure phase without a numeric
 * tps or a histogram, and a hostile or broken document: above the bounds
 * above, truncated or malformed JSON, a negative count, a number that is
 * not finite, a histogram whose buckets do not sum to its count or exceed
 * its highest_trackable, intervals whose t goes backwards, a measure phase
 * whose duration_s is not positive. Memory stays bounded by the file cap.
 * 0, or -1 with "PATH: why" (one line) in err (*r left empty). */
int res_oltp_read_file(const char *path, res_oltp *r, char *err, size_t errlen);
/* Called as each interval of a result is read: phase p (number pi of the
 * document's phases; its name and clock read, and intervals[0..i]), its
 * interval i read and its histogram checked. The hook may take that
 * histogram (and set p->intervals[i].histogram NULL). 0, or -1 to stop
 * the read ("out of memory"). */
typedef int (*res_interval_fn)(void *ctx, res_phase *p, int pi, int i);
/* res_oltp_read_file, calling fn (NULL: none) on each interval as it is
 * read, so that a caller can take each interval's histogram before the
 * next is read (a 3-h result of 1-s intervals holds ~50 MB of them). The
 * same refusals; a read refused after some intervals has called fn on
 * them. */
int res_oltp_read_file_each(const char *path, res_oltp *r, res_interval_fn fn, void *ctx,
                            char *err, size_t errlen);

#endif
