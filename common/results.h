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

#include "attributes.h"

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

#include "results_oltp.h"       /* the oltp result: drivebench.oltp/2 */

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

/* A capacity search's probe (issue 45, results/SCHEMA.md "Capacity"):
 * the open-loop rate offered to the drive, what it committed, the mean
 * queue time, the target's percentile of the drive's merged histogram
 * with its 95 % interval (NAN: that side unbounded, too few
 * transactions), the verdict ("within", "broken", "undecided") and why,
 * and the probe's run folder. */
typedef struct res_cap_probe {
    double  offered, achieved, queue_ms;
    double  pct_ms, pct_lo_ms, pct_hi_ms;
    int64_t transactions;
    char   *verdict, *why, *run_id;
} res_cap_probe;

/* A drive's capacity at a latency target: the highest offered rate that
 * held (NAN: none did), its interval [capacity, the lowest rate that did
 * not hold] (hi NAN: none broke it), why the search ended, and the probe
 * (1-based) that set the interval's top (0: none). */
#define RES_MAX_CAP_PROBES 64       /* read at most (orchestrator: ORCH_CAP_MAX_PROBES) */

typedef struct res_capacity {
    char          *target;
    double         capacity, lo, hi;
    char          *end;
    int            breaking;
    res_cap_probe *probes;
    int            nprobes;
} res_capacity;

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
    res_capacity   *capacity;   /* [workload] target's search, or NULL */
} res_drive;

typedef struct res_point {
    double t, tps;
} res_point;

/* ------------------------------------------------------------------ */
/* server settings (results_server.c; issue 44): what a VM's database   */
/* server said of itself before the measurement, written by `oltp       */
/* settings` (its own document) and kept per VM in the summary          */
/* (results/SCHEMA.md, "Server settings").                              */

#define RES_SERVER_SCHEMA   "drivebench-server-settings/1"
#define RES_MAX_SETTINGS    256

typedef struct res_setting {
    char *name;         /* as the engine names it ("innodb_buffer_pool_size",
                         * "max server memory (MB)", "recovery model") */
    char *value;        /* as the server reports it; NULL: not available */
    char *wanted;       /* what the plan states, or NULL: nothing stated */
    char *note;         /* when value is NULL: why ("not available on this
                         * server (SQL Server: ...)"); else NULL */
} res_setting;

typedef struct res_server {
    char        *version;       /* as the server reports it, or NULL */
    char        *edition;       /* SQL Server's SERVERPROPERTY('Edition'),
                                 * or NULL: the engine has none */
    res_setting *settings;
    int          nsettings;
} res_server;

/* path's document (written by oltp settings) into *s. 0, or -1 with "PATH:
 * why" (not JSON, another schema, a setting without a name). */
int  res_server_read_file(const char *path, res_server *s, char *err, size_t errlen);
/* s as its document at path, atomically. 0, or -1 with "cannot write PATH: why". */
int  res_server_write_file(const res_server *s, const char *path, char *err, size_t errlen);
void res_server_clear(res_server *s);       /* frees members; accepts NULL */
/* The setting named name (ASCII case ignored), or NULL. */
res_setting *res_server_find(const res_server *s, const char *name);
/* Whether a value the plan states and one a server reports say the same:
 * equal ignoring ASCII case; or both sizes (digits with an optional K, M,
 * G, T, KB, MB, GB or TB, any case, powers of 1024) of the same bytes; or
 * both truths (on/off, true/false, yes/no, and 1/0 against one of those)
 * of the same. NULL equals only NULL. */
bool res_setting_same(const char *a, const char *b);
/* The first difference between two servers' read-backs (the version, the
 * edition, then each setting of a by name, then those only b has; a
 * value NULL reads "not available"): its name, with a's and b's values
 * in *va and *vb (borrowed; NULL: not available or not read); NULL when
 * they agree or either is NULL (not read: nothing to compare). */
const char *res_server_differs(const res_server *a, const res_server *b, const char **va,
                               const char **vb);
/* A new setting at the end of s (its strings copied; value, note may be
 * NULL). 0, or -1 when out of memory. */
int  res_server_add(res_server *s, const char *name, const char *value, const char *note);

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
    res_server *server;             /* its server's settings read before the
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

/* res_plan.client_path: the client-to-database path a run's figures went
 * through (README's performance section gives what each costs). */
#define RES_PATH_USER_HOSTFWD "qemu-user-hostfwd" /* client = host: QEMU user-mode
                                                   * network, restrict=on, hostfwd
                                                   * on 127.0.0.1 */
#define RES_PATH_GUEST_LOCAL  "guest-loopback"    /* client = guest: 127.0.0.1
                                                   * inside the guest */
#define RES_PATH_PASST_STREAM "passt-stream"      /* client = host, network =
                                                   * passt: passt in the VM's
                                                   * own network namespace,
                                                   * QEMU's -netdev stream */

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

#define RES_E_UNREADABLE (-2)
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

/* The offset of the first of the len bytes at s that is not UTF-8 text
 * every file we write can carry (overlong forms, surrogates, code points
 * past U+10FFFF, U+FFFE/U+FFFF refused; with controls, control
 * characters but tab too), or -1 when none. */
long res_utf8_bad_at(const char *s, size_t len, bool controls);

/* One CSV text field (RFC 4180): quoted, quotes doubled, when it holds a
 * comma, quote, CR or LF, or always when `always` (text columns a
 * spreadsheet must not read as numbers). A field that begins with '=',
 * '+', '-', '@', tab or CR, which a spreadsheet would run as a formula,
 * is quoted and led by a single quote ("'=1+1"), as OWASP's
 * CSV-injection advice says; numbers are written apart, never through
 * here, so a negative number stays a number. */
void res_csv_field(FILE *f, const char *s, bool always);

#include "results_io.h"         /* drive I/O, host view and statistics */

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
    char   *server_settings;        /* the measured VMs' read-back settings,
                                     * "NAME=VALUE; ..." in the order read,
                                     * distinct sets " | "-separated; NULL:
                                     * none read */
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
