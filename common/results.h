/*
 * results.h — the result formats of drivebench as typed structs, with their
 * JSON and CSV at the edges (results/SCHEMA.md).
 *
 * This module (results.c: numbers, CSV, JSON helpers, names of closed
 * choices; results_fields.c: the field tables' walkers; results_oltp.c;
 * results_summary.c; results_drive_io.c) is the only code that knows the
 * JSON key names and schema strings of the result documents:
 *   - the `oltp` result (drivebench.oltp/1): res_oltp, written by `oltp`
 *     (res_oltp_write_file) and read by the orchestrator (res_oltp_read_file);
 *   - the run summary (drivebench.summary/2): res_summary, built by the
 *     orchestrator's aggregation, written as summary.json and summary.csv
 *     (res_summary_write_files) and read by `drivebench report`
 *     (res_summary_read_file);
 *   - CSV fields (res_csv_field), for summary.csv and report.csv.
 *
 * Adding a field to a document is a change here and in results/SCHEMA.md
 * only: a member in the struct and one line in its struct's field table
 * (results_json.h), which its writer, its reader and its checks share
 * (readers ignore keys they do not know, and a missing optional key reads
 * as its "unset" value). Renaming or removing a key bumps the major.
 *
 * Ownership: every struct owns its strings and arrays (malloc'd); free a
 * document with its *_free(), which accepts NULL. Structs are meant to be
 * zero-initialised and filled by the producer.
 */
#ifndef DB_RESULTS_H
#define DB_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "hist.h"

/* An integer that was not recorded (optional keys of the summary). */
#define RES_UNSET INT64_MIN

/* Bounds on a document read from a file (results/SCHEMA.md, "Limits"):
 * an `oltp` result may come from a guest (`client = guest`) and is not
 * trusted. A file above RES_MAX_FILE_BYTES is refused before parsing; an
 * array longer than its bound, a histogram beyond its bounds (whose
 * memory grows with significant_digits and highest_trackable) is refused
 * before anything is allocated for it. */
#define RES_MAX_FILE_BYTES   (64L * 1024 * 1024)
/* summary.json (drivebench's own, read a drive and a VM at a time) */
#define RES_MAX_LAZY_BYTES   (1024L * 1024 * 1024)
#define RES_MAX_PHASES       8
#define RES_MAX_INTERVALS    604800          /* a week of 1-second samples */
#define RES_MAX_TYPES        16
#define RES_MAX_CONNECTIONS  (1 << 20)       /* longest_outage_s entries */
#define RES_MAX_BUCKETS      100000
#define RES_MAX_HIST_DIGITS  4
#define RES_MAX_HIST_HIGHEST (86400LL * 1000 * 1000)   /* a day, in us */
#define RES_MAX_DRIVES       1024            /* summary: drives, hypervisors */
#define RES_MAX_VMS          65536           /* summary: VM runs */
#define RES_MAX_REPETITIONS  1000
#define RES_MAX_HOST_CHECK   4096            /* summary: host check findings */

/* ------------------------------------------------------------------ */
/* names of closed choices                                             */

/* The phases of a run (drivebench) and of an oltp result ("warmup",
 * "measure"): one name each, as the JSON and the run folder's file names
 * spell them. NONE ("?") is what a reader makes of a phase it does not
 * know. */
#define RES_PHASES(X) \
    X(NONE, "?") X(PREPARE, "prepare") X(PRECONDITION, "precondition") \
    X(WARMUP, "warmup") X(MEASURE, "measure") X(CHECK, "check")
#define RES_PHASE_ENUM(id, name) RES_PHASE_##id,
typedef enum res_phase_id { RES_PHASES(RES_PHASE_ENUM) RES_PHASE_COUNT } res_phase_id;
#undef RES_PHASE_ENUM
const char *res_phase_name(res_phase_id p);     /* "?" out of range */

/* How an oltp run ended (its "ended"): ran to its end; stopped by a
 * signal (SIGTERM, SIGINT); stopped by an error (a fatal database error,
 * disk full, the database lost past --reconnect-timeout). Only a complete
 * run is a measurement; the others hold what was measured up to then. A
 * result without the key (older) reads as COMPLETE, a name the reader
 * does not know as ERROR (never a measurement). */
#define RES_ENDS(X) X(COMPLETE, "complete") X(SIGNAL, "signal") X(ERROR, "error")
#define RES_END_ENUM(id, name) RES_END_##id,
typedef enum res_end { RES_ENDS(RES_END_ENUM) RES_END_COUNT } res_end;
#undef RES_END_ENUM
const char *res_end_name(res_end e);            /* "error" out of range */

/* How two drives were compared (summary "comparisons"): the figure (TPS
 * or p99 latency) and the test (paired batch means of intervals, or
 * Welch over repetitions). METHOD_UNKNOWN ("?"): a name the reader does
 * not know. */
