/*
 * results_summary.h — the run summary (drivebench.summary/2,
 * results_summary.c, results_summary_csv.c): res_summary, built by the
 * orchestrator's aggregation, written as summary.json and summary.csv
 * (res_summary_write_files) and read by `drivebench report`
 * (res_summary_read_file). Its VMs' figures come from oltp results
 * (results_oltp.h), its plan and hosts are results_env.h's; its drive
 * I/O (results_io.h), capacity searches (results_capacity.h), servers'
 * settings (results_server.h) and fingerprint (results_fingerprint.h)
 * hang on it by pointer: include those headers to read them.
 */
#ifndef DB_RESULTS_SUMMARY_H
#define DB_RESULTS_SUMMARY_H

#include "attributes.h"
#include "results_base.h"
#include "results_oltp.h"
#include "results_env.h"

struct res_io;
struct res_capacity;
struct res_server;
struct res_fingerprint;

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
    struct res_capacity *capacity;   /* [workload] target's search, or NULL */
} res_drive;

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
    struct res_server *server;      /* its server's settings read before the
                                     * measurement (issue 44), or NULL: not read */
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

void res_summary_clear(res_summary *s);     /* frees members; accepts NULL */

/* summary.json as a new JSON object (caller puts). */
json_object *res_summary_to_json(const res_summary *s);
/* Write dir/summary.json and dir/summary.csv. 0, or -1 with err. */
int res_summary_write_files(const res_summary *s, const char *dir, char *err, size_t errlen) DB_MUST_CHECK;
/* The same, with fn called around the writing of each VM of summary.json
 * (before 1, then 0): it may build the VM's long series then and free
 * them after (the run's telemetry does: one VM's at a time in memory).
 * fn returns 0, or -1 (out of memory: the write fails). */
typedef int (*res_vm_each_fn)(void *ctx, res_vm *v, int before);
int res_summary_write_files_vm(const res_summary *s, const char *dir, res_vm_each_fn fn,
                               void *ctx, char *err, size_t errlen) DB_MUST_CHECK;

/* summary.csv alone at path (results_summary_csv.c). 0, or -1 with err. */
int res_summary_write_csv(const res_summary *s, const char *path, char *err, size_t errlen) DB_MUST_CHECK;
/* "complete", or "incomplete" when f counts a failed VM. */
const char *res_figures_status(const res_figures *f);
/* Read a summary.json into *s (zeroed first). Returns 0; RES_E_UNREADABLE
 * when the file cannot be read or is not JSON (err: json-c's reason);
 * -1 when it is not a drivebench.summary/2 document or lacks its drives or
 * vms ("PATH: why" in err). */
int res_summary_read_file(const char *path, res_summary *s, char *err, size_t errlen);
/* res_summary_read_file without the VMs' rows the report does not show
 * (issue 33): each VM's io.{db,boot,guest}.series, per_txn.series and
 * p_latency_series.series are read as empty (nseries / np 0); the rest,
 * the VMs' tps_series and the drives' series included, as it reads. A
 * 64-VM, 3-h, 1-s summary: a few tens of MiB instead of ~600. */
int res_summary_read_figures(const char *path, res_summary *s, char *err, size_t errlen);

#endif
