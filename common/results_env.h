/*
 * results_env.h — the summary's plan and environment (results_summary.c):
 * res_plan (the plan's keys as run), res_hypervisor (a host as libvirt
 * tells it), the host check's findings, and res_env (the host running
 * drivebench, its hypervisors and its host check).
 */
#ifndef DB_RESULTS_ENV_H
#define DB_RESULTS_ENV_H

#include "results_base.h"

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

/* Empty plan and environment (every field "not recorded"). */
void res_plan_init(res_plan *p);
void res_env_init(res_env *e);
/* Deep copies (into zeroed or freshly cleared structs). 0, or -1 when out
 * of memory. */
int res_plan_copy(res_plan *dst, const res_plan *src);
int res_env_copy(res_env *dst, const res_env *src);
void res_plan_clear(res_plan *p);           /* frees members */
void res_env_clear(res_env *e);             /* frees members */

#endif