#define RES_CMP_METHODS(X) \
    X(METHOD_UNKNOWN, "?", false, false) X(TPS_PAIRED, "tps_paired", true, true) \
    X(P99_PAIRED, "p99_paired", false, true) X(TPS_WELCH, "tps_welch", true, false) \
    X(P99_WELCH, "p99_welch", false, false)
#define RES_CMP_ENUM(id, name, tps, paired) RES_CMP_##id,
typedef enum res_cmp_method { RES_CMP_METHODS(RES_CMP_ENUM) RES_CMP_METHOD_COUNT } res_cmp_method;
#undef RES_CMP_ENUM
const char *res_cmp_method_name(res_cmp_method m);  /* "?" out of range */
bool res_cmp_method_is_tps(res_cmp_method m);       /* else p99 */
bool res_cmp_method_is_paired(res_cmp_method m);    /* else Welch */

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
    hist         *histogram;    /* owned; NULL only when read without one */
    res_txn_type *types;        /* NULL/0 unless several types */
    int           ntypes;
    res_tpcc     *tpcc;         /* NULL unless TPC-C */
} res_phase;

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
int res_oltp_write_file(const res_oltp *r, const char *path, char *err, size_t errlen);
/* Read path into *r (zeroed first). Refuses another schema major, a
 * document without a "measure" phase, a measure phase without a numeric
 * tps or a histogram, and a hostile or broken document: above the bounds
 * above, truncated or malformed JSON, a negative count, a number that is
 * not finite, a histogram whose buckets do not sum to its count or exceed
 * its highest_trackable, intervals whose t goes backwards, a measure phase
 * whose duration_s is not positive. Memory stays bounded by the file cap.
 * 0, or -1 with "PATH: why" (one line) in err (*r left empty). */
