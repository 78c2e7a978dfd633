/*
 * results_io.h — drive I/O, the host view and statistics of the run
 * summary (results_drive_io.c): res_io and its parts, hung on the
 * summary, each drive and each VM (results_summary.h) by pointer.
 */
#ifndef DB_RESULTS_IO_H
#define DB_RESULTS_IO_H

#include "results_base.h"
#include "results_oltp.h"         /* res_pct */

struct res_summary;

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
                                 * run's whole family (every comparison with a
                                 * verdict, all methods); NAN */
    int    family;              /* comparisons in that correction; 0: none */
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

/* What bounded a drive's figures over its measured phases (issue 45):
 * the verdict, in this order of precedence (orchestrator/telemetry/
 * bound.h states the thresholds, results/SCHEMA.md their reasons). A
 * reader takes a word it does not know for UNDETERMINED. */
#define RES_BOUND_VERDICTS(X) \
    X(UNDETERMINED, "undetermined") X(DRIVE, "drive") X(HOST_CPU, "host cpu") \
    X(GUEST_CPU, "guest cpu") X(NETWORK, "network path") X(CLIENT, "client")
#define RES_BOUND_ENUM(id, name) RES_BOUND_##id,
typedef enum res_bound_verdict { RES_BOUND_VERDICTS(RES_BOUND_ENUM) RES_BOUND_VERDICT_COUNT }
    res_bound_verdict;
#undef RES_BOUND_ENUM
const char *res_bound_verdict_name(res_bound_verdict v);    /* "?" out of range */

/* A VM's QEMU process over its measured phases, by thread role (from
 * /proc/<pid>/task/<tid>/stat and comm): percent of one host CPU, NAN
 * when not sampled. vcpu_pct is the mean over its vCPU threads,
 * vcpu_max_pct the busiest one; main_pct is the main loop (the user-mode
 * network's slirp runs there), io_pct its I/O threads summed, other_pct
 * every other thread (thread-pool workers, RCU). */
typedef struct res_io_qemu {
    int    vcpus;               /* vCPU threads found */
    double vcpu_pct, vcpu_max_pct, main_pct, io_pct, other_pct;
    double seconds;             /* the time the figures cover */
} res_io_qemu;

/* A drive's verdict with the figures it was taken from (NAN: absent). */
typedef struct res_io_bound {
    res_bound_verdict verdict;
    char  *evidence;            /* the figures that decided, for people */
    char  *vm;                  /* the VM whose figure decided, or NULL */
    bool   tcg;                 /* its VMs ran under TCG */
    double host_cpu_pct;        /* host busy over the measured phases */
    double util_pct, queue_depth;   /* the host's view of the device */
    double guest_cpu_pct;       /* the busiest VM's mean vCPU thread */
    double main_loop_pct;       /* the busiest VM's QEMU main loop */
    double io_thread_pct;       /* the busiest VM's QEMU I/O threads */
    double client_cpu_pct;      /* the busiest VM's oltp: percent of its event
                                 * threads' capacity */
} res_io_bound;

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
    res_io_qemu  *qemu;         /* VM: its QEMU threads; NULL: not sampled */
    res_io_bound *bound;        /* drive: what bounded it; NULL: not judged */
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
/* summary.csv's column names of a hypervisor-view key (RES_IOV_*: "db_…")
 * and of a host-view key (RES_IOH_*: "host_…"), which the report's cells
 * name too; NULL for a key out of range. Static strings. */
const char *res_io_hv_csv_name(int k);
const char *res_io_host_csv_name(int k);
#define RES_IO_CSV_FLUSH_RATIO "flush_ratio"
void res_io_csv_head(FILE *f);
void res_io_csv_row(FILE *f, const struct res_summary *s, int d, int rep);
/* Percentile pct (exactly as listed) of a device-latency class, ms; NAN
 * when absent or c NULL. */
double res_devlat_pct(const res_devlat_class *c, double pct);
/* The percentiles of a drive's latency spectrum, p50 ... p99.99: sets
 * *pcts (static) and returns how many. */
int res_io_spectrum_pcts(const double **pcts);

#endif