int res_oltp_read_file(const char *path, res_oltp *r, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* run summary: drivebench.summary/2                                   */

/* One TPC-C transaction type merged over a set of VM results: latencies
 * from the merged histograms of that type, in ms. */
typedef struct res_tpcc_type {
    char   *name;               /* "New-Order", ... */
    int64_t count, rollbacks;   /* completed (rolled back included); rolled back */
    double  lat_avg_ms, lat_p90_ms, lat_p99_ms;
    double  p90_limit_ms;       /* 0: none */
    bool    p90_met;            /* lat_p90_ms <= p90_limit_ms (or no limit) */
} res_tpcc_type;

/* TPC-C figures of a set of VM results (summary "tpcc"; only for TPC-C). */
typedef struct res_tpcc_figures {
    double         tpmc;        /* sum of the VMs' tpmC (mean over repetitions) */
    bool           has_nopm;    /* every VM's server counted NOPM */
    double         nopm;        /* sum of the VMs' NOPM, when has_nopm */
    int64_t        rollbacks;   /* all types' rollbacks */
    bool           p90_limits_met;  /* every type's p90_met */
    res_tpcc_type *types;       /* in the order the first VM lists them */
    int            ntypes;
} res_tpcc_figures;

void res_tpcc_figures_free(res_tpcc_figures *t);    /* accepts NULL */

/* Figures of a set of VM results (a drive, a repetition of it, the run). */
typedef struct res_figures {
    int     vms;            /* measured VMs per repetition (a drive's: of
                             * each repetition its figures count; the run's:
                             * the drives' sum) */
    double  tps;
    int64_t transactions;
    double  lat_avg_ms, lat_p99_ms;
    double  lat_p99_mean_of_vms_ms;
    int     failed_vms;     /* VM runs that failed, left out of every figure */
    res_tpcc_figures *tpcc; /* owned; NULL unless a TPC-C run */
    int     vm_runs;        /* healthy VM runs measured, all repetitions */
    int     repetitions;    /* repetitions in which a VM was measured */
    double  tps_per_vm;     /* sum of the healthy VM runs' tps / vm_runs */
    /* mean database size of the healthy VM runs that recorded each
     * figure: after load (prepare or restore) and at the end of the
     * measured phase (res_vm) */
    res_db_size db_loaded, db_end;
} res_figures;

typedef struct res_repetition {
    int         repetition; /* 1-based */
    res_figures f;
} res_repetition;

/* The seed restore of a drive's database volumes, all repetitions:
 * bytes copied and the drive's wall time for them. bytes 0: not recorded
 * (no prebuilt database). */
typedef struct res_restore {
    int64_t bytes;
    double  seconds;
} res_restore;

/* One round of a precondition (issue 21): what a VM, or a drive (its
 * VMs summed; p99 from their merged histograms), did in it. NAN: not
 * recorded (a VM has no drive I/O; a round no healthy VM finished). */
typedef struct res_round {
    int    round;               /* 1-based */
    double seconds;
    double tps, p99_ms;
    double rd_iops, wr_iops, rd_mbps, wr_mbps;  /* the drive's database disks */
} res_round;

/* A precondition's steady state by SNIA's window rule (orchestrator
 * stats.h) in one repetition: its rounds, the rule and the verdict. */
typedef struct res_steady {
    int        repetition;
    char      *track;           /* "tps" or "p99" */
    bool       until_steady;    /* it stopped at attainment (else: fixed time) */
    int        window, round_s;
    double     range_limit_pct, slope_limit_pct;
    int        attained_round;  /* the last round when its window (the last)
                                 * passes; 0: it does not (before issue 29:
                                 * the first round whose window passed) */
    char      *verdict;         /* "steady at round 7", "not steady within
                                 * 2m (12 rounds)", "too short: 3 of 5 rounds" */
    /* the window judged, the last one (NAN: too short, no verdict) */
    double     window_mean, window_range_pct, window_excursion_pct;
    res_round *rounds;
    int        nrounds;
} res_steady;

void res_steady_free(res_steady *s);        /* accepts NULL */
/* Deep copy of src into dst. 0, or -1 when out of memory (dst then holds
 * what was copied, for res_steady_free's members). */
int res_steady_copy(res_steady *dst, const res_steady *src);

/* A repetition of a drive left out of its figures, and the VMs it
 * measured (issue 29). */
typedef struct res_rep_vms {
    int repetition;
    int vms;
} res_rep_vms;

typedef struct res_drive {
    char           *name;
    res_figures     f;      /* tps: mean over the repetitions that measured
                             * f.vms VMs, the most any measured */
    res_restore     restore;
    res_repetition *reps;   /* repetitions with results */
    int             nreps;
    res_rep_vms    *other_reps;     /* repetitions that measured fewer VMs:
                                     * listed, in none of f's figures */
    int             nother_reps;
    struct res_io  *io;     /* drive I/O and statistics, or NULL */
    res_steady     *pre;    /* the precondition's steady state, one per
                             * repetition that ran one (issue 21) */
    int             npre;
} res_drive;

typedef struct res_point {
    double t, tps;
} res_point;

typedef struct res_vm {
    char      *name, *drive;
    char      *host;                /* libvirt URI of the host that ran it, or NULL */
    char      *cpu_flags;           /* the CPU flags its guest saw (/proc/cpuinfo,
                                     * space-separated), or NULL: not read */
    bool       pinned;              /* [run] pinning placed it: */
    char      *cpus, *emulator_cpus;/* host CPUs of its vCPUs and of its emulator
                                     * and I/O thread (cpusets) */
    int        numa_node;           /* the node its memory was bound to, -1: none */
    int        repetition;
    bool       failed;              /* left out of every aggregate */
    char      *fault;               /* when failed: "stopped", "disk-full", ... */
    char      *reason;              /* when failed: one line for people */
    char      *failed_at;           /* when failed: UTC ISO 8601, or NULL */
    char      *failed_in;           /* when failed: the phase, or NULL */
    char      *console_tail;        /* when failed: the console's last lines */
    double     failed_at_s;         /* when failed in its measured phase: seconds from
                                     * that phase's start to the fault; NAN: unknown */
    char      *result_ended;        /* when failed: its result's "ended" (what it
                                     * measured up to the fault), or NULL: no result */
    bool       measured;            /* its measured figures below are known
                                     * (a failed VM may have none) */
    char      *result;              /* relative to the run folder */
    char      *precondition_result; /* or NULL */
    double     tps;
    int64_t    transactions;
    double     lat_avg_ms, lat_p99_ms;
    char      *server_version;      /* or NULL */
    int64_t    errors, reconnects;  /* of the measured phase */
    int64_t    boot_reboots;        /* reboots tolerated before its database first
                                     * answered (a profile that restarts on reboot:
                                     * Windows); 0: none */
    res_point *series;              /* [t, tps] per bin of interval_s: t the
                                     * bin's end, s since the phase start */
    int        npoints;
    struct res_io *io;              /* disk I/O, oltp CPU, or NULL */
    res_steady *pre;                /* its precondition's rounds, or NULL */
    double     interval_s;          /* the series' bins (oltp's interval); NAN
                                     * in summaries written before */
    /* its database's size after load (the start of its first oltp run of
     * the repetition: precondition, else measure) and at the end of the
     * measured phase; the data size after load against the plan's
     * expect_database_bytes: the deviation in % (NAN: not compared) and
     * whether it is beyond RES_DB_SIZE_TOLERANCE_PCT (a warning) */
    res_db_size db_loaded, db_end;
    double     db_deviation_pct;
    bool       db_size_warning;
} res_vm;

/* res_plan.client_path: the client-to-database path a run's figures went
 * through (README's performance section gives what each costs). */
#define RES_PATH_USER_HOSTFWD "qemu-user-hostfwd" /* client = host: QEMU user-mode
                                                   * network, restrict=on, hostfwd
                                                   * on 127.0.0.1 */
#define RES_PATH_GUEST_LOCAL  "guest-loopback"    /* client = guest: 127.0.0.1
                                                   * inside the guest */

typedef struct res_plan {
    char   *name, *profile, *client;          /* NULL: not recorded */
    char   *client_path;    /* how the client reaches the database: RES_PATH_*; NULL: not recorded */
    int64_t vms_per_drive, repetitions;       /* RES_UNSET: not recorded */
    double  cv_threshold;                     /* NAN: not recorded */
    char   *workload, *db_driver;
    int64_t tables, table_size, warehouses, threads;
    int64_t precondition_s, warmup_s, measure_s;
    int64_t expect_database_bytes;            /* [workload] expect_database_size */
    /* issue 21: "auto" / "until-steady" when the plan said so, else NULL;
     * repetitions and precondition_s then hold the maximum */
    char   *repetitions_rule, *precondition_rule;
    int64_t repetitions_min, repetitions_max;  /* RES_UNSET unless auto */
    double  rate;           /* [workload] rate (issue 29): 0 closed loop,
                             * else oltp's --rate; NAN: not recorded */
    char   *pinning, *hugepages;    /* [run] pinning ("auto", "off", the
                                     * cpusets) and hugepages ("yes"/"no");
                                     * NULL: not recorded */
} res_plan;

/* What a closed-loop run's latencies are (issue 29): the note for p
 * (rate 0), NULL for an open loop or when the rate is not recorded. */
#define RES_CLOSED_LOOP_NOTE \
    "latency under stalls is understated (closed loop; `rate` gives open loop)"
const char *res_latency_note(const res_plan *p);

typedef struct res_hypervisor {
    char *uri, *hostname, *libvirt_version, *hypervisor, *hypervisor_version, *domain_type;
    /* the host behind uri, as its libvirt tells (NULL / RES_UNSET: not
     * recorded; kernel only for this host's own URIs) */
    char   *cpu_model, *arch, *kernel;
    int64_t cpus, cpu_mhz, memory_bytes;
    /* issue 31: the guest CPU as rendered ("host-passthrough", "maximum",
     * "host-model", "custom MODEL"), why the domain type, and the host's
     * CPU flags (this host's own URIs only); NULL: not recorded */
    char   *guest_cpu, *domain_type_reason, *cpu_flags;
} res_hypervisor;

/* The host check's verdict on one finding (issue 31; results/SCHEMA.md,
 * "Host check"): "ok", "warn" (the figures may differ from a tuned
 * host's; a command fixes it), "refuse" (the run would be meaningless;
 * drivebench runs only with --ignore-host-check=CHECK). */
typedef enum res_hc_status {
    RES_HC_OK,
    RES_HC_WARN,
    RES_HC_REFUSE,
    RES_HC_STATUS_COUNT
} res_hc_status;

/* "ok", "warn", "refuse" ("?" out of range). */
const char *res_hc_status_name(res_hc_status s);

/* One finding of the host check before a run. */
typedef struct res_hc_finding {
    char          *check;       /* "governor", "drive-mount", ... (its NAME
                                 * for --ignore-host-check) */
    char          *drive;       /* the plan's drive it is about, or NULL: the host */
    res_hc_status  status;
    char          *value;       /* what was found, short: "powersave", "41 C" */
    char          *message;     /* one line for people */
    char          *fix;         /* warn and refuse: the command that fixes it,
                                 * or NULL when none does */
    bool           ignored;     /* a refusal the run was told to ignore */
} res_hc_finding;

typedef struct res_env {
    char           *hostname, *kernel, *cpu_model;   /* NULL: not recorded */
    int64_t         cpus, memory_bytes;              /* RES_UNSET: not recorded */
    res_hypervisor *hypervisors;
    int             nhypervisors;
    res_hc_finding *host_check;     /* the host check at the run's start, in
                                     * the order it checks (none: not run) */
    int             nhost_check;
} res_env;

/* How a run ended, as its summary says. */
typedef enum res_run_status {
    RES_RUN_COMPLETE,       /* every VM measured */
    RES_RUN_DEGRADED,       /* completed with failures: some VMs failed */
    RES_RUN_PARTIAL,        /* stopped early (failure, signal): what the
                             * finished phases measured */
} res_run_status;

/* "complete", "completed_with_failures", "partial". */
const char *res_run_status_name(res_run_status s);

/* A run that stopped without its summary (a SIGKILL, a reboot, an OOM
 * kill) and went on with `drivebench resume` (issue 34): when, which
 * repetition ran again, and what was lost. */
typedef struct res_interruption {
    char *at;               /* UTC ISO 8601: the run's last sign of life (its
                             * folder's newest file), or NULL: not known */
    char *resumed_at;       /* UTC ISO 8601: when the resume started */
    int   repetition;       /* the first repetition not complete: run again */
    int   kept_repetitions; /* complete ones kept as they were */
    char *lost;             /* one line for people: what was lost */
    char *moved_to;         /* the unfinished repetition's files, moved there
                             * (relative to the run folder), or NULL: none */
} res_interruption;

int res_interruption_copy(res_interruption *dst, const res_interruption *src);
void res_interruption_clear(res_interruption *i);   /* frees members */

typedef struct res_summary {
    char       *run_id;
    res_run_status status;
    char       *started_at, *finished_at;   /* or NULL */
    char       *plan_file;
    res_plan    plan;
    res_env     env;
    int         repetitions;
    res_drive  *drives;
    int         ndrives;
    res_vm     *vms;
    int         nvms;
    res_figures run;
    int         run_drives;
    char       *repetitions_stop;   /* repetitions = auto: why it stopped,
                                     * or NULL */
    struct res_io *io;      /* comparisons, host CPU, or NULL */
    struct res_fingerprint *fp; /* the protocol (below), or NULL: a run
                             * written before summaries recorded it */
    int         completed_reps;     /* repetitions run to their end (a
                                     * resume goes on after them); -1: not
                                     * recorded (summaries before 2.3) */
    res_interruption *interruptions;    /* issue 34, in order */
    int         ninterruptions;
} res_summary;

/* Empty plan and environment (every field "not recorded"). */
void res_plan_init(res_plan *p);
void res_env_init(res_env *e);
/* Deep copies (into zeroed or freshly cleared structs). 0, or -1 when out
 * of memory. */
int res_plan_copy(res_plan *dst, const res_plan *src);
int res_env_copy(res_env *dst, const res_env *src);
void res_plan_clear(res_plan *p);           /* frees members */
void res_env_clear(res_env *e);             /* frees members */
void res_summary_clear(res_summary *s);     /* frees members; accepts NULL */

/* summary.json as a new JSON object (caller puts). */
json_object *res_summary_to_json(const res_summary *s);
/* Write dir/summary.json and dir/summary.csv. 0, or -1 with err. */
int res_summary_write_files(const res_summary *s, const char *dir, char *err, size_t errlen);

#define RES_E_UNREADABLE (-2)
/* Read a summary.json into *s (zeroed first). Returns 0; RES_E_UNREADABLE
 * when the file cannot be read or is not JSON (err: json-c's reason);
 * -1 when it is not a drivebench.summary/2 document or lacks its drives or
 * vms ("PATH: why" in err). */
int res_summary_read_file(const char *path, res_summary *s, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* sweep.json: drivebench.sweep/1 (issue 34, results/SCHEMA.md "Sweep") */

/* One drive in one step: the step run's figures of it (its summary.json
 * drives[i]); NAN: not measured. */
typedef struct res_sweep_drive {
    char   *name;
    bool    complete;           /* measured, no VM failed */
    int     vms;                /* VMs measured per repetition */
    double  tps, lat_avg_ms, lat_p99_ms;
} res_sweep_drive;

/* One step: the swept key at value, run as its own run (folder run_id
 * inside the sweep's). */
typedef struct res_sweep_step {
    double           value;
    char            *run_id;
    char            *status;    /* its summary's status ("complete",
                                 * "completed_with_failures", "partial"), "failed" (no
                                 * summary), "not run" (an earlier step
                                 * stopped the sweep) */
    res_sweep_drive *drives;
    int              ndrives;
} res_sweep_step;

/* A drive's knee: the first step whose TPS reaches RES_SWEEP_KNEE_SHARE
 * of the drive's highest over its complete steps (beyond it, more load
 * buys less than the rest). */
#define RES_SWEEP_KNEE_SHARE 0.95
typedef struct res_sweep_knee {
    char  *drive;
    int    step;                /* 1-based */
    double value, tps;
} res_sweep_knee;

typedef struct res_sweep {
    char           *run_id, *plan_name;
    char           *section, *key;      /* "workload", "threads" */
    char           *started_at, *finished_at;
    res_sweep_step *steps;
    int             nsteps;
    res_sweep_knee *knees;              /* drives with a complete step */
    int             nknees;
} res_sweep;

void res_sweep_clear(res_sweep *s);     /* frees members; accepts NULL */
/* Write dir/sweep.json. 0, or -1 with err. */
int res_sweep_write_file(const res_sweep *s, const char *dir, char *err, size_t errlen);
/* Read a sweep.json into *s (zeroed first). 0; RES_E_UNREADABLE when it
 * cannot be read or is not JSON; -1 when it is not a drivebench.sweep/1
 * document ("PATH: why" in err). */
int res_sweep_read_file(const char *path, res_sweep *s, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* numbers and CSV                                                     */

/* v rounded to 6 decimals, as summary.json, summary.csv and report.csv
 * write it ("22.5", "2", "16.666667"). Returns buf. */
const char *res_num(double v, char *buf, size_t len);
/* res_num, or "" when v is not finite (a figure not recorded: an empty
 * CSV field, never 0). */
const char *res_num_opt(double v, char *buf, size_t len);
/* The same number as a JSON number that prints that text (caller puts). */
json_object *res_json_number(double v);

/* One CSV field (RFC 4180): quoted, quotes doubled, when it holds a comma,
 * quote, CR or LF, or always when `always` (text columns a spreadsheet
 * must not read as numbers). */
void res_csv_field(FILE *f, const char *s, bool always);

/* ------------------------------------------------------------------ */
/* drive I/O, host view and statistics (results_drive_io.c; issue 13)         */
/* One `res_io *io` hangs on the summary, each drive and each VM; NULL  */
/* when the run recorded none. Its JSON keys sit beside the owner's      */
/* (drives[i].io / .host / .latency_spectrum / .p99_series /             */
/* .steady_state, vms[i].io / .p99_series / .cpu_s_per_1000_txn, the     */
/* summary's comparisons / host_cpu): results/SCHEMA.md, "Drive I/O".    */

/* Rates of one disk as the hypervisor saw it (libvirt block stats): the
 * VMs' disks seen from outside (RES_IOV_*; "db_*" columns of summary.csv). */
#define RES_IO_HV_KEYS(X) \
    X(rd_iops) X(rd_mbps) X(rd_lat_ms) X(wr_iops) X(wr_mbps) X(wr_lat_ms) \
    X(fl_iops) X(fl_lat_ms)
/* Rates of one block device as a kernel saw it: the host's device
 * (/sys/block/<disk>/stat) or the guest's database disk (its
 * /proc/diskstats line, issue 23). rq_kib: average request size. */
#define RES_IO_HOST_KEYS(X) \
    X(rd_iops) X(rd_mbps) X(rd_await_ms) X(wr_iops) X(wr_mbps) X(wr_await_ms) \
    X(dc_iops) X(dc_mbps) X(dc_await_ms) X(fl_iops) X(fl_await_ms) X(await_ms) \
    X(queue_depth) X(util_pct) X(rq_kib)
#define RES_IO_ENUM(k) RES_IOV_##k,
enum { RES_IO_HV_KEYS(RES_IO_ENUM) RES_IOV_N };
#undef RES_IO_ENUM
#define RES_IO_ENUM(k) RES_IOH_##k,
enum { RES_IO_HOST_KEYS(RES_IO_ENUM) RES_IOH_N };
#undef RES_IO_ENUM
#define RES_IO_MAXK 15

/* One interval (t: its end, s since the measured phase's start) or a
 * whole phase. v[] indexed by RES_IOV_* or RES_IOH_*; NAN: absent. */
typedef struct res_io_row {
    double t;
    double v[RES_IO_MAXK];
} res_io_row;

/* A disk (or a drive's sum of disks) over the measured phase. */
typedef struct res_io_rates {
    bool        host;           /* keys: false RES_IO_HV_KEYS, true HOST */
    int         vms, missing;   /* drive sums only; -1: not written */
    res_io_row  total;          /* the phase (total.t: seconds measured) */
    res_io_row *series;         /* per TPS interval, owned */
    int         nseries;
} res_io_rates;

/* Temperature and wear of the drive at one moment (smartctl / nvme). */
typedef struct res_io_health {
    char  *source, *wear_from, *note;   /* NULL: not recorded */
    double temp_c, wear_pct;            /* NAN: unknown */
} res_io_health;

/* What the drive is and what it did, as the host saw it. */
typedef struct res_io_host {
    char    *kind, *node, *disk, *dm_name, *note;   /* device; NULL: absent */
    char   **slaves;
    int      nslaves;
    char    *model, *vendor, *serial, *firmware, *scheduler, *write_cache, *fs_type;
    int64_t  size_bytes, fs_size_bytes, fs_avail_bytes;     /* RES_UNSET: unknown */
    int      rotational;                                    /* -1: unknown */
    double   fs_used_pct;                                   /* NAN: unknown */
    res_io_health *health_before, *health_after;            /* NULL: not read */
    res_io_rates  *rates;       /* host keys; NULL: not sampled (no block
                                 * device, or the drive is on another host) */
    double   flush_ratio;       /* device flushes / guests' flushes; NAN */
} res_io_host;

/* Least-squares trend of a measured phase's TPS (orchestrator/util/stats.h). */
typedef struct res_io_trend {
    int    n;                   /* 0: not computed */
    double mean, slope, slope_lo, slope_hi, drift_pct;
    bool   trending;
} res_io_trend;

/* The verdict of a comparison ("comparisons"[].verdict). NOT_COMPARABLE
 * (a drive is incomplete, no repetition both measured fully) and
 * TOO_SHORT (too few intervals or repetitions) are no verdict: `reason`
 * says why. A reader takes a word it does not know for NOT_COMPARABLE. */
#define RES_CMP_VERDICTS(X) \
    X(NOT_COMPARABLE, "not comparable") X(TOO_SHORT, "too short") \
    X(NOT_DISTINGUISHABLE, "not distinguishable") X(DISTINGUISHABLE, "distinguishable")
#define RES_CMP_VERDICT_ENUM(id, name) RES_CMP_##id,
typedef enum res_cmp_verdict { RES_CMP_VERDICTS(RES_CMP_VERDICT_ENUM) RES_CMP_VERDICT_COUNT }
    res_cmp_verdict;
#undef RES_CMP_VERDICT_ENUM
const char *res_cmp_verdict_name(res_cmp_verdict v);    /* "?" out of range */

/* A difference of two drives with its 95 % interval. */
typedef struct res_io_cmp {
    char  *a, *b;               /* drive names */
    res_cmp_method method;
    res_cmp_verdict verdict;
    char  *reason;              /* no verdict: why, one line; else NULL */
    int    needs;               /* TOO_SHORT: intervals (paired) or complete
                                 * repetitions (Welch) a verdict needs; else 0 */
    int    n, k;                /* batches (paired; k intervals each) or repetitions */
    double mean_a, mean_b, diff, diff_pct, lo, hi, df, p_value;
    double r1;                  /* paired: phi, the lag-1 autocorrelation of the
                                 * drives' summed series that chose the batch
                                 * length (util/stats.h); NAN */
    double p_holm;              /* p_value after Holm's correction over the
                                 * run's pairs of drives of this method; NAN */
    int    family;              /* pairs of drives in that correction; 0: none */
} res_io_cmp;

/* What the I/O cost per committed transaction (issue 23), keyed: the
 * hypervisor's view of the database disks (rd_kib, wr_kib, flushes), the
 * host's device (dev_*; drive only), write amplification: the device's
 * bytes written over the guests' (every disk of the run on the drive). */
#define RES_IO_TXN_KEYS(X) \
    X(rd_kib) X(wr_kib) X(flushes) X(dev_rd_kib) X(dev_wr_kib) X(dev_flushes) \
    X(dev_busy_ms) X(write_amp)
#define RES_IO_ENUM(k) RES_IOT_##k,
enum { RES_IO_TXN_KEYS(RES_IO_ENUM) RES_IOT_N };
#undef RES_IO_ENUM

/* One interval (t: its end) or the phase; v[] by RES_IOT_*, NAN absent. */
typedef struct res_io_txn_row {
    double t;
    double tps;                 /* committed transactions per second */
    double v[RES_IOT_N];
} res_io_txn_row;

typedef struct res_io_txn {
    int64_t        txns;        /* committed transactions of the measured phases */
    int64_t        new_orders;  /* TPC-C: New-Orders committed; RES_UNSET */
    res_io_txn_row phase;       /* per transaction over the measured phases */
    res_io_txn_row per_new_order;   /* TPC-C: the same per New-Order (tps: NOPS) */
    res_io_txn_row *series;     /* per TPS interval (first repetition), owned */
    int            nseries;
} res_io_txn;

/* The drive's own request latencies, issue to completion, from the
 * kernel's block tracepoints (telemetry/devlat.h): one class per kind. */
#define RES_DEVLAT_CLASSES(X) X(READ, "read") X(WRITE, "write") X(FLUSH, "flush") \
    X(ALL, "all")
#define RES_DEVLAT_ENUM(id, name) RES_DEVLAT_##id,
enum { RES_DEVLAT_CLASSES(RES_DEVLAT_ENUM) RES_DEVLAT_N };
#undef RES_DEVLAT_ENUM

typedef struct res_devlat_class {
    int64_t count;              /* requests completed (0: none) */
    double  avg_ms, max_ms;     /* NAN when none */
    res_pct *pct;               /* p50 ... p99.99 (res_io_spectrum_pcts), owned */
    int      npct;
} res_devlat_class;

/* One TPS interval of the device's latencies (all kinds). */
typedef struct res_devlat_point {
    double  t;
    int64_t n;
    double  p50_ms, p99_ms, max_ms;     /* NAN when n is 0 */
} res_devlat_point;

typedef struct res_io_devlat {
    char   *source;             /* "tracefs" */
    char   *devices;            /* the traced disks: "vda", "sdb,sdc" */
    int64_t unmatched;          /* completions without their issue, left out */
    res_devlat_class cls[RES_DEVLAT_N];
    res_devlat_point *series;   /* first repetition, owned */
    int     nseries;
} res_io_devlat;

/* The transactions' tail against the device, per interval (drive). */
typedef struct res_tail_point {
    double t, txn_ms, dev_ms, queue_depth;  /* NAN: absent */
} res_tail_point;

typedef struct res_io_tail {
    double txn_pct;             /* the transactions' interval percentile */
    char  *dev_figure;          /* "p99" (traced) or "await_ms" (average wait) */
    int    n;                   /* intervals with both figures */
    double r;                   /* Pearson's r of txn_ms and dev_ms over them; NAN */
    res_tail_point *series;     /* owned */
    int    nseries;
} res_io_tail;

typedef struct res_io {
    res_io_rates *db, *boot;    /* VM or drive: the hypervisor view; NULL: none */
    res_io_rates *guest;        /* VM or drive: the guests' view of their
                                 * database disks (host keys); NULL: none */
    char         *guest_note;   /* why there is no guest view, or NULL */
    res_io_txn   *txn;          /* VM or drive: per transaction; NULL: none */
    res_io_devlat *devlat;      /* drive: the device's latencies; NULL: none */
    char         *devlat_note;  /* drive: why not traced, or NULL */
    res_io_tail  *tail;         /* drive: tail against device; NULL: none */
    res_io_host  *host;         /* drive: the host view; NULL: none */
    res_pct      *spectrum;     /* drive: percentiles of the merged histogram */
    int           nspectrum;
    res_point    *p_series;     /* [t, ms]: the intervals' latency at p_pct
                                 * (drive: mean over its VMs), tps field = ms */
    int           np;
    double        p_pct;        /* NAN: no p_series */
    res_io_trend  steady;       /* drive */
    double        cpu_s_per_1000_txn;   /* VM: oltp's CPU; NAN */
    res_io_cmp   *cmp;          /* summary: pairs of drives */
    int           ncmp;
    double        host_cpu_busy_pct;    /* summary: host CPU in measured phases; NAN */
    char         *host_cpu_note;        /* summary: why saturated, or NULL */
    bool          host_saturated;
} res_io;

/* A new res_io with every value "absent" (NULL when out of memory). */
res_io *res_io_new(void);
/* A new rates set of n series rows, every value NAN. NULL: out of memory. */
res_io_rates *res_io_rates_new(bool host, int n);
void res_io_rates_free(res_io_rates *r);        /* accepts NULL */
res_io_health *res_io_health_new(void);
void res_io_free(res_io *io);                  /* accepts NULL */
/* Add io's keys to the JSON object `owner` (a drive, a VM or the summary). */
void res_io_put(json_object *owner, const res_io *io);
/* Read io's keys from owner into *io (NULL when it has none). 0, or -1
 * when out of memory. */
int res_io_get(json_object *owner, res_io **io);
/* summary.csv: the I/O columns appended to the header, and to the row of
 * drive d in repetition rep (both begin with a comma). */
void res_io_csv_head(FILE *f);
void res_io_csv_row(FILE *f, const res_summary *s, int d, int rep);
/* Percentile pct (exactly as listed) of a device-latency class, ms; NAN
 * when absent or c NULL. */
double res_devlat_pct(const res_devlat_class *c, double pct);
/* The percentiles of a drive's latency spectrum, p50 ... p99.99: sets
 * *pcts (static) and returns how many. */
int res_io_spectrum_pcts(const double **pcts);

/* ------------------------------------------------------------------ */
/* protocol fingerprint (results_fingerprint.c; issue 22)              */
/* What must be equal for two runs' figures to be comparable: the       */
/* summary's "fingerprint" object (results/SCHEMA.md, "Fingerprint").    */
/* The layout (VMs per drive, drives) is not in it: a 4-VM and an 8-VM   */
/* run of one protocol differ only there, and that is what scaling       */
/* compares. Strings NULL, integers RES_UNSET, rate NAN: not recorded.   */

typedef struct res_fingerprint {
    char   *workload, *db_driver;
    char   *workload_options;       /* the rest of [workload] extra, words
                                     * sorted; NULL: none */
    int64_t tables, table_size, warehouses, threads, terminals;
    char   *keying_thinking;        /* "on"/"off" as given, NULL: not set */
    double  rate;                   /* transactions/s target; 0: unpaced */
    int64_t precondition_s, warmup_s, measure_s;
    char   *profile;
    int64_t vcpus, memory_bytes;    /* per VM, as the domains got them */
    int64_t boot_size_bytes, db_size_bytes, seed_size_bytes;  /* seed: 0 none */
    char   *controller;             /* SCSI model */
    char   *engine, *server_version;    /* server_version: the measured VMs'
                                     * distinct versions, ", "-separated */
    char   *db_settings;            /* server settings given to the guest,
                                     * words sorted; NULL: none */
    char   *client, *domain_type;   /* domain_type: the hosts' distinct types */
    char   *cpu;                    /* the guest CPU as rendered (hosts' distinct) */
    char   *pinning, *hugepages;    /* [run] pinning: auto, off or explicit */
    char   *drivebench_version;
} res_fingerprint;

/* A fingerprint with every key "not recorded" (NULL when out of memory). */
res_fingerprint *res_fingerprint_new(void);
void res_fingerprint_free(res_fingerprint *fp);     /* accepts NULL */

/* One key of a fingerprint with its value as text ("" when not
 * recorded), in the summary's key order. */
#define RES_FP_MAX_KEYS 32
typedef struct res_fp_item {
    const char *key;                /* static */
    char        value[256];
} res_fp_item;

/* The keys of fp into items[0..RES_FP_MAX_KEYS); returns how many. */
int res_fingerprint_items(const res_fingerprint *fp, res_fp_item *items);

#endif
